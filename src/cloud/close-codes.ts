/**
 * The cloud servers' close codes (WIRE.md §5). The alternate server documents them and the
 * sandbox uses the same numbers, so client and server share this table.
 */
import { SESSION_COOKIE } from '../http/cookies.js';

/** A frame the server could not accept: bad JSON, two messages in one frame, unknown method, ... */
export const CLOSE_PROTOCOL_ERROR = 4000;
/** The handshake's username is not valid, or does not belong to the session cookie. */
export const CLOSE_BAD_USERNAME = 4002;
/** The server is overloaded; the sandbox also uses it for a connection that exceeds its set rate. */
export const CLOSE_OVERLOADED = 4003;
/** The project does not exist or has no cloud variables on this server. */
export const CLOSE_PROJECT_UNAVAILABLE = 4004;
/** A platform session cookie was sent to a server that is not the platform. */
export const CLOSE_PLATFORM_COOKIE = 4005;
/** The User-Agent does not identify the bot (its purpose and a way to contact its owner). */
export const CLOSE_NO_USER_AGENT = 4006;

/**
 * Codes after which reconnecting cannot help: the caller has to change something first.
 * (The official web client stops after 4002 and 4004; 4005 and 4006 are just as final.)
 */
export const PERMANENT_CLOSE_CODES: ReadonlySet<number> = new Set([
  CLOSE_BAD_USERNAME,
  CLOSE_PROJECT_UNAVAILABLE,
  CLOSE_PLATFORM_COOKIE,
  CLOSE_NO_USER_AGENT,
]);

/** True when the client must not reconnect after this close code. */
export function isPermanentCloseCode(code: number): boolean {
  return PERMANENT_CLOSE_CODES.has(code);
}

/** What a close code means and, for the permanent ones, what the caller has to fix. */
export function describeCloseCode(code: number): string {
  switch (code) {
    case CLOSE_PROTOCOL_ERROR:
      return 'protocol error: the server refused a message';
    case CLOSE_BAD_USERNAME:
      return 'bad username: log in again, and check that the username matches the session (session.cloud() uses the logged-in name)';
    case CLOSE_OVERLOADED:
      return 'the server is overloaded or the connection sent too fast: keep rateLimit ≥ 0.1 s on the platform';
    case CLOSE_PROJECT_UNAVAILABLE:
      return 'project unavailable: check the project id (the project must exist and be reachable on this server)';
    case CLOSE_PLATFORM_COOKIE:
      return `this server refuses platform cookies: use a custom host without a session and without a ${SESSION_COOKIE} cookie`;
    case CLOSE_NO_USER_AGENT:
      return 'identify your bot: pass purpose and contact (Cloud.alternate(projectId, { purpose, contact }))';
    default:
      return `closed with code ${code}`;
  }
}
