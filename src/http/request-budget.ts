/**
 * The request budget of a client: how many requests a second it sends to one group of hosts.
 * The platform asks for about 10 a second in all and answers 429 beyond, then blocks the address;
 * every request of a session (walks, downloads, metadata calls, cloud-log polls) waits its turn
 * here, in order, so together they keep to the budget.
 *
 * A refusal (429) pauses the whole group for the time the service asks (`Retry-After`) or a
 * jittered backoff, and halves the rate; successes win it back slowly (additive increase,
 * multiplicative decrease), so a limit lower than the budget is found instead of hammered.
 */
import { TokenBucket } from './token-bucket.js';

/** A request budget: requests a second, and how many may go at once after a quiet time. */
export interface RateLimit {
  /** Sustained requests a second; `Infinity` turns pacing off (a 429's wait is still kept). */
  perSecond: number;
  /** Requests that may go at once after a quiet time (default: half a second's worth, at least 1). */
  burst?: number;
}

/** The budget of a `Session` when none is given: the platform's documented 10 requests a second. */
export const DEFAULT_RATE_LIMIT: Readonly<Required<RateLimit>> = Object.freeze({ perSecond: 10, burst: 5 });

/** A pause the service imposed, as reported to progress callbacks. */
export interface RateLimitWait {
  /** Milliseconds until requests resume. */
  resumeInMs: number;
  /** The status that caused it (429). */
  status: number;
  /** Readable: `"rate-limited, resuming in 2.1 s"`. */
  message: string;
}

/** Called when the service makes this client wait. */
export type RateLimitListener = (wait: RateLimitWait) => void;

/** The lowest rate a run of refusals brings the budget to: one request every 5 s. */
const MIN_RATE = 0.2;
/** A refusal multiplies the rate by this. */
const DECREASE = 0.5;
/** Each second of successes wins back this share of the configured rate. */
const INCREASE_PER_SECOND = 0.05;
/** Requests waiting for their turn at most, per group: past it a request fails at once. */
const MAX_QUEUED = 10_000;

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** Checks a `rateLimit` option (a number of requests a second, or `{ perSecond, burst }`). */
export function resolveRateLimit(
  value: number | RateLimit | undefined,
  name = 'rateLimit',
): Required<RateLimit> {
  if (value === undefined) return { ...DEFAULT_RATE_LIMIT };
  const limit = typeof value === 'number' ? { perSecond: value } : value;
  if (limit === null || typeof limit !== 'object') {
    throw new TypeError(`${name} must be a number of requests a second or { perSecond, burst }`);
  }
  const { perSecond } = limit;
  if (typeof perSecond !== 'number' || Number.isNaN(perSecond)) {
    throw new TypeError(`${name}.perSecond must be a number (Infinity turns the budget off)`);
  }
  if (!(perSecond >= 0.01))
    throw new RangeError(`${name} must be at least 0.01 requests a second, got ${perSecond}`);
  const burst = limit.burst ?? Math.max(1, Math.floor(perSecond / 2));
  if (perSecond !== Number.POSITIVE_INFINITY && !(Number.isInteger(burst) && burst >= 1 && burst <= 1_000)) {
    throw new RangeError(`${name}.burst must be an integer 1..1000, got ${burst}`);
  }
  return { perSecond, burst };
}

/** "rate-limited, resuming in 2.1 s" */
export function rateLimitMessage(resumeInMs: number): string {
  return `rate-limited, resuming in ${(Math.max(0, resumeInMs) / 1000).toFixed(1)} s`;
}

/** One group's budget: a token bucket, a FIFO of requests waiting for a token, and a pause. */
export class RequestBudget {
  /** The configured limit (the rate never rises above it). */
  readonly limit: Readonly<Required<RateLimit>>;
  /** Absent when pacing is off. */
  readonly #bucket: TokenBucket | undefined;
  readonly #queue: Waiter[] = [];
  readonly #notify: RateLimitListener;
  #pausedUntil = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** 429s answered to this group so far. */
  #refusals = 0;
  /** When the rate was last lowered. */
  #loweredAt = Number.NEGATIVE_INFINITY;

  constructor(limit: Required<RateLimit>, notify: RateLimitListener = () => undefined) {
    this.limit = Object.freeze({ ...limit });
    this.#notify = notify;
    this.#bucket = Number.isFinite(limit.perSecond)
      ? new TokenBucket(limit.perSecond, limit.burst)
      : undefined;
  }

  /** Requests a second allowed now (below the limit for a while after a refusal). */
  get perSecond(): number {
    return this.#bucket?.perSecond ?? Number.POSITIVE_INFINITY;
  }

  /** 429s this group was answered. */
  get refusals(): number {
    return this.#refusals;
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    return this.#queue.length;
  }

  /** True when nothing waits and the bucket is back to full: the budget is then as new. */
  get idle(): boolean {
    return (
      this.#queue.length === 0 && performance.now() >= this.#pausedUntil && (this.#bucket?.isFull() ?? true)
    );
  }

  /** Waits for this request's turn (in order of asking); rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.#queue.length === 0 && this.#ready(performance.now())) return Promise.resolve();
    if (this.#queue.length >= MAX_QUEUED) {
      return Promise.reject(
        new RangeError(
          `more than ${MAX_QUEUED} requests are waiting for the request budget; send fewer at once`,
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const at = this.#queue.indexOf(waiter);
          if (at >= 0) this.#queue.splice(at, 1);
          reject(signal.reason);
          // The timer was set for the queue as it was: with nobody left waiting it would only
          // keep the process alive (up to a whole 429 pause).
          this.#drain();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
      this.#drain();
    });
  }

  /**
   * The service refused a request (429): no request of the group goes out for `waitMs`, the
   * tokens held are dropped, and the rate is halved (when pacing is on). `sentAt` is when the
   * refused request got its turn (`performance.now()`): the other requests already on their way
   * when the rate was last lowered are refused too, and lower it only once with them.
   */
  refused(waitMs: number, sentAt: number, status = 429): void {
    this.#refusals++;
    const now = performance.now();
    this.#pausedUntil = Math.max(this.#pausedUntil, now + waitMs);
    const bucket = this.#bucket;
    if (bucket && sentAt >= this.#loweredAt) {
      this.#loweredAt = now;
      const rate = Math.max(MIN_RATE, Math.min(bucket.perSecond * DECREASE, this.limit.perSecond));
      bucket.setRate(rate, Math.max(1, Math.floor(rate / 2)), now);
    }
    bucket?.empty(now);
    const resumeInMs = this.#pausedUntil - now;
    this.#notify({ resumeInMs, status, message: rateLimitMessage(resumeInMs) });
    this.#drain();
  }

  /** A request went through: the rate creeps back toward the limit. */
  succeeded(): void {
    const bucket = this.#bucket;
    if (!bucket || bucket.perSecond >= this.limit.perSecond) return;
    // At rate r, r successes a second: each adds 1/r of the second's increase.
    const rate = Math.min(
      this.limit.perSecond,
      bucket.perSecond + (INCREASE_PER_SECOND * this.limit.perSecond) / bucket.perSecond,
    );
    const burst = rate >= this.limit.perSecond ? this.limit.burst : Math.max(1, Math.floor(rate / 2));
    bucket.setRate(rate, burst);
  }

  /** True (and a token taken) when a request may go now. */
  #ready(now: number): boolean {
    if (now < this.#pausedUntil) return false;
    return this.#bucket ? this.#bucket.take(now) : true;
  }

  /** Lets waiting requests go while tokens last, then sleeps until the next one is due. */
  #drain(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const now = performance.now();
    while (this.#queue.length > 0 && this.#ready(now)) {
      const waiter = this.#queue.shift()!;
      if (waiter.onAbort) waiter.signal!.removeEventListener('abort', waiter.onAbort);
      waiter.resolve();
    }
    if (this.#queue.length === 0) return;
    const due = Math.max(this.#pausedUntil - now, this.#bucket?.msUntilToken(now) ?? 0);
    // Kept referenced: a request waiting for its turn is work the process must finish.
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#drain();
    }, Math.ceil(due));
  }
}
