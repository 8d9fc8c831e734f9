/**
 * Who sent a request: on the platform the cloud log names the user of every set, so the host
 * looks for the request variable's value there (WIRE.md §6). Best effort and bounded: one log
 * read serves every request waiting at that moment, reads repeat every `intervalMs` while some
 * request is still unmatched, and each request waits at most `timeoutMs` before getting `null`.
 *
 * @module
 */
import type { CloudLogLike } from './cloud-like.js';

/** Reads the newest `limit` entries of the log. */
export type LogReader = (limit: number) => PromiseLike<readonly CloudLogLike[]>;

/** Options of a {@link RequesterLookup}. */
export interface RequesterLookupOptions {
  /** How long one lookup may take before it gives `null`, in milliseconds (default 2000). */
  timeoutMs?: number;
  /** Pause between two log reads while a lookup is unmatched, in milliseconds (default 250). */
  intervalMs?: number;
  /** Log entries read each time (default 100). */
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

  constructor(read: LogReader, options: RequesterLookupOptions = {}) {
    this.#read = read;
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.intervalMs = options.intervalMs ?? 250;
    this.limit = options.limit ?? 100;
  }

  /** Lookups under way. */
  get pending(): number {
    return this.#waiting.size;
  }

  /** The user who set `variable` (name without `☁ `) to `value` most recently, or `null` when not found in time. */
  find(variable: string, value: string): Promise<string | null> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        key: keyOf(variable, value),
        resolve,
        timer: setTimeout(() => this.#settle(waiter, null), this.timeoutMs),
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

function keyOf(name: string, value: string): string {
  return `${name}\u0000${value}`;
}
