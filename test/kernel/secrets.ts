/**
 * What the sandbox's secrets look like (src/sandbox/state/sessions.ts), to grep outputs for them without
 * knowing the values a kernel process drew:
 * - the X-Token: 32 hex digits, a colon, 16 base64url characters;
 * - the session id (cookie `scratchsessionsid`): `p1:p2:p3`, `p1` base64url JSON (so `eyJ…`),
 *   `p2` a base-36 timestamp, `p3` a 27-character signature.
 * A control test (kernel.test.ts) prints real ones and checks that both patterns catch them.
 */
export const X_TOKEN = /(?<![0-9a-f])[0-9a-f]{32}:[A-Za-z0-9_-]{16}(?![A-Za-z0-9_-])/;
export const SESSION_ID = /eyJ[A-Za-z0-9_-]{20,}:[0-9a-z]{4,12}:[A-Za-z0-9_-]{27}(?![A-Za-z0-9_-])/;
export const SECRET_PATTERNS: readonly RegExp[] = [X_TOKEN, SESSION_ID];
