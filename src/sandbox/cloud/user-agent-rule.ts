/**
 * The alternate server's User-Agent rule (WIRE.md §5), close code 4006.
 *
 * TurboWarp's cloud-server (the alternate server's code) refuses a connection whose User-Agent is
 * missing or empty, and nothing else: browsers always send theirs, so the web players of projects
 * connect. Its documentation asks more of bots: a User-Agent that says how to reach their owner.
 * The sandbox enforces that request too, for bots only, so a bot that passes here is one the real
 * server's maintainers can reach. Purpose is free text that no machine can judge, so the sandbox
 * checks the contact, which it accepts in either of these forms:
 *
 * - a `Contact:` field (any case) with something after it, as in
 *   `mybot/1.0 (Purpose: leaderboard; Contact: https://example.org/me)`;
 * - an `@` followed by a name or a mail domain anywhere (`@griffpatch`, `me@example.com`).
 *
 * A bare URL does not count: library User-Agents carry their own homepage
 * (`scratchlab/0.1 (+https://www.npmjs.com/package/scratchlab)`), which names nobody.
 *
 * A browser is a request whose User-Agent is a browser's (`Mozilla/5.0 (…`) and that carries an
 * `Origin` (browsers always send one with a WebSocket upgrade; bot libraries mostly do not). Its
 * User-Agent names no contact and needs none. A bot that borrows a browser's User-Agent without
 * an `Origin` is still a bot.
 */
const CONTACT_FIELD = /\bcontact\s*:\s*[^\s;)]/i;
const AT_NAME = /@[A-Za-z0-9_.-]/;
const BROWSER_AGENT = /^Mozilla\/5\.0 \(/;

/** True when the User-Agent names a way to contact the bot's owner. */
export function isIdentifyingUserAgent(userAgent: string | undefined): boolean {
  if (!userAgent) return false;
  return CONTACT_FIELD.test(userAgent) || AT_NAME.test(userAgent);
}

/** True for a browser's upgrade: a browser's User-Agent and an `Origin`. */
export function isBrowserUpgrade(userAgent: string | undefined, origin: string | undefined): boolean {
  return !!origin && !!userAgent && BROWSER_AGENT.test(userAgent);
}

/**
 * Whether the alternate endpoint takes an upgrade with these headers: never without a
 * User-Agent (the real server's rule); a browser always; a bot when it names a contact.
 */
export function acceptsUserAgent(userAgent: string | undefined, origin: string | undefined): boolean {
  if (!userAgent) return false;
  return isBrowserUpgrade(userAgent, origin) || isIdentifyingUserAgent(userAgent);
}
