import { randomBytes } from 'node:crypto';
import { CSRF_COOKIE, SESSION_COOKIE } from '../../http/cookies.js';
import { forbidden, unauthorized } from '../errors.js';
import { header } from '../http-utils.js';
import type { Incoming } from '../router.js';
import type { Session, SessionTable } from '../state/sessions.js';

const CSRF_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A fresh CSRF token: 32 letters and digits, like Django's. */
export function newCsrfToken(): string {
  const raw = randomBytes(32);
  let out = '';
  for (const byte of raw) out += CSRF_ALPHABET[byte % CSRF_ALPHABET.length];
  return out;
}

/**
 * Double-submit CSRF check: the `X-CSRFToken` header (or a form's `csrfmiddlewaretoken`) must
 * equal the `scratchcsrftoken` cookie. The cookie is per browser, not per session, as in Django.
 */
export function csrfMatches(req: Incoming, formToken?: string | null): boolean {
  const cookie = req.cookies.get(CSRF_COOKIE);
  if (!cookie) return false;
  return header(req.raw, 'x-csrftoken') === cookie || formToken === cookie;
}

/** The session named by the request's cookie, if it is live. */
export function cookieSession(req: Incoming, sessions: SessionTable): Session | undefined {
  return sessions.fromCookie(req.cookies.get(SESSION_COOKIE));
}

/** Who is reading: a valid `X-Token`, else the session cookie, else nobody. */
export function reader(req: Incoming, sessions: SessionTable): Session | undefined {
  return sessions.fromToken(header(req.raw, 'x-token')) ?? cookieSession(req, sessions);
}

/** How a write host treats `X-Token`: the API needs it; the others check it only when sent. */
type XTokenRule = 'required' | 'if-present';

/**
 * The checks every write goes through, in this order: a live session cookie (else 401), the
 * CSRF header equal to the CSRF cookie (else 403), and `X-Token` equal to the session's token
 * (missing where required: 401; not matching: 403). Answers the writer's session.
 */
export function writer(req: Incoming, sessions: SessionTable, rule: XTokenRule): Session {
  const session = cookieSession(req, sessions);
  if (!session) throw unauthorized('You must be logged in (no live session cookie)');
  if (!csrfMatches(req)) throw forbidden('CSRF verification failed');
  const token = header(req.raw, 'x-token');
  if (token === undefined || token === '') {
    if (rule === 'required') throw unauthorized('X-Token header required');
  } else if (token !== session.token) {
    throw forbidden('X-Token does not belong to this session');
  }
  return session;
}
