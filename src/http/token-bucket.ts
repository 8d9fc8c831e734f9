/**
 * A token bucket: `burst` tokens at most, refilled at `perSecond`. Each request or message takes
 * one. The sandbox uses it to refuse a sender that goes faster than it allows; the client uses the
 * same bucket to wait for its turn instead (and lowers its rate after a refusal).
 */
export class TokenBucket {
  #perSecond: number;
  #burst: number;
  #tokens: number;
  #last: number;

  constructor(perSecond: number, burst: number, now = performance.now()) {
    this.#perSecond = perSecond;
    this.#burst = burst;
    this.#tokens = burst;
    this.#last = now;
  }

  /** Tokens refilled per second. */
  get perSecond(): number {
    return this.#perSecond;
  }

  /** Tokens held at most. */
  get burst(): number {
    return this.#burst;
  }

  /** Takes one token; false when none is left. */
  take(now = performance.now()): boolean {
    this.#refill(now);
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Milliseconds until a token is there (0 when one is there now). */
  msUntilToken(now = performance.now()): number {
    this.#refill(now);
    return this.#tokens >= 1 ? 0 : ((1 - this.#tokens) / this.#perSecond) * 1000;
  }

  /** True once the bucket has refilled to its burst: it is then the same as a new one. */
  isFull(now = performance.now()): boolean {
    return this.#tokens + ((now - this.#last) / 1000) * this.#perSecond >= this.#burst;
  }

  /** Changes the rate (and the burst, never below one token) from now on; tokens held are kept up to the new burst. */
  setRate(perSecond: number, burst: number, now = performance.now()): void {
    this.#refill(now);
    this.#perSecond = perSecond;
    this.#burst = Math.max(1, burst);
    this.#tokens = Math.min(this.#tokens, this.#burst);
  }

  /** Drops every token held: the next one comes after a full refill interval. */
  empty(now = performance.now()): void {
    this.#refill(now);
    this.#tokens = 0;
  }

  #refill(now: number): void {
    this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) / 1000) * this.#perSecond);
    this.#last = now;
  }
}
