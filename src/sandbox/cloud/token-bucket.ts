/**
 * A token bucket: `burst` tokens at most, refilled at `perSecond`. Each message takes one; an
 * empty bucket means the sender goes faster than the server allows.
 */
export class TokenBucket {
  readonly perSecond: number;
  readonly burst: number;
  #tokens: number;
  #last: number;

  constructor(perSecond: number, burst: number, now = performance.now()) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.#tokens = burst;
    this.#last = now;
  }

  /** Takes one token; false when none is left. */
  take(now = performance.now()): boolean {
    this.#refill(now);
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** True once the bucket has refilled to its burst: it is then the same as a new one. */
  isFull(now = performance.now()): boolean {
    return this.#tokens + ((now - this.#last) / 1000) * this.perSecond >= this.burst;
  }

  #refill(now: number): void {
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#last) / 1000) * this.perSecond);
    this.#last = now;
  }
}
