/**
 * Social writes (WIRE.md §11.5): loves and favorites (`{api}/proxy/projects/<id>/…/user/<me>`,
 * with string project ids in the answers), whether you love or favourite a project, and follows
 * of users and studios (`PUT {site}/site-api/users/…/?usernames=<me>`). Every write shows in the
 * reads at once: a love in the project's `loves`, a follow in `followers`.
 */
import type { FavoriteAnswer, LoveAnswer } from '../../records/write-records.js';
import type { SandboxContext } from '../context.js';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../errors.js';
import { json, parseId } from '../http-utils.js';
import type { Incoming, Router } from '../router.js';
import { noteFavorite, noteFollowStudio, noteFollowUser, noteLove } from '../rules/activity-events.js';
import { reader, writer } from '../rules/auth.js';
import { canSeeProject } from '../rules/project-visibility.js';
import type { Session } from '../state/sessions.js';
import { SocialState } from '../state/social-state.js';
import type { ProjectRow } from '../state/store.js';

/** The 403 a muted account gets from the writes that check mutes (WIRE.md §11). */
export function mutedError(ctx: SandboxContext, userId: number): HttpError | undefined {
  const guard = ctx.store.social.guard;
  if (guard.mutedUntil(userId) === undefined) return undefined;
  return new HttpError(403, 'Forbidden', 'muted', { mute_status: guard.muteStatus(userId) });
}

/** The `:username` of a path (or `usernames` of a query) must be the caller: nobody acts for another. */
export function assertSelf(session: Session, name: string | null | undefined): void {
  if (!name) throw badRequest('usernames is required');
  if (name.toLowerCase() !== session.username.toLowerCase()) {
    throw forbidden('You can only do this for yourself');
  }
}

export function socialRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions } = ctx;
  const social = store.social;

  const projectFor = (req: Incoming, viewerId: number): ProjectRow => {
    const id = parseId(req.params.id);
    const row = id === null ? undefined : store.projects.get(id);
    if (!row || !canSeeProject(row, viewerId)) throw notFound();
    return row;
  };

  /** Adds or removes the caller's love; `statusChanged` false when there was nothing to change. */
  const setLove = (req: Incoming, on: boolean) => {
    const session = writer(req, sessions, 'required');
    assertSelf(session, req.params.username);
    const project = projectFor(req, session.userId);
    const lovers = SocialState.setOf(social.lovers, project.id);
    const changed = lovers.has(session.userId) !== on;
    if (changed && on) {
      lovers.add(session.userId);
      project.loves += 1;
      project.recentLoves += 1;
      project.lastActivity = new Date().toISOString();
      noteLove(store, session.userId, project.id);
    } else if (changed) {
      lovers.delete(session.userId);
      project.loves = Math.max(0, project.loves - 1);
      project.recentLoves = Math.max(0, project.recentLoves - 1);
    }
    const answer: LoveAnswer = { projectId: String(project.id), userLove: on, statusChanged: changed };
    return json(answer);
  };

  const setFavorite = (req: Incoming, on: boolean) => {
    const session = writer(req, sessions, 'required');
    assertSelf(session, req.params.username);
    const project = projectFor(req, session.userId);
    const list = store.favorites.get(session.userId) ?? [];
    store.favorites.set(session.userId, list);
    const at = list.indexOf(project.id);
    const changed = at >= 0 !== on;
    if (changed && on) {
      list.unshift(project.id); // newest first, as `/users/<u>/favorites` lists them
      project.favorites += 1;
      noteFavorite(store, session.userId, project.id);
    } else if (changed) {
      list.splice(at, 1);
      project.favorites = Math.max(0, project.favorites - 1);
    }
    const answer: FavoriteAnswer = {
      projectId: String(project.id),
      userFavorite: on,
      statusChanged: changed,
    };
    return json(answer);
  };

  router.post('/api/proxy/projects/:id/loves/user/:username', (req) => setLove(req, true));
  router.delete('/api/proxy/projects/:id/loves/user/:username', (req) => setLove(req, false));
  router.post('/api/proxy/projects/:id/favorites/user/:username', (req) => setFavorite(req, true));
  router.delete('/api/proxy/projects/:id/favorites/user/:username', (req) => setFavorite(req, false));

  /** The caller's own state only: the X-Token (or session cookie) must be the named user's. */
  const ownReader = (req: Incoming): Session => {
    const session = reader(req, sessions);
    if (!session) throw unauthorized();
    assertSelf(session, req.params.username);
    return session;
  };
  router.get('/api/projects/:id/loves/user/:username', (req) => {
    const session = ownReader(req);
    const project = projectFor(req, session.userId);
    const userLove = social.lovers.get(project.id)?.has(session.userId) ?? false;
    return json({ projectId: String(project.id), userLove });
  });
  router.get('/api/projects/:id/favorites/user/:username', (req) => {
    const session = ownReader(req);
    const project = projectFor(req, session.userId);
    const userFavorite = store.favorites.get(session.userId)?.includes(project.id) ?? false;
    return json({ projectId: String(project.id), userFavorite });
  });

  // ---- follows ({site}/site-api, ?usernames=<me>) ------------------------------------------------
  router.put('/site-api/users/followers/:username/:action', (req) => {
    const session = writer(req, sessions, 'if-present');
    assertSelf(session, req.query.get('usernames'));
    const target = store.userByName(req.params.username ?? '');
    if (!target) throw notFound();
    if (req.params.action === 'add') {
      if (target.id === session.userId) throw badRequest('You cannot follow yourself');
      const before = store.following.get(session.userId)?.includes(target.id) ?? false;
      store.follow(session.userId, target.id);
      if (!before) noteFollowUser(store, session.userId, target.id);
    } else if (req.params.action === 'remove') {
      store.unfollow(session.userId, target.id);
    } else {
      throw notFound();
    }
    return json({});
  });

  router.put('/site-api/users/bookmarkers/:id/:action', (req) => {
    const session = writer(req, sessions, 'if-present');
    assertSelf(session, req.query.get('usernames'));
    const id = parseId(req.params.id);
    const studio = id === null ? undefined : store.studios.get(id);
    if (!studio) throw notFound();
    const followers = SocialState.setOf(social.studioFollowers, studio.id);
    if (req.params.action === 'add') {
      const muted = mutedError(ctx, session.userId);
      if (muted) throw muted;
      if (!followers.has(session.userId)) {
        followers.add(session.userId);
        studio.followers += 1;
        noteFollowStudio(store, session.userId, studio.id);
      }
    } else if (req.params.action === 'remove') {
      if (followers.delete(session.userId)) studio.followers = Math.max(0, studio.followers - 1);
    } else {
      throw notFound();
    }
    return json({});
  });
}
