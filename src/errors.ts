import type { CommentRejectionCode, MuteStatus } from './records/write-records.js';
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
  override readonly name: string = 'ApiError';
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

/** What the service says about each refusal code of a comment (WIRE.md §11.4), in plain words. */
const REJECTION_REASONS: Record<CommentRejectionCode, string> = {
  isEmpty: 'the comment is empty',
  isFlood: 'comments are being posted too fast; wait a little between them',
  isBad: 'the comment was flagged as inappropriate and the account is now muted',
  hasChatSite: 'the comment links to a site with unmoderated chat',
  isSpam: 'the same comment was posted several times',
  isDisallowed: 'comments are turned off here',
  isIPMuted: 'comments from this network are muted',
  isTooLong: 'the comment is too long (500 characters at most)',
  isNotPermitted: 'this account may not post comments here',
  isNotPermittedByParent: 'replies to this comment are not allowed',
  isMuted: 'the account is muted',
  isUnconstructive: 'the comment was flagged as unconstructive',
};

/** What a {@link CommentRejectedError} is made from. */
export interface CommentRejectedInit {
  /** The HTTP status the refusal came with: 200 (`rejected`), or 403 for a muted account. */
  status?: number;
  url: string;
  method: string;
  /** The service's refusal code (`isFlood`, `isBad`, …). */
  code: string;
  muteStatus?: MuteStatus;
  appealId?: string | number;
  /** The answer as it came (JSON, or the profile page's error data). */
  body?: unknown;
}

/**
 * A comment the service refused (WIRE.md §11.4). The real service answers HTTP 200 with
 * `{"rejected": code}`; this error carries that `code` and, when the account is muted, the mute
 * status. `status` is the status the refusal came with: 200, or 403 when the service refuses a
 * muted account with `{"mute_status": …}` instead (`code` is then `isMuted`). Comments are never
 * retried.
 */
export class CommentRejectedError extends ApiError {
  override readonly name: string = 'CommentRejectedError';
  /** The refusal code: one of {@link CommentRejectionCode}, or a code this client does not know yet. */
  readonly code: CommentRejectionCode | (string & {});
  /** The account's mute status, when the service sent it (muted now, or just muted by this comment). */
  readonly muteStatus: MuteStatus | undefined;
  /** The appeal id of an IP mute (`isIPMuted`), when given. */
  readonly appealId: string | number | undefined;

  constructor(init: CommentRejectedInit) {
    const known = REJECTION_REASONS[init.code as CommentRejectionCode];
    super({
      status: init.status ?? 200,
      url: init.url,
      method: init.method,
      body: init.body,
      reason: `comment rejected (${init.code})${known ? `: ${known}` : ''}`,
    });
    this.code = init.code;
    this.muteStatus = init.muteStatus;
    this.appealId = init.appealId;
  }

  /** When the current mute ends, if the account is muted (from `muteStatus.muteExpiresAt`, unix seconds). */
  get mutedUntil(): Date | undefined {
    const seconds = this.muteStatus?.muteExpiresAt;
    return typeof seconds === 'number' && seconds * 1000 > Date.now() ? new Date(seconds * 1000) : undefined;
  }

  /** True when the service says the account is muted now. */
  get muted(): boolean {
    return this.mutedUntil !== undefined;
  }
}
