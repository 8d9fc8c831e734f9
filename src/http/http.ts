/**
 * The small HTTP core under every resource group: undici with keep-alive, one tough-cookie jar
 * for all hosts, timeouts, one request budget per host group, and retries with jittered backoff
 * for reads.
 */
import { constants as bufferConstants } from 'node:buffer';
import { inspect } from 'node:util';
import { CookieJar } from 'tough-cookie';
import { ApiError, reasonOf } from '../errors.js';
import { JsonDepthError, MAX_JSON_DEPTH, parseJson, stringifyJson, tryParseJson } from '../records/json.js';
import { assertInteger } from '../records/validate.js';
import { redactPairs } from '../redact.js';
import { BodyDecodeError, BodyLimitError } from './body-limit.js';
import { type CookieJarLike, toCookieJar } from './cookies.js';
import { type RateLimit, type RateLimitListener, RequestBudget, resolveRateLimit } from './request-budget.js';
import { sleep } from './timers.js';
import {
  type FetchLike,
  type FetchResponse,
  fetchTransport,
  type Transport,
  undiciTransport,
} from './transport.js';

export type { FetchInit, FetchLike, FetchResponse } from './transport.js';

interface HttpOptions {
  /** A `fetch`-compatible function instead of the built-in transport (its decoder is its own). */
  fetch?: FetchLike;
  /** A tough-cookie `CookieJar` (from the ESM or the CommonJS build). */
  jar?: CookieJarLike;
  userAgent?: string;
  /** Milliseconds before a request is abandoned (default 30 000). */
  timeout?: number;
  /** How many times a read is retried after 429, 5xx or a network error (default 3). */
  retries?: number;
  /** Upper bound for one backoff wait in milliseconds, `Retry-After` included (default 30 000). */
  maxRetryDelay?: number;
  /** Cap on the decoded size of an API answer, in bytes (default 16 MiB). */
  maxResponseBytes?: number;
  /** Cap on the decoded size of a project body or asset download, in bytes (default 256 MiB). */
  maxDownloadBytes?: number;
  /**
   * The request budget of each host group: requests a second (default 10, with a burst of 5),
   * or `{ perSecond, burst }`; `Infinity` turns pacing off.
   */
  rateLimit?: number | RateLimit;
  /**
   * Base URLs that share one budget (the platform's hosts, which its limit counts together).
   * Any other host has a budget of its own.
   */
  hostGroups?: readonly (readonly string[])[];
}

/** One request. `query` values that are `undefined` are left out. */
export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON value (sent as JSON), a string or bytes. */
  json?: unknown;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** Override: may this request be retried? Default: GET and HEAD only. */
  retry?: boolean;
  /** Accept a 3xx answer to a write as success (the site's logout redirects). Default false. */
  acceptRedirect?: boolean;
  /** Read the answer under `maxDownloadBytes` (project bodies, assets) instead of `maxResponseBytes`. */
  download?: boolean;
  /** More secrets to scrub from an error of this request (e.g. the password of a login). */
  secrets?: readonly string[];
}

export const DEFAULT_USER_AGENT = 'scratchlab/0.1 (+https://www.npmjs.com/package/scratchlab)';
/** Default cap on an API answer: the largest real ones (lists of 40 rows) are far below. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Default cap on a download: the platform refuses assets and bodies far smaller than this. */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024;
/** The part of an error's body kept on the {@link ApiError}. */
export const MAX_ERROR_BODY_CHARS = 64 * 1024;
/** Secrets remembered at most (project tokens seen in answers); the oldest go first. */
const MAX_REMEMBERED_SECRETS = 256;
const RETRY_BASE_MS = 300;
const MAX_REDIRECTS = 5;
/**
 * The statuses whose Location is followed: fetch's "redirect status" (as Node's fetch and browsers
 * do). A 300's Location is only a preference and a 304 is no redirect (RFC 9110 §15.4).
 */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Tries at most of a request answered with a page that looks like a block (HTML where JSON was due). */
const MAX_BLOCKED_TRIES = 2;
/** Host groups kept at most; idle ones go first past it. */
const MAX_BUDGETS = 256;
/** Characters of a blocking page quoted in the error. */
const BLOCK_PAGE_CHARS = 160;
/** Headers that carry credentials: never sent on to another origin by a redirect. */
const CREDENTIAL_HEADERS = ['x-token', 'x-csrftoken', 'authorization', 'cookie'];
/** Cookies that carry credentials (the platform's `scratchsessionsid` and `scratchcsrftoken`, and the like). */
const CREDENTIAL_COOKIE = /session|csrf|token|auth|sid$/i;

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** An HTTP answer that was read fully. */
export interface HttpAnswer {
  status: number;
  headers: FetchResponse['headers'];
  bytes: Uint8Array;
  url: string;
}

/**
 * The HTTP core of a `Session`: one cookie jar for every host, a timeout per request, retries of
 * reads with jittered exponential backoff. Non-2xx answers become {@link ApiError}s with every
 * secret this client knows (cookies, tokens it sent) scrubbed from them.
 */
export class HttpClient {
  /** The cookie jar shared by every host (holds the session: never print it). */
  readonly jar: CookieJar;
  readonly userAgent: string;
  readonly timeout: number;
  readonly retries: number;
  readonly maxRetryDelay: number;
  /** Cap on the decoded size of an API answer, in bytes. */
  readonly maxResponseBytes: number;
  /** Cap on the decoded size of a project body or an asset, in bytes. */
  readonly maxDownloadBytes: number;
  /** The request budget every host group starts with. */
  readonly rateLimit: Readonly<Required<RateLimit>>;
  readonly #transport: Transport;
  /** Origin → its group's key, for the origins of `hostGroups`. */
  readonly #groups = new Map<string, string>();
  readonly #budgets = new Map<string, RequestBudget>();
  readonly #rateListeners = new Set<RateLimitListener>();
  /** Secret values seen or set (X-Token, project tokens): scrubbed from every error. */
  readonly #secrets = new Set<string>();

  /** Checks the options; a bad timeout or retry count is a caller's mistake, not a network error. */
  constructor(options: HttpOptions = {}) {
    this.jar = options.jar === undefined ? new CookieJar() : toCookieJar(options.jar, 'options.jar');
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.timeout = assertInteger(options.timeout ?? 30_000, 'timeout (ms)', 1, 2_147_483_647);
    this.retries = assertInteger(options.retries ?? 3, 'retries', 0, 10);
    this.maxRetryDelay = assertInteger(options.maxRetryDelay ?? 30_000, 'maxRetryDelay (ms)', 0, 3_600_000);
    const most = bufferConstants.MAX_LENGTH;
    this.maxResponseBytes = assertInteger(
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      'maxResponseBytes',
      1,
      most,
    );
    this.maxDownloadBytes = assertInteger(
      options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES,
      'maxDownloadBytes',
      1,
      most,
    );
    this.#transport = options.fetch ? fetchTransport(options.fetch) : undiciTransport;
    this.rateLimit = Object.freeze(resolveRateLimit(options.rateLimit, 'rateLimit'));
    for (const [index, group] of (options.hostGroups ?? []).entries()) {
      for (const base of group) this.#groups.set(new URL(base).origin, `group ${index}`);
    }
  }

  /** The request budget of `url`'s host group (every request to that group waits its turn in it). */
  budgetFor(url: string): RequestBudget {
    const origin = new URL(url).origin;
    const key = this.#groups.get(origin) ?? origin;
    let budget = this.#budgets.get(key);
    if (!budget) {
      if (this.#budgets.size >= MAX_BUDGETS) {
        for (const [other, held] of this.#budgets) if (held.idle) this.#budgets.delete(other);
      }
      budget = new RequestBudget(this.rateLimit, (wait) => {
        for (const listener of this.#rateListeners) listener(wait);
      });
      this.#budgets.set(key, budget);
    }
    return budget;
  }

  /**
   * Calls `listener` whenever the service makes this client wait (a 429's pause), until the
   * returned function is called. Walks and downloads pass it on to their progress callbacks.
   */
  watchRateLimits(listener: RateLimitListener): () => void {
    this.#rateListeners.add(listener);
    return () => this.#rateListeners.delete(listener);
  }

  /**
   * Remembers a secret value (an X-Token, a project token) so that no error of this client ever
   * shows it, wherever it appears. Keeps the most recent few hundred.
   */
  rememberSecret(value: string | null | undefined): void {
    // Short values are never secrets (see secretsFor), and must not push real ones out.
    if (!value || value.length < 4) return;
    this.#secrets.delete(value);
    this.#secrets.add(value);
    if (this.#secrets.size > MAX_REMEMBERED_SECRETS)
      this.#secrets.delete(this.#secrets.values().next().value!);
  }

  /**
   * Every secret value this client knows: its credential cookies (session id, CSRF token) for
   * every host, remembered tokens, and `extra`. Other cookies (a language, a seen-banner flag)
   * are not secrets, and scrubbing their short values would garble messages.
   */
  secretsFor(url: string, extra: Iterable<string | null | undefined> = []): string[] {
    const found = new Set<string>(this.#secrets);
    const add = (cookie: { key?: string; value?: string }) => {
      // A serialized cookie of empty value has no `value`: it must not stop the walk of the jar.
      // (One without a key, a loose cookie's, tests as "undefined": no credential.)
      if (cookie.value && CREDENTIAL_COOKIE.test(String(cookie.key))) found.add(unquote(cookie.value));
    };
    try {
      // Every host's: a redirect's Location or a body may echo another host's cookie.
      const jar = this.jar.serializeSync() as { cookies?: { key?: string; value?: string }[] } | undefined;
      // Stryker disable next-line OptionalChaining,ArrayDeclaration: serializeSync answers a jar or throws; a TypeError here lands in the same catch
      for (const cookie of jar?.cookies ?? []) add(cookie);
    } catch {
      // An asynchronous cookie store cannot be listed synchronously: the URL's cookies remain.
    }
    try {
      for (const cookie of this.jar.getCookiesSync(url)) add(cookie);
    } catch {
      // A URL the jar cannot read: the whole-jar pass above already has its cookies.
    }
    for (const value of extra) if (value) found.add(value);
    return [...found].filter((value) => value.length >= 4);
  }

  /** Redacted view: the jar's cookies are secrets. */
  [inspect.custom](): string {
    return `HttpClient { userAgent: ${JSON.stringify(this.userAgent)}, timeout: ${this.timeout}, retries: ${this.retries}, jar: [redacted] }`;
  }

  /** A JSON view without the jar. */
  toJSON(): { userAgent: string; timeout: number; retries: number } {
    return { userAgent: this.userAgent, timeout: this.timeout, retries: this.retries };
  }

  /** Reads one cookie's value for a URL from the jar (`undefined` if absent). */
  cookie(url: string, name: string): string | undefined {
    return this.jar.getCookiesSync(url).find((c) => c.key === name)?.value;
  }

  /**
   * Sends a request and reads the whole answer. Non-2xx answers throw {@link ApiError}
   * (3xx are returned: the site answers some writes with a redirect).
   */
  async request(url: string, options: RequestOptions = {}): Promise<HttpAnswer> {
    const method = (options.method ?? 'GET').toUpperCase();
    const target = withQuery(url, options.query);
    // A token sent in the query (a project body's) is a secret wherever it shows up again.
    const queryToken = options.query?.token;
    if (typeof queryToken === 'string') this.rememberSecret(queryToken);
    const retryable = options.retry ?? (method === 'GET' || method === 'HEAD');
    const attempts = retryable ? this.retries + 1 : 1;
    // A 429 is a refusal, not an ambiguous failure: nothing was done, so even a write may wait and
    // try again (unless told not to retry at all).
    const refusedAttempts = options.retry === false ? 1 : this.retries + 1;
    const budget = this.budgetFor(target);
    for (let attempt = 0; ; attempt++) {
      await budget.acquire(options.signal);
      const sentAt = performance.now();
      let answer: HttpAnswer;
      try {
        answer = await this.#send(method, target, options);
      } catch (error) {
        if (error instanceof BodyLimitError) throw this.#limitError(error, method, target, options);
        if (error instanceof BodyDecodeError) {
          // An answer came but is unreadable: retrying would fetch the same bytes.
          const secrets = this.#requestSecrets(target, options);
          throw new ApiError({ status: error.status, url: target, method, reason: error.message, secrets });
        }
        if (options.signal?.aborted) throw error;
        if (attempt + 1 < attempts) {
          await sleep(this.#backoff(attempt), options.signal);
          continue;
        }
        throw this.#networkError(method, target, error, options);
      }
      const { status } = answer;
      if (status < 300 || (status < 400 && options.acceptRedirect)) {
        budget.succeeded();
        return answer;
      }
      if (status < 400) {
        // A write that was redirected (often to a login page) did not happen as asked.
        const location = answer.headers.get('location') ?? 'nowhere';
        throw this.#error(answer, method, target, options, `unexpected redirect (${status}) to ${location}`);
      }
      const page = blockPage(answer);
      const hinted = retryAfterMs(answer.headers.get('retry-after'));
      // Stryker disable next-line ConditionalExpression: `undefined > n` is false too
      const tooLong = hinted !== undefined && hinted > this.maxRetryDelay;
      // A page that looks like a block gets two tries at most: no retry storm against a block.
      const most = (tries: number) => (page === undefined ? tries : Math.min(tries, MAX_BLOCKED_TRIES));
      if (status === 429) {
        // The whole group waits, not just this request: the limit counts every request.
        budget.refused(tooLong ? this.maxRetryDelay : (hinted ?? this.#backoff(attempt)), sentAt);
        if (!tooLong && attempt + 1 < most(refusedAttempts)) continue;
      } else if (status >= 500 && !tooLong && attempt + 1 < most(attempts)) {
        // Stryker disable next-line LogicalOperator: how long a retry waits: only a clock would tell
        await sleep(hinted ?? this.#backoff(attempt), options.signal);
        continue;
      }
      if (page !== undefined) {
        const reason = `the address looks blocked or rate-limited: the service answered ${status} with ${page}`;
        throw this.#error(answer, method, target, options, reason, true);
      }
      if (tooLong) {
        const seconds = Math.ceil(hinted / 1000);
        throw this.#error(answer, method, target, options, `the service asks to retry after ${seconds} s`);
      }
      if (status === 429) {
        const why = reasonOf(tryParseJson(new TextDecoder().decode(answer.bytes)), 'Too Many Requests');
        const reason = `rate-limited: still refused after ${attempt + 1} tries (${why}); lower the session's rateLimit`;
        throw this.#error(answer, method, target, options, reason);
      }
      throw this.#error(answer, method, target, options);
    }
  }

  /**
   * The ApiError of an answer, with every secret this client knows removed from wherever it
   * appears (message, reason, URL, body, keys), and only the start of a long body kept.
   */
  #error(
    answer: HttpAnswer,
    method: string,
    url: string,
    options: RequestOptions,
    reason?: string,
    blocked = false,
  ): ApiError {
    const text = new TextDecoder().decode(answer.bytes.subarray(0, MAX_ERROR_BODY_CHARS * 4));
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a text no longer than the cap, sliced to it, is the same text
    const kept = text.length > MAX_ERROR_BODY_CHARS ? text.slice(0, MAX_ERROR_BODY_CHARS) : text;
    const parsed = kept === text ? tryParseJson(text) : undefined;
    const body = parsed === undefined ? redactPairs(kept) : parsed;
    const why = reason ?? reasonOf(body, statusText(answer.status));
    return new ApiError({
      status: answer.status,
      url,
      method,
      body,
      reason: why,
      blocked,
      secrets: this.#requestSecrets(url, options),
    });
  }

  /** The ApiError of an answer whose body passed its cap. */
  #limitError(error: BodyLimitError, method: string, url: string, options: RequestOptions): ApiError {
    const name = options.download ? 'maxDownloadBytes' : 'maxResponseBytes';
    return new ApiError({
      status: error.status,
      url,
      method,
      limit: name,
      reason: `the answer is larger than ${name} (${error.limit} bytes decoded); the read was stopped (raise it with new Session({ ${name} }))`,
      secrets: this.#requestSecrets(url, options),
    });
  }

  /** A request that got no answer: a network failure or a timeout. */
  #networkError(method: string, url: string, error: unknown, options: RequestOptions): ApiError {
    const isTimeout =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const detail =
      error instanceof Error
        ? (error.cause instanceof Error && error.cause.message) || error.message
        : String(error);
    const reason = isTimeout ? `timed out after ${this.timeout} ms` : `request failed: ${detail}`;
    return new ApiError({
      status: undefined,
      url,
      method,
      reason,
      cause: error,
      secrets: this.#requestSecrets(url, options),
    });
  }

  #requestSecrets(url: string, options: RequestOptions): string[] {
    const sent = Object.entries(options.headers ?? {})
      .filter(([name]) => CREDENTIAL_HEADERS.includes(name.toLowerCase()))
      .map(([, value]) => value);
    // Stryker disable next-line ArrayDeclaration: one more secret that no answer holds scrubs nothing
    return this.secretsFor(url, [...sent, ...(options.secrets ?? [])]);
  }

  /** {@link request}, then the answer parsed as JSON (nesting bounded by `MAX_JSON_DEPTH`). */
  async json<T>(url: string, options: RequestOptions = {}): Promise<T> {
    const answer = await this.request(url, options);
    return readJson<T>(answer, (options.method ?? 'GET').toUpperCase(), () =>
      this.#requestSecrets(url, options),
    );
  }

  /** Full jitter: a random wait below an exponentially growing cap. */
  // Stryker disable ArithmeticOperator: how long a retry waits below its cap: only a clock would tell
  #backoff(attempt: number): number {
    return Math.random() * Math.min(this.maxRetryDelay, RETRY_BASE_MS * 2 ** (attempt + 1));
  }
  // Stryker restore ArithmeticOperator

  async #send(method: string, url: string, options: RequestOptions): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'User-Agent': this.userAgent, ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      body = stringifyJson(options.json, MAX_JSON_DEPTH, 'request body');
      headers['Content-Type'] ??= 'application/json';
    }
    const maxBytes = options.download ? this.maxDownloadBytes : this.maxResponseBytes;
    const timeout = AbortSignal.timeout(this.timeout);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let current = url;
    let hopHeaders = headers;
    const origin = new URL(url).origin;
    for (let hop = 0; ; hop++) {
      const cookie = await this.jar.getCookieString(current);
      const sendHeaders = cookie ? { ...hopHeaders, Cookie: cookie } : hopHeaders;
      const response = await this.#transport(current, {
        method,
        headers: sendHeaders,
        body: method === 'GET' || method === 'HEAD' ? undefined : body,
        signal,
        redirect: 'manual',
        maxBytes,
      });
      // Cookies must be stored at every hop: a redirect can carry the session cookie.
      for (const line of setCookieLines(response.headers)) {
        await this.jar.setCookie(line, current, { ignoreError: true });
      }
      const location = response.headers.get('location');
      if (REDIRECT_STATUSES.has(response.status) && location && hop < MAX_REDIRECTS) {
        // Only reads follow redirects; a redirected write is for the caller to judge.
        if (method !== 'GET' && method !== 'HEAD') {
          return { status: response.status, headers: response.headers, bytes: new Uint8Array(), url };
        }
        current = new URL(location, current).toString();
        // The jar decides which cookies the next host gets; tokens in headers stay with their origin.
        if (new URL(current).origin !== origin) hopHeaders = withoutCredentials(headers);
        continue;
      }
      return { status: response.status, headers: response.headers, bytes: response.bytes, url: current };
    }
  }
}

/**
 * Parses an answer's body as JSON; an empty body is `null`. An unreadable one, or one nesting
 * deeper than `MAX_JSON_DEPTH`, is an {@link ApiError} whose body keeps only a scrubbed start of
 * the text (a cut-off answer may hold a token).
 */
export function readJson<T>(
  answer: HttpAnswer,
  method: string,
  /** The secrets to scrub, asked for only when the answer is unreadable. */
  // Stryker disable next-line ArrowFunction,ArrayDeclaration: without secrets (undefined, or one no answer holds) nothing is scrubbed
  secrets: () => readonly string[] = () => [],
  parse: (text: string) => unknown = parseJson,
): T {
  const text = new TextDecoder().decode(answer.bytes);
  if (text === '') return null as T;
  try {
    return parse(text) as T;
  } catch (error) {
    const deep = error instanceof JsonDepthError;
    // A page where JSON was due is what a block or a rate limiter in front of the API answers.
    const html = !deep && text.trimStart().startsWith('<');
    let reason = `the answer is not valid JSON (${answer.bytes.length} bytes)`;
    if (deep)
      reason = `the answer nests deeper than ${error.limit} levels (${answer.bytes.length} bytes); refused`;
    if (html) {
      reason = `the address looks blocked or rate-limited: the service answered ${answer.status} with an HTML page instead of JSON: "${pageStart(text)}"`;
    }
    throw new ApiError({
      status: answer.status,
      url: answer.url,
      method,
      body: redactPairs(text.slice(0, 200)),
      reason,
      blocked: html,
      secrets: secrets(),
      cause: deep ? error : undefined,
    });
  }
}

/**
 * How an error answer that looks like a block reads (`an HTML page instead of JSON: "…"`), or
 * `undefined`. The platform's API answers its errors in JSON; a 403, 429 or 503 that is not JSON
 * (an HTML page, an empty body) comes from what stands in front of it: a rate limiter or a block.
 */
function blockPage(answer: HttpAnswer): string | undefined {
  if (answer.status !== 403 && answer.status !== 429 && answer.status !== 503) return undefined;
  const text = new TextDecoder().decode(answer.bytes.subarray(0, MAX_ERROR_BODY_CHARS));
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') return undefined;
  if (start === undefined) return 'an empty answer instead of JSON';
  return `${start === '<' ? 'an HTML page' : 'text'} instead of JSON: "${pageStart(text)}"`;
}

/** The readable start of a page: its text without tags, scripts or styles. */
function pageStart(text: string): string {
  const plain = text
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > BLOCK_PAGE_CHARS ? `${plain.slice(0, BLOCK_PAGE_CHARS)}…` : plain;
}

function unquote(value: string): string {
  return value.replace(/^"|"$/g, '');
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name.toLowerCase())),
  );
}

function setCookieLines(headers: FetchResponse['headers']): string[] {
  if (typeof headers.getSetCookie === 'function') return headers.getSetCookie();
  const joined = headers.get('set-cookie');
  // Stryker disable next-line ArrayDeclaration: a line that is no cookie is dropped by the jar (ignoreError)
  return joined ? [joined] : [];
}

/** Appends query parameters, skipping `undefined`. */
function withQuery(url: string, query?: RequestOptions['query']): string {
  if (!query) return url;
  const parsed = new URL(url);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) parsed.searchParams.set(key, String(value));
  }
  return parsed.toString();
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};
function statusText(status: number): string {
  return STATUS_TEXT[status] ?? `HTTP ${status}`;
}
