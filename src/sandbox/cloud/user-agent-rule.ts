/**
 * The alternate server's rule for bots (WIRE.md §5): the User-Agent must say how to reach the
 * bot's owner. Purpose is free text that no machine can judge, so the sandbox checks the contact,
 * which it accepts in either of these forms:
 *
 * - a `Contact:` field (any case) with something after it, as in
 *   `mybot/1.0 (Purpose: leaderboard; Contact: https://example.org/me)`;
 * - an `@` followed by a name or a mail domain anywhere (`@griffpatch`, `me@example.com`).
 *
 * A bare URL does not count: library User-Agents carry their own homepage
 * (`scratchlab/0.1 (+https://www.npmjs.com/package/scratchlab)`), which names nobody.
 * A missing User-Agent, or one without a contact (`node`, `python-requests/2.31`), is refused
 * with close code 4006.
 */
const CONTACT_FIELD = /\bcontact\s*:\s*[^\s;)]/i;
const AT_NAME = /@[A-Za-z0-9_.-]/;

/** True when the User-Agent names a way to contact the bot's owner. */
export function isIdentifyingUserAgent(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  return CONTACT_FIELD.test(userAgent) || AT_NAME.test(userAgent);
}
