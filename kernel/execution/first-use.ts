/**
 * What a cell needs before it runs. The session (the embedded sandbox and its login) and the
 * preload that declares `session`, `show`, the package's exports… cost about half a second; a
 * cell that names none of them (`1 + 1`, plain TypeScript) runs without waiting for them, as
 * in plain tslab. They start in the background shortly after the kernel does, and the first
 * cell that names one of them waits for them.
 */

const WORD = /[A-Za-z_$][\w$]*/g;

/** Whether `code` mentions one of `names` (as a word, anywhere: code, strings, comments). */
export function mentionsAny(code: string, names: ReadonlySet<string>): boolean {
  for (const [word] of code.matchAll(WORD)) if (names.has(word)) return true;
  return false;
}

/** A start-up step run once, either on first use or by a timer, whichever comes first. */
export class OnFirstUse<T> {
  readonly #start: () => Promise<T>;
  #running: Promise<T> | null = null;

  constructor(start: () => Promise<T>) {
    this.#start = start;
  }

  /** Starts the step if it has not started; answers its promise. */
  get(): Promise<T> {
    if (!this.#running) {
      this.#running = this.#start();
      this.#running.catch(() => {}); // reported to the cells that wait for it
    }
    return this.#running;
  }

  /** Whether the step has started. */
  get started(): boolean {
    return this.#running !== null;
  }

  /** Starts the step after `ms` unless something needed it before; the timer never holds the process. */
  startAfter(ms: number): void {
    setTimeout(() => void this.get(), ms).unref();
  }
}
