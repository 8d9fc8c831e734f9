/**
 * A rate limit's buckets, one per key: per user and project for the cloud (not per connection: a
 * client that reconnects finds its bucket as it left it), per client address for HTTP. The table
 * is bounded: a bucket that has refilled to its burst is the same as a new one, so it is dropped
 * first; past the bound the least recently used buckets go.
 */
import { TokenBucket } from '../../http/token-bucket.js';

/** Requests (or messages) a second, and how many may come at once after a quiet time. */
interface BucketLimit {
  perSecond: number;
  burst: number;
}

/** Buckets kept at most (a bucket is a few dozen bytes). */
const MAX_RATE_BUCKETS = 10_000;

export class RateBuckets {
  readonly limit: BucketLimit;
  readonly maxBuckets: number;
  /** Least recently used first. */
  readonly #buckets = new Map<string, TokenBucket>();

  constructor(limit: BucketLimit, maxBuckets = MAX_RATE_BUCKETS) {
    this.limit = limit;
    this.maxBuckets = maxBuckets;
  }

  /** Buckets held now. */
  get size(): number {
    return this.#buckets.size;
  }

  /** Takes one token from `key`'s bucket; false when it is empty. */
  take(key: string, now = performance.now()): boolean {
    let bucket = this.#buckets.get(key);
    if (bucket) {
      this.#buckets.delete(key); // re-inserted below: most recently used last
    } else {
      if (this.#buckets.size >= this.maxBuckets) this.#evict(now);
      bucket = new TokenBucket(this.limit.perSecond, this.limit.burst, now);
    }
    this.#buckets.set(key, bucket);
    return bucket.take(now);
  }

  /** Milliseconds until `key`'s bucket has a token again (0 when it has one). */
  msUntilToken(key: string, now = performance.now()): number {
    return this.#buckets.get(key)?.msUntilToken(now) ?? 0;
  }

  /** Drops the full buckets, then the least recently used ones, down to 90% of the bound. */
  #evict(now: number): void {
    for (const [key, bucket] of this.#buckets) if (bucket.isFull(now)) this.#buckets.delete(key);
    const keep = Math.floor(this.maxBuckets * 0.9);
    for (const key of this.#buckets.keys()) {
      if (this.#buckets.size <= keep) break;
      this.#buckets.delete(key);
    }
  }
}
