/**
 * A token bucket: `burst` tokens at most, refilled at `perSecond`. Each message a connection sends
 * takes one; an empty bucket means the connection sends faster than the server allows.
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
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#last) / 1000) * this.perSecond);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
