import { redactJson, redactUrl } from './redact.js';

/** What an {@link ApiError} knows about the failed request. */
export interface ApiErrorInit {
  /** HTTP status, or 0 when no answer came (network failure, timeout). */
  status: number;
  url: string;
  method: string;
  /** The parsed answer (JSON when it was JSON, else text), secrets removed. */
  body?: unknown;
  /** The service's reason, as readable text. */
  reason?: string;
  cause?: unknown;
}

/**
 * A failure of the platform: a non-2xx answer, or a request that got no answer.
 *
 * The message reads `GET https://… → 404 Not Found: reason`. URLs and bodies are stored with
 * secrets (tokens, session ids) removed, so an `ApiError` is safe to print or log.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when the request never got an answer. */
  readonly status: number;
  /** The URL of the request (secret query parameters redacted). */
  readonly url: string;
  /** The HTTP method. */
  readonly method: string;
  /** The answer's body, parsed as JSON when possible (secrets redacted). */
  readonly body: unknown;
  /** The service's reason (e.g. the login's `msg`), or `''`. */
  readonly reason: string;

  constructor(init: ApiErrorInit) {
    const url = redactUrl(init.url);
    const what = init.status === 0 ? 'no answer' : `${init.status}`;
    const reason = init.reason ?? '';
    super(`${init.method} ${url} → ${what}${reason ? `: ${reason}` : ''}`, { cause: init.cause });
    this.status = init.status;
    this.url = url;
    this.method = init.method;
    this.body = redactJson(init.body);
    this.reason = reason;
  }

  /** True for 404: the resource does not exist or is not visible to you. */
  get notFound(): boolean {
    return this.status === 404;
  }
}

/** Thrown when a call needs a logged-in session and there is none. */
export class LoginRequiredError extends Error {
  override readonly name = 'LoginRequiredError';
  constructor(what = 'this call') {
    super(`${what} needs a logged-in session: call session.login(username, password) first`);
  }
}

/** Best-effort readable reason from an error body of the platform. */
export function reasonOf(body: unknown, fallback = ''): string {
  if (typeof body === 'string') return body.trim().slice(0, 300) || fallback;
  if (Array.isArray(body)) return reasonOf(body[0], fallback);
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['msg', 'message', 'error', 'code', 'status']) {
      const value = record[key];
      if (typeof value === 'string' && value) return value;
    }
  }
  return fallback;
}
