/**
 * Whether a text may hold a secret: it names a login, a password, a secret, a token, a session id
 * or a CSRF token, inside a name too (`SCRATCH_PASSWORD`, `scratchsessionsid`). What may hold one
 * stays out of what the kernel keeps or logs (the history file, the log of late output): a cell's
 * own output is the user's, the kernel's files are not.
 */
const MAY_HOLD_SECRET = /login|password|passwd|secret|token|sessions?_?id|csrf/i;

/** Whether `text` may hold a secret (see the file's comment). */
export function mayHoldSecret(text: string): boolean {
  return MAY_HOLD_SECRET.test(text);
}
