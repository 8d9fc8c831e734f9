/**
 * The options of `startSandbox` and their checks. They are checked before anything starts, and a
 * mistake names the option: a wrong kind of value is a TypeError, a number out of range a
 * RangeError, as everywhere in the public API.
 */
import { describe } from '../records/validate.js';
import { resolveSandboxRateLimit, type SandboxRateLimit } from './rules/traffic.js';

/** Options of `startSandbox`. */
export interface SandboxOptions {
  /** Port to listen on; `0` (the default) picks a free one. */
  port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  host?: string;
  /**
   * Milliseconds added before every answer, to simulate the internet in benchmarks; 0 to 60,000,
   * default 0.
   */
  latency?: number;
  /** Data seed, a safe integer; the same seed gives identical data. Default 1. */
  seed?: number;
  /** Seconds a project token lives, > 0; default 300. */
  projectTokenTtl?: number;
  /** `false` turns off the cloud endpoints' per-connection rate limits (for benchmarks); default true. */
  cloudRateLimits?: boolean;
  /**
   * Milliseconds a client has to send a whole request (headers and body), 1,000 to 600,000;
   * default 30,000. Past it the answer is 408 and the connection is closed.
   */
  requestTimeout?: number;
  /**
   * Bytes of assets one user may upload, in all, 1 to 2^40; default 100 MiB (each asset is also
   * limited to 10 MiB, as on the platform). Past it an upload is refused with 413.
   */
  assetQuota?: number;
  /**
   * Comments one account may post per minute before the next is refused with `isFlood`
   * (WIRE.md §11.4), 1 to 100,000; default 5. Raise it for tests that post many comments.
   */
  commentsPerMinute?: number;
  /**
   * The platform's HTTP rate limit, per client address: requests a second (a burst of one
   * second's worth), or `{ perSecond, burst, retryAfter }`. Past it the answer is 429, with a
   * `Retry-After` (whole seconds, or the text `retryAfter` gives) unless `retryAfter: false`.
   * Default: no limit.
   */
  rateLimit?: number | SandboxRateLimit | false;
  /**
   * Answer every HTTP request with an HTML 403 page, as the platform answers a blocked address
   * (switch it later with `sandbox.traffic.block`). Default false.
   */
  block?: boolean;
}

/** Every option with its value filled in. */
interface ResolvedOptions {
  port: number;
  host: string;
  latency: number;
  seed: number;
  projectTokenTtl: number;
  cloudRateLimits: boolean;
  requestTimeout: number;
  assetQuota: number;
  commentsPerMinute: number;
  rateLimit: Required<SandboxRateLimit> | null;
  block: boolean;
}

const DEFAULTS: ResolvedOptions = {
  port: 0,
  host: '127.0.0.1',
  latency: 0,
  seed: 1,
  projectTokenTtl: 300,
  cloudRateLimits: true,
  requestTimeout: 30_000,
  assetQuota: 100 * 1024 * 1024,
  commentsPerMinute: 5,
  rateLimit: null,
  block: false,
};

/** A latency past this is a mistake, not a slow network (and timers cap out near 24.8 days). */
const MAX_LATENCY_MS = 60_000;

const KNOWN = Object.keys(DEFAULTS);

/**
 * Checks the options and fills in the defaults. `undefined`, for the whole object or for one
 * option, means the default (the CLI passes the flags it was not given as `undefined`).
 */
export function resolveOptions(options: unknown): ResolvedOptions {
  if (options === undefined) return { ...DEFAULTS };
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`options must be an object, got ${describe(options)}`);
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!KNOWN.includes(key)) {
      throw new TypeError(`unknown option options.${key} (known: ${KNOWN.join(', ')})`);
    }
  }
  const pick = <K extends keyof ResolvedOptions>(key: K): unknown =>
    given[key] === undefined ? DEFAULTS[key] : given[key];

  const port = number(pick('port'), 'options.port');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`options.port must be an integer 0..65535, got ${port}`);
  }
  const host = pick('host');
  if (typeof host !== 'string') {
    throw new TypeError(`options.host must be a string, got ${describe(host)}`);
  }
  if (host === '') throw new RangeError('options.host must be a non-empty interface name or address');
  const latency = number(pick('latency'), 'options.latency');
  if (!(latency >= 0 && latency <= MAX_LATENCY_MS)) {
    throw new RangeError(`options.latency must be a number of ms 0..${MAX_LATENCY_MS}, got ${latency}`);
  }
  const seed = number(pick('seed'), 'options.seed');
  if (!Number.isSafeInteger(seed)) throw new RangeError(`options.seed must be a safe integer, got ${seed}`);
  const projectTokenTtl = number(pick('projectTokenTtl'), 'options.projectTokenTtl');
  if (!Number.isFinite(projectTokenTtl) || projectTokenTtl <= 0) {
    throw new RangeError(`options.projectTokenTtl must be a number of seconds > 0, got ${projectTokenTtl}`);
  }
  const cloudRateLimits = pick('cloudRateLimits');
  if (typeof cloudRateLimits !== 'boolean') {
    throw new TypeError(`options.cloudRateLimits must be a boolean, got ${describe(cloudRateLimits)}`);
  }
  const requestTimeout = number(pick('requestTimeout'), 'options.requestTimeout');
  if (!(requestTimeout >= 1_000 && requestTimeout <= 600_000)) {
    throw new RangeError(`options.requestTimeout must be a number of ms 1000..600000, got ${requestTimeout}`);
  }
  const assetQuota = number(pick('assetQuota'), 'options.assetQuota');
  if (!Number.isSafeInteger(assetQuota) || assetQuota < 1 || assetQuota > 2 ** 40) {
    throw new RangeError(`options.assetQuota must be a number of bytes 1..2^40, got ${assetQuota}`);
  }
  const commentsPerMinute = number(pick('commentsPerMinute'), 'options.commentsPerMinute');
  if (!Number.isSafeInteger(commentsPerMinute) || commentsPerMinute < 1 || commentsPerMinute > 100_000) {
    throw new RangeError(
      `options.commentsPerMinute must be a whole number 1..100000, got ${commentsPerMinute}`,
    );
  }
  const rateLimit = resolveSandboxRateLimit(given.rateLimit);
  const block = pick('block');
  if (typeof block !== 'boolean')
    throw new TypeError(`options.block must be a boolean, got ${describe(block)}`);
  return {
    port,
    host,
    latency,
    seed,
    projectTokenTtl,
    cloudRateLimits,
    requestTimeout,
    assetQuota,
    commentsPerMinute,
    rateLimit,
    block,
  };
}

/** A number of any value (NaN included: the range checks refuse it with a clearer message). */
function number(value: unknown, name: string): number {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${describe(value)}`);
  return value;
}
