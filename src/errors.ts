import { redactJson, redactSecrets, redactUrl } from './redact.js';

/** What an {@link ApiError} knows about the failed request. */
export interface ApiErrorInit {
  /** HTTP status, or `undefined` when no answer came (network failure, timeout). */
  status: number | undefined;
  url: string;
  method: string;
  /** The parsed answer (JSON when it was JSON, else text). Secrets are removed by the error. */
  body?: unknown;
  /** The service's reason, as readable text. */
  reason?: string;
  /** The size limit that stopped reading the answer, when one did. */
  limit?: 'maxResponseBytes' | 'maxDownloadBytes';
  /** The answer looks like the service blocked or rate-limited this address (an HTML page where JSON was due). */
  blocked?: boolean;
  /**
   * Secret values (session id, CSRF token, X-Token, project tokens, a password) to remove from
   * the message, reason, URL and body wherever they appear, raw or percent-encoded.
   */
  secrets?: Iterable<string | null | undefined>;
  cause?: unknown;
}

/**
 * A failure of the platform: a non-2xx answer, or a request that got no answer.
 *
 * The message reads `GET https://… → 404: reason`. URLs, reasons and bodies are stored with
 * secrets removed (by key, and every secret value the session knows wherever it appears), so an
 * `ApiError` is safe to print or log.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; `undefined` when the request never got an answer. */
  readonly status: number | undefined;
  /** The URL of the request (secrets redacted). */
  readonly url: string;
  /** The HTTP method. */
  readonly method: string;
  /** The answer's body, parsed as JSON when possible (secrets redacted, at most 64 KiB of text). */
  readonly body: unknown;
  /** The service's reason (e.g. the login's `msg`), or `''` (secrets redacted). */
  readonly reason: string;
  /** Set when the answer was cut because it passed `maxResponseBytes` or `maxDownloadBytes`. */
  readonly limit: 'maxResponseBytes' | 'maxDownloadBytes' | undefined;
  /**
   * True when the answer looks like the service blocked or rate-limited this address: a 403, 429
   * or 503 page (HTML, or anything but the API's JSON) where JSON was due. Wait before trying
   * again, and send fewer requests (the session's `rateLimit`).
   */
  readonly blocked: boolean;

  constructor(init: ApiErrorInit) {
    const secrets = [...(init.secrets ?? [])];
    const url = redactSecrets(redactUrl(init.url), secrets) as string;
    const status = typeof init.status === 'number' && init.status > 0 ? init.status : undefined;
    const what = status === undefined ? 'no answer' : `${status}`;
    const reason = redactSecrets(init.reason ?? '', secrets) as string;
    super(`${init.method} ${url} → ${what}${reason ? `: ${reason}` : ''}`, { cause: init.cause });
    this.status = status;
    this.url = url;
    this.method = init.method;
    this.body = redactSecrets(redactJson(init.body), secrets);
    this.reason = reason;
    this.limit = init.limit;
    this.blocked = init.blocked ?? false;
  }

  /** True for 404: the resource does not exist or is not visible to you. */
  get notFound(): boolean {
    return this.status === 404;
  }
}

/** Thrown when a call needs a logged-in session and there is none. */
export class LoginRequiredError extends Error {
  override readonly name = 'LoginRequiredError';
  /**
   * @param what - the call that needs the login, kept on the error so that front ends can say
   *   how to log in their own way.
   */
  constructor(readonly what = 'this call') {
    super(`${what} needs a logged-in session: call session.login(username, password) first`);
  }
}

/** Best-effort readable reason from an error body of the platform. */
export function reasonOf(body: unknown, fallback = ''): string {
  if (typeof body === 'string') return body.trim().slice(0, 300) || fallback;
  if (Array.isArray(body)) return reasonOf(body[0], fallback);
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['msg', 'message', 'detail', 'error', 'code', 'status']) {
      const value = record[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return fallback;
}
