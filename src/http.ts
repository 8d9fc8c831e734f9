/**
 * The small HTTP core under every resource group: undici with keep-alive, one tough-cookie jar
 * for all hosts, timeouts, and retries with jittered backoff for reads.
 */
import { inspect } from 'node:util';
import { CookieJar } from 'tough-cookie';
import { ApiError, reasonOf } from './errors.js';
import { tryParseJson } from './json.js';
import { redactPairs, redactText } from './redact.js';
import { sleep } from './timers.js';
import { assertInteger } from './validate.js';

/** The parts of a fetch answer the client reads (undici's and the global `Response` both fit). */
export interface FetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null; getSetCookie?(): string[] };
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
}

/** What the client passes to `fetch`. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  redirect: 'manual';
}

/** A `fetch`-compatible function: undici's by default; pass your own to add logging or a proxy. */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

export interface HttpOptions {
  fetch?: FetchLike;
  jar?: CookieJar;
  userAgent?: string;
  /** Milliseconds before a request is abandoned (default 30 000). */
  timeout?: number;
  /** How many times a read is retried after 429, 5xx or a network error (default 3). */
  retries?: number;
  /** Upper bound for one backoff wait in milliseconds, `Retry-After` included (default 30 000). */
  maxRetryDelay?: number;
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
}

export const DEFAULT_USER_AGENT = 'scratchlab/0.1 (+https://www.npmjs.com/package/scratchlab)';
const RETRY_BASE_MS = 300;
const MAX_REDIRECTS = 5;
/** Headers that carry credentials: never sent on to another origin by a redirect. */
const CREDENTIAL_HEADERS = ['x-token', 'x-csrftoken', 'authorization', 'cookie'];

/**
 * The default fetch: undici with one shared keep-alive pool per process, as undici recommends.
 * undici is loaded on the first request, not at import: it is the heaviest module of the SDK and
 * start-up time matters in the REPL and the kernel.
 */
let undici: Promise<{ fetch: FetchLike }> | undefined;
function defaultFetch(): FetchLike {
  undici ??= import('undici').then(({ Agent, fetch }) => {
    const dispatcher = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
    return { fetch: (url, init) => fetch(url, { ...init, dispatcher }) };
  });
  return async (url, init) => (await undici!).fetch(url, init);
}

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
  readonly #fetch: FetchLike;

  /** Checks the options; a bad timeout or retry count is a caller's mistake, not a network error. */
  constructor(options: HttpOptions = {}) {
    this.jar = options.jar ?? new CookieJar();
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.timeout = assertInteger(options.timeout ?? 30_000, 'timeout (ms)', 1, 2_147_483_647);
    this.retries = assertInteger(options.retries ?? 3, 'retries', 0, 10);
    this.maxRetryDelay = assertInteger(options.maxRetryDelay ?? 30_000, 'maxRetryDelay (ms)', 0, 3_600_000);
    this.#fetch = options.fetch ?? defaultFetch();
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
    const retryable = options.retry ?? (method === 'GET' || method === 'HEAD');
    const attempts = retryable ? this.retries + 1 : 1;
    for (let attempt = 0; ; attempt++) {
      let answer: HttpAnswer;
      try {
        answer = await this.#send(method, target, options);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (attempt + 1 < attempts) {
          await sleep(this.#backoff(attempt), options.signal);
          continue;
        }
        throw networkError(method, target, error, this.timeout);
      }
      const { status } = answer;
      if (status < 300 || (status < 400 && options.acceptRedirect)) return answer;
      if (status < 400) {
        // A write that was redirected (often to a login page) did not happen as asked.
        const location = answer.headers.get('location') ?? 'nowhere';
        throw this.#error(answer, method, target, options, `unexpected redirect (${status}) to ${location}`);
      }
      if ((status === 429 || status >= 500) && attempt + 1 < attempts) {
        const hinted = retryAfterMs(answer.headers.get('retry-after'));
        if (hinted !== undefined && hinted > this.maxRetryDelay) {
          const seconds = Math.ceil(hinted / 1000);
          throw this.#error(answer, method, target, options, `the service asks to retry after ${seconds} s`);
        }
        await sleep(hinted ?? this.#backoff(attempt), options.signal);
        continue;
      }
      throw this.#error(answer, method, target, options);
    }
  }

  /** The ApiError of an answer, with every secret this client knows removed from its text. */
  #error(
    answer: HttpAnswer,
    method: string,
    url: string,
    options: RequestOptions,
    reason?: string,
  ): ApiError {
    const secrets = [
      ...this.jar.getCookiesSync(url).map((c) => c.value.replace(/^"|"$/g, '')),
      ...Object.entries(options.headers ?? {})
        .filter(([name]) => CREDENTIAL_HEADERS.includes(name.toLowerCase()))
        .map(([, value]) => value),
    ];
    const text = new TextDecoder().decode(answer.bytes);
    const parsed = tryParseJson(text);
    const body = parsed === undefined ? redactText(redactPairs(text.slice(0, 1000)), secrets) : parsed;
    const why = reason ?? redactText(reasonOf(body, statusText(answer.status)), secrets);
    return new ApiError({ status: answer.status, url, method, body, reason: why });
  }

  /** {@link request}, then the answer parsed as JSON. */
  async json<T>(url: string, options: RequestOptions = {}): Promise<T> {
    return readJson<T>(await this.request(url, options), (options.method ?? 'GET').toUpperCase());
  }

  /** Full jitter: a random wait below an exponentially growing cap. */
  #backoff(attempt: number): number {
    return Math.random() * Math.min(this.maxRetryDelay, RETRY_BASE_MS * 2 ** (attempt + 1));
  }

  async #send(method: string, url: string, options: RequestOptions): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'User-Agent': this.userAgent, ...options.headers };
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] ??= 'application/json';
    }
    const timeout = AbortSignal.timeout(this.timeout);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let current = url;
    const currentMethod = method;
    let hopHeaders = headers;
    const origin = new URL(url).origin;
    for (let hop = 0; ; hop++) {
      const cookie = await this.jar.getCookieString(current);
      const sendHeaders = cookie ? { ...hopHeaders, Cookie: cookie } : hopHeaders;
      const response = await this.#fetch(current, {
        method: currentMethod,
        headers: sendHeaders,
        body: currentMethod === 'GET' || currentMethod === 'HEAD' ? undefined : body,
        signal,
        redirect: 'manual',
      });
      // Cookies must be stored at every hop: a redirect can carry the session cookie.
      for (const line of setCookieLines(response.headers)) {
        await this.jar.setCookie(line, current, { ignoreError: true });
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
        await response.arrayBuffer().catch(() => undefined);
        // Only reads follow redirects; a redirected write is for the caller to judge.
        if (method !== 'GET' && method !== 'HEAD') {
          return { status: response.status, headers: response.headers, bytes: new Uint8Array(), url };
        }
        current = new URL(location, current).toString();
        // The jar decides which cookies the next host gets; tokens in headers stay with their origin.
        if (new URL(current).origin !== origin) hopHeaders = withoutCredentials(headers);
        continue;
      }
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { status: response.status, headers: response.headers, bytes, url: current };
    }
  }
}

/**
 * Parses an answer's body as JSON; an empty body is `null`, an unreadable one an {@link ApiError}
 * (whose body keeps only a scrubbed start of the text: a cut-off answer may hold a token).
 */
export function readJson<T>(answer: HttpAnswer, method: string): T {
  const text = new TextDecoder().decode(answer.bytes);
  if (text === '') return null as T;
  const value = tryParseJson(text);
  if (value === undefined) {
    throw new ApiError({
      status: answer.status,
      url: answer.url,
      method,
      body: redactPairs(text.slice(0, 200)),
      reason: `the answer is not valid JSON (${answer.bytes.length} bytes)`,
    });
  }
  return value as T;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.includes(name.toLowerCase())),
  );
}

function setCookieLines(headers: FetchResponse['headers']): string[] {
  if (typeof headers.getSetCookie === 'function') return headers.getSetCookie();
  const joined = headers.get('set-cookie');
  return joined ? [joined] : [];
}

/** Appends query parameters, skipping `undefined`. */
export function withQuery(url: string, query?: RequestOptions['query']): string {
  if (!query) return url;
  const parsed = new URL(url);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) parsed.searchParams.set(key, String(value));
  }
  return parsed.toString();
}

function networkError(method: string, url: string, error: unknown, timeout: number): ApiError {
  const isTimeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  const detail =
    error instanceof Error
      ? (error.cause instanceof Error && error.cause.message) || error.message
      : String(error);
  const reason = isTimeout ? `timed out after ${timeout} ms` : `request failed: ${detail}`;
  return new ApiError({ status: 0, url, method, reason, cause: error });
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
