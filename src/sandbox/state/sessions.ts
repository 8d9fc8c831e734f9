import { createHmac, randomBytes } from 'node:crypto';

/** A logged-in session: the cookie id, the X-Token that goes with it, and who it belongs to. */
export interface Session {
  id: string;
  token: string;
  userId: number;
  username: string;
  created: number;
}

/**
 * The live sessions, findable by cookie id and by X-Token. Dropping a session (logout) kills
 * both at once, so an old cookie or token never works again.
 *
 * Ids follow the real site's three-part shape `p1:p2:p3` (WIRE.md §2.6): `p1` is base64url JSON
 * with `username`, `_auth_user_id` and `token`, `p2` a base-36 timestamp, `p3` a signature.
 * The server never decodes them (it looks ids up), but clients that read `p1` keep working.
 */
export class SessionTable {
  private readonly byId = new Map<string, Session>();
  private readonly byToken = new Map<string, Session>();
  private readonly secret = randomBytes(32);

  create(userId: number, username: string, now = Date.now()): Session {
    const token = `${randomBytes(16).toString('hex')}:${randomBytes(12).toString('base64url')}`;
    const payload = Buffer.from(
      JSON.stringify({
        username,
        _auth_user_id: String(userId),
        token,
        nonce: randomBytes(6).toString('hex'),
      }),
    ).toString('base64url');
    const stamp = Math.floor(now / 1000).toString(36);
    const signature = createHmac('sha256', this.secret).update(`${payload}:${stamp}`).digest('base64url');
    const session: Session = {
      id: `${payload}:${stamp}:${signature.slice(0, 27)}`,
      token,
      userId,
      username,
      created: now,
    };
    this.byId.set(session.id, session);
    this.byToken.set(token, session);
    return session;
  }

  fromCookie(id: string | undefined): Session | undefined {
    return id ? this.byId.get(id) : undefined;
  }

  fromToken(token: string | undefined): Session | undefined {
    return token ? this.byToken.get(token) : undefined;
  }

  drop(session: Session): void {
    this.byId.delete(session.id);
    this.byToken.delete(session.token);
  }
}
