/**
 * What stands in front of the sandbox's HTTP routes, as in front of the platform's: a rate limit
 * per client address (429 beyond it, with or without `Retry-After`) and a block that answers every
 * request with an HTML page. It also counts what it saw, for tests and benchmarks to check a
 * client against.
 */
import type { IncomingMessage } from 'node:http';
import type { ErrorBody } from '../../records/records.js';
import { redactPath } from '../../redact.js';
import { json, type Reply } from '../http-utils.js';
import { RateBuckets } from './rate-buckets.js';

/** The HTTP rate limit of a sandbox, per client address. */
export interface SandboxRateLimit {
  /** Requests a second, sustained. */
  perSecond: number;
  /** Requests that may come at once after a quiet time (default: one second's worth, at least 1). */
  burst?: number;
  /**
   * The `Retry-After` of a 429: `true` (the default) the whole seconds until a request would pass,
   * a number those seconds always, a string that text as given (an HTTP date, which a front whose
   * clock is behind the client's sends already past, or a value a broken front sends), `false` none
   * (the platform's notes do not say it sends one).
   */
  retryAfter?: boolean | number | string;
}

/** One request as the sandbox saw it arrive. */
export interface TrafficEntry {
  /** `performance.now()` of its arrival (the same clock as the test process's). */
  at: number;
  method: string;
  /** The path without the query. */
  path: string;
  /** 429 when the rate limit refused it, 403 when the block did, else 0 (it went on to the routes). */
  refused: 0 | 403 | 429;
}

/** Requests remembered in {@link Traffic.log} at most; the oldest go first. */
const MAX_TRAFFIC_LOG = 10_000;

/** The HTML page a blocked address gets (the API's own errors are JSON). */
const BLOCK_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>403 Forbidden</title></head>
<body>
<h1>Forbidden</h1>
<p>Access from your address has been blocked because of unusual traffic. If you believe this is a mistake, wait a while before trying again.</p>
</body>
</html>
`;

/** The counters, the log and the block switch of a sandbox's HTTP side. */
export class Traffic {
  /** Every request is answered {@link BLOCK_PAGE} (403) while true. */
  block: boolean;
  readonly #limit: Required<SandboxRateLimit> | null;
  readonly #buckets: RateBuckets | null;
  readonly #log: TrafficEntry[] = [];
  #requests = 0;
  #limited = 0;
  #blocked = 0;

  constructor(limit: Required<SandboxRateLimit> | null, block = false) {
    this.#limit = limit;
    this.#buckets = limit ? new RateBuckets({ perSecond: limit.perSecond, burst: limit.burst }) : null;
    this.block = block;
  }

  /** The rate limit in force, or `null`. */
  get rateLimit(): Readonly<Required<SandboxRateLimit>> | null {
    return this.#limit;
  }
  /** HTTP requests received (WebSocket upgrades are not HTTP requests here). */
  get requests(): number {
    return this.#requests;
  }
  /** Requests the rate limit answered 429. */
  get limited(): number {
    return this.#limited;
  }
  /** Requests the block answered 403. */
  get blocked(): number {
    return this.#blocked;
  }

  /** The last {@link MAX_TRAFFIC_LOG} requests, oldest first. */
  log(): readonly TrafficEntry[] {
    return [...this.#log];
  }

  /**
   * Decides on a request as it arrives: the block page, a 429, or `undefined` to let it through
   * to the routes. Every request takes a token, as on the platform.
   */
  admit(req: IncomingMessage, now = performance.now()): Reply | undefined {
    this.#requests++;
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const entry: TrafficEntry = {
      at: now,
      method: req.method ?? 'GET',
      // As a log may be shown, a token in the path (a class's sign-up token) is not kept.
      path: redactPath(q < 0 ? target : target.slice(0, q)),
      refused: 0,
    };
    this.#log.push(entry);
    if (this.#log.length > MAX_TRAFFIC_LOG) this.#log.splice(0, this.#log.length - MAX_TRAFFIC_LOG);
    if (this.block) {
      this.#blocked++;
      entry.refused = 403;
      return { status: 403, body: BLOCK_PAGE, contentType: 'text/html; charset=utf-8' };
    }
    const limit = this.#limit;
    const address = req.socket.remoteAddress ?? '';
    if (!limit || this.#buckets!.take(address, now)) return undefined;
    this.#limited++;
    entry.refused = 429;
    const headers: Record<string, string> = {};
    if (limit.retryAfter !== false) {
      const wait =
        limit.retryAfter === true
          ? Math.max(1, Math.ceil(this.#buckets!.msUntilToken(address, now) / 1000))
          : limit.retryAfter;
      headers['Retry-After'] = String(wait);
    }
    const body: ErrorBody = {
      code: 'TooManyRequests',
      message: `rate limit exceeded: at most ${limit.perSecond} requests a second`,
    };
    return json(body, 429, headers);
  }
}

/** Checks the `rateLimit` option of `startSandbox` (a number of requests a second, or the object). */
export function resolveSandboxRateLimit(value: unknown): Required<SandboxRateLimit> | null {
  if (value === undefined || value === false || value === null) return null;
  const limit = (typeof value === 'number' ? { perSecond: value } : value) as SandboxRateLimit;
  if (typeof limit !== 'object') {
    throw new TypeError(
      'options.rateLimit must be a number of requests a second or { perSecond, burst, retryAfter }',
    );
  }
  for (const key of Object.keys(limit)) {
    if (!['perSecond', 'burst', 'retryAfter'].includes(key)) {
      throw new TypeError(`unknown option options.rateLimit.${key} (known: perSecond, burst, retryAfter)`);
    }
  }
  const { perSecond } = limit;
  if (typeof perSecond !== 'number') throw new TypeError('options.rateLimit.perSecond must be a number');
  if (!(perSecond >= 0.01 && perSecond <= 1_000_000)) {
    throw new RangeError(`options.rateLimit must be 0.01..1000000 requests a second, got ${perSecond}`);
  }
  const burst = limit.burst ?? Math.max(1, Math.ceil(perSecond));
  if (!(Number.isInteger(burst) && burst >= 1 && burst <= 1_000_000)) {
    throw new RangeError(`options.rateLimit.burst must be an integer 1..1000000, got ${burst}`);
  }
  const retryAfter = limit.retryAfter ?? true;
  if (typeof retryAfter === 'number') {
    if (!(Number.isInteger(retryAfter) && retryAfter >= 0 && retryAfter <= 86_400)) {
      throw new RangeError(`options.rateLimit.retryAfter must be whole seconds 0..86400, got ${retryAfter}`);
    }
  } else if (typeof retryAfter === 'string') {
    if (!/^[\x20-\x7e]{1,64}$/.test(retryAfter)) {
      throw new RangeError(
        `options.rateLimit.retryAfter must be 1 to 64 printable ASCII characters (a header's text), got ${retryAfter.length > 64 ? `${retryAfter.length} characters` : JSON.stringify(retryAfter)}`,
      );
    }
  } else if (typeof retryAfter !== 'boolean') {
    throw new TypeError(
      'options.rateLimit.retryAfter must be a boolean, a number of seconds or a header text',
    );
  }
  return { perSecond, burst, retryAfter };
}
