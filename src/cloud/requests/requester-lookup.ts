/**
 * Who sent a request: on the platform the cloud log names the user of every set, so the host
 * looks for the request variable's value there (WIRE.md §6). Best effort and bounded: one log
 * read serves every request waiting at that moment, reads repeat every `intervalMs` while some
 * request is still unmatched, and each request waits at most `timeoutMs` before getting `null`.
 *
 * @module
 */
import { assertFunction, assertInteger, assertObject, MAX_TIMER_MS } from '../../records/validate.js';
import type { CloudLogLike } from './cloud-like.js';

/** Reads the newest `limit` entries of the log. */
export type LogReader = (limit: number) => PromiseLike<readonly CloudLogLike[]>;

/** Options of a {@link RequesterLookup}. */
export interface RequesterLookupOptions {
  /** How long one lookup may take before it gives `null`, in whole milliseconds, >= 0 (default 2000). */
  timeoutMs?: number;
  /** Pause between two log reads while a lookup is unmatched, in whole milliseconds, >= 1 (default 250). */
  intervalMs?: number;
  /** Log entries read each time, 1-1000 (default 100). */
  limit?: number;
}

interface Waiter {
  readonly key: string;
  readonly resolve: (user: string | null) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** Finds the user who set a variable to a value, from the cloud log. */
export class RequesterLookup {
  readonly timeoutMs: number;
  readonly intervalMs: number;
  readonly limit: number;
  readonly #read: LogReader;
  readonly #waiting = new Set<Waiter>();
  #running = false;

  /** @throws TypeError / RangeError for a reader that is not a function or an option out of bounds */
  constructor(read: LogReader, options: RequesterLookupOptions = {}) {
    assertFunction(read, 'read');
    assertObject(options, 'options');
    this.#read = read;
    // Checked here, not at the first lookup: NaN or -1 would silently mean "no wait" or "spin".
    this.timeoutMs = assertInteger(options.timeoutMs ?? 2000, 'options.timeoutMs', 0, MAX_TIMER_MS);
    this.intervalMs = assertInteger(options.intervalMs ?? 250, 'options.intervalMs', 1, MAX_TIMER_MS);
    this.limit = assertInteger(options.limit ?? 100, 'options.limit', 1, MAX_LIMIT);
  }

  /** Lookups under way. */
  get pending(): number {
    return this.#waiting.size;
  }

  /**
   * The user who set `variable` (name without `☁ `) to `value` most recently, or `null` when not
   * found within `timeoutMs`, or within `withinMs` when that is shorter (a request's deadline).
   */
  find(variable: string, value: string, withinMs = Number.POSITIVE_INFINITY): Promise<string | null> {
    const wait = Math.max(0, Math.min(this.timeoutMs, withinMs));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        key: keyOf(variable, value),
        resolve,
        timer: setTimeout(() => this.#settle(waiter, null), wait),
      };
      this.#waiting.add(waiter);
      if (!this.#running) void this.#loop();
    });
  }

  /** Gives `null` to every lookup under way. */
  cancel(): void {
    for (const waiter of [...this.#waiting]) this.#settle(waiter, null);
  }

  #settle(waiter: Waiter, user: string | null): void {
    if (!this.#waiting.delete(waiter)) return;
    clearTimeout(waiter.timer);
    waiter.resolve(user);
  }

  async #loop(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.size > 0) {
        const users = new Map<string, string>();
        try {
          const entries = await this.#read(this.limit);
          // Newest first: the first entry for a value is its latest setter.
          for (const entry of entries) {
            if (entry.verb !== 'set') continue;
            const key = keyOf(entry.name, String(entry.value));
            if (!users.has(key)) users.set(key, entry.user);
          }
        } catch {
          // The log is best effort (the real endpoint is sometimes down): try again, until the timeouts.
        }
        for (const waiter of [...this.#waiting]) {
          const user = users.get(waiter.key);
          if (user !== undefined) this.#settle(waiter, user);
        }
        if (this.#waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
      }
    } finally {
      this.#running = false;
    }
  }
}

/** Most entries one read may ask for (the log serves 100 a request; more means several). */
const MAX_LIMIT = 1000;

function keyOf(name: string, value: string): string {
  return `${name}\u0000${value}`;
}
