/** Settings of a {@link LoginGuard}. */
interface LoginGuardOptions {
  /** Failures inside the window that lock a username; default 5 (WIRE.md §2.2). */
  maxFailures?: number;
  /** How long a failure counts, in milliseconds; default 60,000. */
  windowMs?: number;
  /**
   * The most usernames tracked at once; default 10,000. Past it, the name whose last failure is
   * oldest is forgotten first.
   */
  maxNames?: number;
  /** The clock, in milliseconds; default `Date.now` (tests pass their own). */
  now?: () => number;
}

/**
 * Login lock-out (WIRE.md §2.2): after `maxFailures` wrong logins within `windowMs` for one
 * username (case-insensitive), every attempt is refused until the oldest failure leaves the
 * window. Refused attempts are not counted, so a bot that keeps trying is not locked forever.
 *
 * Memory stays bounded however many distinct names are tried (a credential-stuffing run tries a
 * new one each time): every call first drops the names whose failures have all left the window,
 * and the table never holds more than `maxNames` names.
 */
export class LoginGuard {
  /**
   * Failure times by lowercased username. A name is moved to the end whenever it fails, so the
   * map is ordered by last failure: the expired names are always at the front, and dropping them
   * costs nothing while the front is live.
   */
  readonly #failures = new Map<string, number[]>();
  readonly #maxFailures: number;
  readonly #windowMs: number;
  readonly #maxNames: number;
  readonly #now: () => number;

  constructor(options: LoginGuardOptions = {}) {
    const { maxFailures = 5, windowMs = 60_000, maxNames = 10_000, now = Date.now } = options;
    if (!Number.isSafeInteger(maxFailures) || maxFailures < 1) {
      throw new RangeError(`maxFailures must be an integer >= 1, got ${maxFailures}`);
    }
    if (!Number.isFinite(windowMs) || windowMs <= 0) {
      throw new RangeError(`windowMs must be a number of milliseconds > 0, got ${windowMs}`);
    }
    if (!Number.isSafeInteger(maxNames) || maxNames < 1) {
      throw new RangeError(`maxNames must be an integer >= 1, got ${maxNames}`);
    }
    this.#maxFailures = maxFailures;
    this.#windowMs = windowMs;
    this.#maxNames = maxNames;
    this.#now = now;
  }

  /** How many usernames are tracked now (for tests and monitoring). */
  get size(): number {
    return this.#failures.size;
  }

  /** Failures of this username still inside the window. */
  recentFailures(username: string): number {
    const now = this.#now();
    this.#sweep(now);
    return this.#live(username.toLowerCase(), now).length;
  }

  /** True while the username has `maxFailures` failures inside the window. */
  isLocked(username: string): boolean {
    return this.recentFailures(username) >= this.#maxFailures;
  }

  /** Counts a failure; answers how many are now inside the window (at most `maxFailures`). */
  fail(username: string): number {
    const now = this.#now();
    this.#sweep(now);
    const key = username.toLowerCase();
    // Only the newest `maxFailures` matter for the lock, so no name holds more than that.
    const times = [...this.#live(key, now), now].slice(-this.#maxFailures);
    this.#failures.delete(key);
    this.#failures.set(key, times);
    while (this.#failures.size > this.#maxNames) {
      const oldest = this.#failures.keys().next().value as string;
      this.#failures.delete(oldest);
    }
    return times.length;
  }

  /** A successful login forgets earlier failures. */
  succeed(username: string): void {
    this.#failures.delete(username.toLowerCase());
  }

  /** The failures of one name inside the window; a name with none left is dropped. */
  #live(key: string, now: number): number[] {
    const times = this.#failures.get(key);
    if (!times) return [];
    const kept = times.filter((t) => now - t < this.#windowMs);
    if (kept.length === 0) this.#failures.delete(key);
    else if (kept.length !== times.length) this.#failures.set(key, kept);
    return kept;
  }

  /**
   * Drops the names at the front whose last failure has left the window. It stops at the first
   * live name, so each name is dropped once and a call costs O(1) on average. (Should the clock
   * step back, some expired names wait behind a live one until it expires; `maxNames` still holds.)
   */
  #sweep(now: number): void {
    for (const [key, times] of this.#failures) {
      if (now - times[times.length - 1]! < this.#windowMs) return;
      this.#failures.delete(key);
    }
  }
}
