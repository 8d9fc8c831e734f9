import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Short-lived project tokens, `<unix seconds>_<128 hex digits>` as on the real service (WIRE.md
 * §4, §10). The hex part is an HMAC-SHA-512 of the project id and the issue time, so a token is
 * bound to one project and cannot be forged or moved; nothing is stored.
 */
export class ProjectTokens {
  private readonly secret = randomBytes(32);

  /** @param ttlSeconds how long a token lives (at least this long, at most one second more). */
  constructor(private readonly ttlSeconds: number) {}

  issue(projectId: number, now = Date.now()): string {
    const issued = Math.floor(now / 1000);
    return `${issued}_${this.sign(projectId, issued)}`;
  }

  verify(projectId: number, token: string | null, now = Date.now()): boolean {
    if (!token) return false;
    const match = /^(\d{1,12})_([0-9a-f]{128})$/.exec(token);
    if (!match) return false;
    const issued = Number(match[1]);
    // Issue times are whole seconds, so the token lives until the end of its last second.
    if (now >= (issued + this.ttlSeconds + 1) * 1000 || issued * 1000 > now + 1000) return false;
    const expected = Buffer.from(this.sign(projectId, issued), 'hex');
    return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
  }

  private sign(projectId: number, issued: number): string {
    return createHmac('sha512', this.secret).update(`${projectId}:${issued}`).digest('hex');
  }
}
