/**
 * Whether the REPL is busy (an input being evaluated, a command asking a question) or idle at
 * its prompt. Drawings that redraw themselves above the prompt (live charts) wait for idle.
 */
import { EventEmitter } from 'node:events';

/** Busy/idle state, with an `idle` event when the last piece of work ends. */
export class Activity extends EventEmitter<{ idle: [] }> {
  #busy = 0;

  /** Marks the start of some work; call the returned function (once) when it ends. */
  begin(): () => void {
    this.#busy++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#busy--;
      if (this.#busy === 0) this.emit('idle');
    };
  }

  /** True while any work is under way. */
  get busy(): boolean {
    return this.#busy > 0;
  }
}
