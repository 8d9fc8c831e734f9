/**
 * The backpack host under `/backpack` (WIRE.md §12.3): `GET /backpack/<username>?limit&offset`
 * (X-Token of that user; at most 40 a request), `GET /backpack/<md5>.<ext>` (the items' files, no
 * login) and `DELETE /backpack/<username>/<id>` (X-Token of that user).
 */
import type { SandboxContext } from '../context.js';
import { forbidden, notFound, unauthorized } from '../errors.js';
import { bytes, header, json, page, parsePaging } from '../http-utils.js';
import type { Incoming, Router } from '../router.js';
import type { Session } from '../state/sessions.js';

export function backpackRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions } = ctx;
  const backpacks = store.backpacks;

  /** The backpack host knows only the X-Token, and only its owner may see or change a backpack. */
  const owner = (req: Incoming): Session => {
    const session = sessions.fromToken(header(req.raw, 'x-token'));
    if (!session) throw unauthorized('X-Token header required');
    if ((req.params.username ?? req.params.name ?? '').toLowerCase() !== session.username.toLowerCase()) {
      throw forbidden('This is not your backpack');
    }
    return session;
  };

  router.get('/backpack/:name', (req) => {
    const name = req.params.name ?? '';
    // Usernames have no dot; file names always do.
    if (name.includes('.')) {
      const file = backpacks.files.get(name);
      if (!file) throw notFound();
      return bytes(file.bytes, file.contentType);
    }
    const session = owner(req);
    return json(page(backpacks.of(session.userId), parsePaging(req.query)));
  });

  router.delete('/backpack/:username/:id', (req) => {
    const session = owner(req);
    if (!backpacks.remove(session.userId, req.params.id ?? '')) throw notFound();
    return json({ ok: true });
  });
}
