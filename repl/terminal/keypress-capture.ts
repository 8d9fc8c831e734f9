/**
 * Taking the keyboard away from readline for a while: a password that must not echo, or keys
 * typed while an evaluation runs (held back and replayed afterwards, as node's own REPL does, so
 * pasted lines run one after another and nothing is echoed over a progress bar).
 *
 * Only public stream APIs are used: readline reads `keypress` events from its input, so moving
 * those listeners aside and putting them back is all it takes.
 */
import type { EventEmitter } from 'node:events';
import type { Key } from 'node:readline';

/** What a keypress listener receives. */
type KeypressListener = (text: string | undefined, key: Key | undefined) => void;

/** An ended capture: gives the keyboard back. */
export type Release = () => void;

/** Routes keypresses to one handler at a time, restoring the previous listeners afterwards. */
export class KeypressRouter {
  readonly #input: EventEmitter;

  /** `input` emits `keypress` events (`process.stdin` once readline has set it up). */
  constructor(input: EventEmitter) {
    this.#input = input;
  }

  #listeners(): KeypressListener[] {
    return this.#input.listeners('keypress') as KeypressListener[];
  }

  /** Sends every keypress to `handler` until the returned function is called. */
  capture(handler: KeypressListener): Release {
    const saved = this.#listeners();
    this.#input.removeAllListeners('keypress');
    this.#input.on('keypress', handler);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#input.removeAllListeners('keypress');
      for (const listener of saved) this.#input.on('keypress', listener);
    };
  }

  /**
   * Holds keys back: they are replayed to readline when the returned function is called.
   * `onInterrupt` runs for Ctrl-C instead (which is not held).
   */
  hold(onInterrupt: () => void): Release {
    const held: [string | undefined, Key | undefined][] = [];
    const release = this.capture((text, key) => {
      if (key?.ctrl && key.name === 'c') onInterrupt();
      else held.push([text, key]);
    });
    return () => {
      release();
      // Replaying may start another evaluation, which holds the keys after it again: each key goes
      // to whoever listens at the moment it is replayed.
      for (const [text, key] of held) {
        for (const listener of this.#listeners()) listener.call(this.#input, text, key);
      }
    };
  }
}
