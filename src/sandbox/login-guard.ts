/**
 * Login lock-out (WIRE.md §2.2): after `maxFailures` wrong logins within `windowMs` for one
 * username (case-insensitive), every attempt is refused until the oldest failure leaves the
 * window. Refused attempts are not counted, so a bot that keeps trying is not locked forever.
 */
export class LoginGuard {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures = 5,
    private readonly windowMs = 60_000,
  ) {}

  /** Failures of this username still inside the window. */
  recentFailures(username: string, now = Date.now()): number {
    const key = username.toLowerCase();
    const kept = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept.length;
  }

  isLocked(username: string, now = Date.now()): boolean {
    return this.recentFailures(username, now) >= this.maxFailures;
  }

  /** Counts a failure; answers how many are now inside the window. */
  fail(username: string, now = Date.now()): number {
    const count = this.recentFailures(username, now);
    const key = username.toLowerCase();
    this.failures.set(key, [...(this.failures.get(key) ?? []), now]);
    return count + 1;
  }

  /** A successful login forgets earlier failures. */
  succeed(username: string): void {
    this.failures.delete(username.toLowerCase());
  }
}
