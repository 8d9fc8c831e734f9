/**
 * Studio management (WIRE.md §11.6): adding and removing projects (`{api}/studios/<id>/project/<pid>`,
 * X-Token only), curators (`PUT {site}/site-api/users/curators-in/<id>/<action>/?usernames=<u>`),
 * title, description, open and closed (`{site}/site-api/galleries/…`) and the caller's role.
 *
 * Roles, as on the service: the host and the managers (at most {@link MAX_MANAGERS}: "too many
 * owners") run the studio; curators add projects; invited users may accept. Managers invite,
 * promote, edit and remove curators; only the host removes a manager; anyone may leave, except
 * the host. A project can be removed by a manager, by whoever added it, or by its author.
 */
import type {
  CuratorAnswer,
  StudioEditAnswer,
  StudioProjectAnswer,
  StudioRole,
} from '../../records/write-records.js';
import type { SandboxContext } from '../context.js';
import { forbidden, HttpError, notFound, unauthorized } from '../errors.js';
import { bytes, header, isObject, json, parseId, parseJsonBody, readBody } from '../http-utils.js';
import type { Incoming, Router } from '../router.js';
import {
  noteBecomeCurator,
  noteCuratorInvite,
  noteCuratorRemoved,
  notePromote,
  noteStudioProject,
  noteStudioUpdated,
} from '../rules/activity-events.js';
import { reader, writer } from '../rules/auth.js';
import { isInappropriate } from '../rules/moderation.js';
import type { Session } from '../state/sessions.js';
import { SocialState } from '../state/social-state.js';
import type { StudioRow } from '../state/store.js';
import { assertSelf, mutedError } from './social.js';

/** The most managers a studio may have (the service's "too many owners"). */
export const MAX_MANAGERS = 40;
/** The longest studio title and description the site accepts. */
const MAX_STUDIO_TITLE = 52;
const MAX_STUDIO_DESCRIPTION = 5_000;
const EDIT_BODY_LIMIT = 64 * 1024;

export function studioManagementRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions } = ctx;
  const social = store.social;
  /** A studio write counts as recent activity (the explore page's trending order). */
  const touch = (studio: StudioRow) => {
    studio.lastActivity = new Date().toISOString();
    studio.recentActivity += 1;
  };

  const studioOf = (req: Incoming): StudioRow => {
    const id = parseId(req.params.id);
    const studio = id === null ? undefined : store.studios.get(id);
    if (!studio) throw notFound();
    return studio;
  };
  const isManager = (studio: StudioRow, userId: number) => studio.managers.includes(userId);
  const isCurator = (studio: StudioRow, userId: number) => studio.curators.includes(userId);
  const requireManager = (studio: StudioRow, session: Session) => {
    if (!isManager(studio, session.userId)) throw forbidden('Only managers of the studio can do this');
  };
  const without = (list: number[], id: number) => {
    const at = list.indexOf(id);
    if (at >= 0) list.splice(at, 1);
    return at >= 0;
  };

  // ---- projects ({api}, X-Token only) ----------------------------------------------------------------
  /** The API host authenticates these by X-Token alone (WIRE.md §11.6). */
  const tokenSession = (req: Incoming): Session => {
    const session = sessions.fromToken(header(req.raw, 'x-token'));
    if (!session) throw unauthorized('X-Token header required');
    return session;
  };

  const projectWrite = (req: Incoming, add: boolean) => {
    const session = tokenSession(req);
    const studio = studioOf(req);
    const pid = parseId(req.params.pid);
    const project = pid === null ? undefined : store.projects.get(pid);
    if (!project || project.shared === null) throw notFound();
    const muted = mutedError(ctx, session.userId);
    if (muted) throw muted;
    const at = studio.projects.findIndex((e) => e.projectId === project.id);
    if (add) {
      const member = isManager(studio, session.userId) || isCurator(studio, session.userId);
      if (!member && !studio.openToAll) throw forbidden('Only curators can add projects to this studio');
      if (at >= 0) throw new HttpError(409, 'Conflict', 'The project is in the studio already');
      studio.projects.push({ projectId: project.id, actorId: session.userId });
      noteStudioProject(store, studio.id, session.userId, project.id, true);
      touch(studio);
    } else {
      if (at < 0) throw notFound();
      const entry = studio.projects[at]!;
      const may =
        isManager(studio, session.userId) ||
        entry.actorId === session.userId ||
        project.ownerId === session.userId;
      if (!may) throw forbidden('Only managers, whoever added it or its author can remove this project');
      studio.projects.splice(at, 1);
      noteStudioProject(store, studio.id, session.userId, project.id, false);
      touch(studio);
    }
    const answer: StudioProjectAnswer = {
      projectId: String(project.id),
      studioId: studio.id,
      actorId: session.userId,
    };
    return json(answer);
  };
  router.post('/api/studios/:id/project/:pid', (req) => projectWrite(req, true));
  router.delete('/api/studios/:id/project/:pid', (req) => projectWrite(req, false));

  router.get('/api/studios/:id/users/:username', (req) => {
    const session = reader(req, sessions);
    if (!session) throw unauthorized();
    assertSelf(session, req.params.username);
    const studio = studioOf(req);
    const role: StudioRole = {
      manager: isManager(studio, session.userId),
      curator: isCurator(studio, session.userId),
      invited: social.invited.get(studio.id)?.has(session.userId) ?? false,
      following: social.studioFollowers.get(studio.id)?.has(session.userId) ?? false,
    };
    return json(role);
  });

  // ---- curators ({site}/site-api/users/curators-in) --------------------------------------------------
  const success = (): ReturnType<typeof json> => json({ status: 'success' } satisfies CuratorAnswer);
  const refusal = (message: string) => json({ status: 'error', message } satisfies CuratorAnswer);

  router.put('/site-api/users/curators-in/:id/:action', (req) => {
    const session = writer(req, sessions, 'if-present');
    const studio = studioOf(req);
    const name = req.query.get('usernames');
    const target = name ? store.userByName(name) : undefined;
    if (!target) throw notFound();
    const invited = SocialState.setOf(social.invited, studio.id);
    switch (req.params.action) {
      case 'invite_curator': {
        requireManager(studio, session);
        if (isManager(studio, target.id) || isCurator(studio, target.id)) {
          return refusal(`${target.username} is already a curator of this studio`);
        }
        if (!invited.has(target.id)) {
          invited.add(target.id);
          noteCuratorInvite(store, studio.id, session.userId, target.id);
        }
        return success();
      }
      case 'add': {
        assertSelf(session, name);
        if (!invited.delete(target.id)) throw forbidden('You have not been invited to curate this studio');
        studio.curators.push(target.id);
        SocialState.setOf(social.studioFollowers, studio.id).add(target.id);
        noteBecomeCurator(store, studio.id, target.id);
        touch(studio);
        return success();
      }
      case 'promote': {
        requireManager(studio, session);
        if (!isCurator(studio, target.id)) {
          throw new HttpError(400, 'BadRequest', '', { message: `${target.username} is not a curator` });
        }
        if (studio.managers.length >= MAX_MANAGERS) {
          throw new HttpError(400, 'BadRequest', '', { message: 'too many owners' });
        }
        without(studio.curators, target.id);
        studio.managers.push(target.id);
        notePromote(store, studio.id, session.userId, target.id);
        touch(studio);
        return success();
      }
      case 'remove': {
        const self = target.id === session.userId;
        if (target.id === studio.hostId) throw forbidden('The host cannot leave or be removed');
        if (isManager(studio, target.id) && !self && session.userId !== studio.hostId) {
          throw forbidden('Only the host can remove a manager');
        }
        if (!self) requireManager(studio, session);
        const removed = without(studio.managers, target.id) || without(studio.curators, target.id);
        const uninvited = invited.delete(target.id);
        if (!removed && !uninvited) throw notFound();
        if (removed) noteCuratorRemoved(store, studio.id, session.userId, target.id);
        // The site answers with the member list's HTML fragment (WIRE.md §11.6).
        return bytes('<div class="studio-members"></div>\n', 'text/html; charset=utf-8');
      }
      default:
        throw notFound();
    }
  });

  // ---- title, description, open and closed ({site}/site-api/galleries) -------------------------------
  router.put('/site-api/galleries/all/:id', async (req) => {
    const session = writer(req, sessions, 'if-present');
    const studio = studioOf(req);
    requireManager(studio, session);
    const body = parseJsonBody(await readBody(req.raw, EDIT_BODY_LIMIT));
    if (!isObject(body)) return json({ errors: ['This field is required.'] } satisfies StudioEditAnswer);
    const errors: string[] = [];
    const changes: { title?: string; description?: string } = {};
    for (const [key, limit] of [
      ['title', MAX_STUDIO_TITLE],
      ['description', MAX_STUDIO_DESCRIPTION],
    ] as const) {
      const value = body[key];
      if (value === undefined) continue;
      if (typeof value !== 'string' || (key === 'title' && value.trim() === '')) {
        errors.push('This field is required.');
      } else if (value.length > limit) errors.push('editable-text-too-long');
      else if (isInappropriate(value)) errors.push('inappropriate-generic');
      else changes[key] = value;
    }
    if (errors.length === 0 && Object.keys(changes).length === 0) errors.push('This field is required.');
    // Refusals are HTTP 200 with `errors`, and nothing changes (WIRE.md §11.6).
    if (errors.length > 0) return json({ errors } satisfies StudioEditAnswer);
    Object.assign(studio, changes);
    studio.modified = new Date().toISOString();
    noteStudioUpdated(store, studio.id, session.userId);
    touch(studio);
    const answer: StudioEditAnswer = { id: studio.id, title: studio.title, description: studio.description };
    return json(answer);
  });

  router.put('/site-api/galleries/:id/mark/:state', (req) => {
    const session = writer(req, sessions, 'if-present');
    const studio = studioOf(req);
    requireManager(studio, session);
    if (req.params.state !== 'open' && req.params.state !== 'closed') throw notFound();
    const open = req.params.state === 'open';
    if (studio.openToAll !== open) {
      studio.openToAll = open;
      noteStudioUpdated(store, studio.id, session.userId);
    }
    return json({});
  });
}
