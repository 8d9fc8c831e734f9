import { loadavg } from 'node:os';
import type { Featured, Health } from '../../records/records.js';
import type { SandboxContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import {
  exactJson,
  isObject,
  json,
  page,
  parseId,
  parseJsonBody,
  parsePaging,
  readBody,
} from '../http-utils.js';
import type { Incoming, Router } from '../router.js';
import { noteRemix, noteShare } from '../rules/activity-events.js';
import { reader, writer } from '../rules/auth.js';
import { canSeeProject } from '../rules/project-visibility.js';
import {
  exploreProjects,
  exploreStudios,
  parseFilter,
  searchProjects,
  searchStudios,
} from '../rules/ranking.js';
import type { CommentRow, ProjectRow, StudioRow, UserRow } from '../state/store.js';

const METADATA_LIMIT = 64 * 1024;
/**
 * Editable metadata and its length limits (the real editor's: 100 for titles, 5000 for texts).
 * A Map, so a field named `constructor` or `__proto__` finds nothing instead of Object's own.
 */
const METADATA_FIELDS = new Map<string, { min: number; max: number }>([
  ['title', { min: 1, max: 100 }],
  ['description', { min: 0, max: 5000 }],
  ['instructions', { min: 0, max: 5000 }],
]);

/** The REST reads and metadata writes under `/api` (WIRE.md §3-4). */
export function apiRoutes(router: Router, ctx: SandboxContext): void {
  const { store, views, sessions, projectTokens } = ctx;
  const started = Date.now();

  const userParam = (req: Incoming): UserRow => {
    const user = store.userByName(req.params.username ?? '');
    if (!user) throw notFound();
    return user;
  };

  /** A project the requester may see: shared, or their own. Anything else is a 404. */
  const visibleProject = (req: Incoming): ProjectRow => {
    const id = parseId(req.params.id);
    const row = id === null ? undefined : store.projects.get(id);
    if (!row) throw notFound();
    if (!canSeeProject(row, reader(req, sessions)?.userId)) throw notFound();
    return row;
  };

  /** The project a write names, after the auth checks; only its owner may change it. */
  const ownProject = (req: Incoming): ProjectRow => {
    const session = writer(req, sessions, 'required');
    const id = parseId(req.params.id);
    const row = id === null ? undefined : store.projects.get(id);
    if (!row || !canSeeProject(row, session.userId)) throw notFound();
    if (row.ownerId !== session.userId) throw forbidden('Only the owner can change this project');
    return row;
  };

  const studioParam = (req: Incoming): StudioRow => {
    const id = parseId(req.params.id);
    const row = id === null ? undefined : store.studios.get(id);
    if (!row) throw notFound();
    return row;
  };

  const usersOf = (ids: readonly number[]) => ids.map((id) => views.user(store.users.get(id)!));

  const projectsOf = (rows: readonly ProjectRow[]) => rows.map((row) => views.project(row));

  const topLevelPage = (req: Incoming, list: readonly CommentRow[]) =>
    page(store.topLevel(list), parsePaging(req.query)).map((c) => views.comment(c, list));

  const repliesPage = (req: Incoming, list: readonly CommentRow[]) => {
    const parentId = parseId(req.params.cid);
    const parent = list.find((c) => c.id === parentId && c.parentId === null);
    if (!parent) throw notFound();
    return page(store.repliesTo(list, parent.id), parsePaging(req.query)).map((c) => views.comment(c, list));
  };

  /** One comment (top-level or reply) by its id, `:cid`. */
  const oneComment = (req: Incoming, list: readonly CommentRow[]) => {
    const id = parseId(req.params.cid);
    const comment = list.find((c) => c.id === id);
    if (!comment) throw notFound();
    return views.comment(comment, list);
  };

  /** The comments of a project addressed as `/users/<author>/projects/<id>`. */
  const projectComments = (req: Incoming): readonly CommentRow[] => {
    const row = visibleProject(req);
    if (store.users.get(row.ownerId)!.username.toLowerCase() !== (req.params.username ?? '').toLowerCase()) {
      throw notFound();
    }
    return store.projectComments.get(row.id) ?? [];
  };

  // ---- service ---------------------------------------------------------------------------------
  router.get('/api/health', () => {
    // The real answer's shape (WIRE.md §10): a version with a leading space, `sql` nested by
    // database and role with pool counts in each leaf, `load` an array of numbers.
    const pool = () => ({
      ssl: false,
      destroyed: false,
      min: 0,
      max: 10,
      numUsed: 0,
      numFree: 1,
      pendingAcquires: 0,
      pendingCreates: 0,
    });
    const database = () => ({ primary: pool(), replica: pool() });
    const health: Health = {
      version: ' scratchlab-sandbox',
      uptime: Math.round((Date.now() - started) / 1000),
      load: loadavg(),
      sql: {
        main: database(),
        project_comments: database(),
        gallery_comments: database(),
        userprofile_comments: database(),
      },
      timestamp: Date.now(),
      cache: { connected: true, ready: true },
    };
    return json(health);
  });

  router.get('/api/news', (req) =>
    exactJson(page(store.news, parsePaging(req.query)).map((n) => views.news(n))),
  );

  router.get('/api/proxy/featured', () => {
    const shared = [...store.projects.values()].filter((p) => p.shared !== null);
    const top = (rows: ProjectRow[], score: (p: ProjectRow) => number) =>
      [...rows].sort((a, b) => score(b) - score(a) || b.id - a.id).slice(0, 12);
    const remixCount = (p: ProjectRow) => store.remixesOf(p.id).length;
    const studios = store.featuredStudioIds.map((id) => store.studios.get(id)!);
    const [curated, design] = studios;
    const studioRows = (studio: StudioRow | undefined, extra: (s: StudioRow) => Record<string, unknown>) =>
      (studio?.projects ?? [])
        .map((e) => store.projects.get(e.projectId)!)
        .filter((p) => p.shared !== null)
        .slice(0, 12)
        .map((p) => views.featuredProject(p, extra(studio!)));
    const featured: Featured = {
      community_featured_projects: store.featuredProjectIds
        .map((id) => store.projects.get(id)!)
        .filter((p) => p.shared !== null)
        .map((p) => views.featuredProject(p)),
      community_featured_studios: studios.map((s) => views.featuredStudio(s)),
      community_most_loved_projects: top(shared, (p) => p.loves).map((p) => views.featuredProject(p)),
      community_most_remixed_projects: top(
        shared.filter((p) => remixCount(p) > 0),
        remixCount,
      ).map((p) => views.featuredProject(p, { remixers_count: remixCount(p) })),
      community_newest_projects: top(shared, (p) => Date.parse(p.shared!)).map((p) =>
        views.featuredProject(p),
      ),
      curator_top_projects: studioRows(curated, (s) => ({
        curator_name: store.users.get(s.hostId)!.username,
      })),
      scratch_design_studio: studioRows(design, (s) => ({ gallery_id: s.id, gallery_title: s.title })),
    };
    return json(featured);
  });

  // ---- users -----------------------------------------------------------------------------------
  router.get('/api/users/:username', (req) => json(views.user(userParam(req))));
  router.get('/api/users/:username/followers', (req) => {
    const user = userParam(req);
    return json(usersOf(page(store.followers.get(user.id) ?? [], parsePaging(req.query))));
  });
  router.get('/api/users/:username/following', (req) => {
    const user = userParam(req);
    return json(usersOf(page(store.following.get(user.id) ?? [], parsePaging(req.query))));
  });
  router.get('/api/users/:username/favorites', (req) => {
    const user = userParam(req);
    const rows = (store.favorites.get(user.id) ?? [])
      .map((id) => store.projects.get(id)!)
      .filter((p) => p.shared !== null);
    return json(projectsOf(page(rows, parsePaging(req.query))));
  });
  router.get('/api/users/:username/projects', (req) => {
    const user = userParam(req);
    // Thin rows, as the real API sends this list (WIRE.md §10).
    const rows = page(store.sharedProjectsOf(user.id), parsePaging(req.query));
    return json(rows.map((row) => views.projectListRow(row)));
  });
  router.get('/api/users/:username/projects/:id', (req) => {
    const user = userParam(req);
    const row = visibleProject(req);
    if (row.ownerId !== user.id) throw notFound();
    return json(views.project(row));
  });
  // The studios a project is in, and those a user curates, hosts or manages (as scratchattach
  // reads them: `Project.studios`, `User.studios`), in the studio record's shape, 40 a page.
  router.get('/api/users/:username/projects/:id/studios', (req) => {
    const user = userParam(req);
    const row = visibleProject(req);
    if (row.ownerId !== user.id) throw notFound();
    const studios = [...store.studios.values()].filter((s) => s.projects.some((e) => e.projectId === row.id));
    return json(page(studios, parsePaging(req.query)).map((s) => views.studio(s)));
  });
  router.get('/api/users/:username/studios/curate', (req) => {
    const user = userParam(req);
    const studios = [...store.studios.values()].filter(
      (s) => s.hostId === user.id || s.managers.includes(user.id) || s.curators.includes(user.id),
    );
    return json(page(studios, parsePaging(req.query)).map((s) => views.studio(s)));
  });
  router.get('/api/users/:username/projects/:id/comments', (req) =>
    json(topLevelPage(req, projectComments(req))),
  );
  router.get('/api/users/:username/projects/:id/comments/:cid', (req) =>
    json(oneComment(req, projectComments(req))),
  );
  router.get('/api/users/:username/projects/:id/comments/:cid/replies', (req) =>
    json(repliesPage(req, projectComments(req))),
  );

  // ---- projects --------------------------------------------------------------------------------
  router.get('/api/projects/:id', (req) => {
    const row = visibleProject(req);
    return json(views.project(row, projectTokens.issue(row.id)));
  });
  router.get('/api/projects/:id/remixes', (req) => {
    const row = visibleProject(req);
    return json(projectsOf(page(store.remixesOf(row.id), parsePaging(req.query))));
  });

  router.put('/api/projects/:id', async (req) => {
    const row = ownProject(req);
    const body = parseJsonBody(await readBody(req.raw, METADATA_LIMIT));
    if (!isObject(body)) throw badRequest('expected a JSON object with title, description or instructions');
    // Validate every field before changing anything: a write never half-happens.
    const changes: Partial<Record<'title' | 'description' | 'instructions', string>> & {
      commentsAllowed?: boolean;
    } = {};
    for (const [key, value] of Object.entries(body)) {
      if (key === 'comments_allowed') {
        if (typeof value !== 'boolean') throw badRequest('comments_allowed must be true or false');
        changes.commentsAllowed = value;
        continue;
      }
      const rule = METADATA_FIELDS.get(key);
      if (!rule)
        throw badRequest(
          `unknown field ${JSON.stringify(key)} (allowed: title, description, instructions, comments_allowed)`,
        );
      if (typeof value !== 'string') throw badRequest(`${key} must be a string`);
      if (value.length < rule.min || value.length > rule.max) {
        throw badRequest(`${key} must be ${rule.min} to ${rule.max} characters long`);
      }
      changes[key as 'title' | 'description' | 'instructions'] = value;
    }
    if (Object.keys(changes).length > 0) {
      Object.assign(row, changes);
      row.modified = new Date().toISOString();
      row.lastActivity = row.modified;
    }
    return json(views.project(row));
  });

  router.put('/api/proxy/projects/:id/share', (req) => {
    const row = ownProject(req);
    if (row.shared === null) {
      row.shared = new Date().toISOString();
      row.lastActivity = row.shared;
      if (row.parent === null) noteShare(store, row.id);
      else noteRemix(store, row.id);
    }
    return json(views.project(row));
  });
  router.put('/api/proxy/projects/:id/unshare', (req) => {
    const row = ownProject(req);
    row.shared = null;
    return json(views.project(row));
  });

  // ---- studios ---------------------------------------------------------------------------------
  router.get('/api/studios/:id', (req) => json(views.studio(studioParam(req))));
  router.get('/api/studios/:id/projects', (req) =>
    json(page(views.studioProjects(studioParam(req)), parsePaging(req.query))),
  );
  router.get('/api/studios/:id/curators', (req) =>
    json(usersOf(page(studioParam(req).curators, parsePaging(req.query)))),
  );
  router.get('/api/studios/:id/managers', (req) =>
    json(usersOf(page(studioParam(req).managers, parsePaging(req.query)))),
  );
  router.get('/api/studios/:id/comments', (req) =>
    json(topLevelPage(req, store.studioComments.get(studioParam(req).id) ?? [])),
  );
  router.get('/api/studios/:id/comments/:cid', (req) =>
    json(oneComment(req, store.studioComments.get(studioParam(req).id) ?? [])),
  );
  router.get('/api/studios/:id/comments/:cid/replies', (req) =>
    json(repliesPage(req, store.studioComments.get(studioParam(req).id) ?? [])),
  );

  // ---- search and explore ----------------------------------------------------------------------
  const listing =
    <T>(find: (filter: ReturnType<typeof parseFilter>) => T[], defaultQ: string, show: (row: T) => unknown) =>
    (req: Incoming) => {
      const filter = parseFilter(req.query, defaultQ);
      return json(page(find(filter), parsePaging(req.query)).map(show));
    };
  router.get(
    '/api/search/projects',
    listing(
      (f) => searchProjects(store, f),
      '',
      (p) => views.project(p),
    ),
  );
  router.get(
    '/api/search/studios',
    listing(
      (f) => searchStudios(store, f),
      '',
      (s) => views.studio(s),
    ),
  );
  router.get(
    '/api/explore/projects',
    listing(
      (f) => exploreProjects(store, f),
      '*',
      (p) => views.project(p),
    ),
  );
  router.get(
    '/api/explore/studios',
    listing(
      (f) => exploreStudios(store, f),
      '*',
      (s) => views.studio(s),
    ),
  );
}
