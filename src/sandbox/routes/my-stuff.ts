/**
 * "My Stuff" (WIRE.md §12.4): `{site}/site-api/projects/<all|shared|notshared|trashed>/` (the
 * site's name of the unshared list is `notshared`, §12.7; `unshared` is a 404 there) and
 * `{site}/site-api/galleries/<all|owned|curated>/` (`?page=`, `ascsort`/`descsort`; the session
 * cookie) and the `{site}/mystuff/` page's counts.
 */
import type { SandboxContext } from '../context.js';
import { badRequest, notFound, unauthorized } from '../errors.js';
import { json } from '../http-utils.js';
import type { Incoming, Router } from '../router.js';
import { cookieSession } from '../rules/auth.js';
import type { Session } from '../state/sessions.js';
import type { ProjectRow, StudioRow } from '../state/store.js';
import { html, parsePageNumber, sitePage } from './page-number.js';

/** Rows a page of the "My Stuff" lists. */
export const MY_STUFF_PAGE_SIZE = 40;

export function myStuffRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions, links } = ctx;
  /** What `ascsort`/`descsort` may name, and the value each sorts by. */
  const PROJECT_SORTS = new Map<string, (p: ProjectRow) => number | string>([
    ['view_count', (p) => p.views],
    ['love_count', (p) => p.loves],
    ['remixers_count', (p) => store.remixesOf(p.id).length],
    ['title', (p) => p.title.toLowerCase()],
  ]);
  const me = (req: Incoming): Session => {
    const session = cookieSession(req, sessions);
    if (!session) throw unauthorized();
    return session;
  };
  const projectsOf = (userId: number) => [...store.projects.values()].filter((p) => p.ownerId === userId);
  const studiosOf = (userId: number, filter: string) =>
    [...store.studios.values()].filter((s) => {
      const owned = s.hostId === userId;
      const curated = !owned && (s.managers.includes(userId) || s.curators.includes(userId));
      return filter === 'owned' ? owned : filter === 'curated' ? curated : owned || curated;
    });

  router.get('/site-api/projects/:filter', (req) => {
    const session = me(req);
    const filter = req.params.filter;
    if (filter !== 'all' && filter !== 'shared' && filter !== 'notshared' && filter !== 'trashed')
      throw notFound();
    const asc = req.query.get('ascsort') ?? '';
    const desc = req.query.get('descsort') ?? '';
    const key = asc || desc;
    if (key !== '' && !PROJECT_SORTS.has(key)) throw badRequest(`cannot sort by ${key}`);
    // The sandbox has no trash: that list is empty.
    let rows =
      filter === 'trashed'
        ? []
        : projectsOf(session.userId).filter(
            (p) => filter === 'all' || (filter === 'shared') === (p.shared !== null),
          );
    const value = PROJECT_SORTS.get(key);
    rows = value
      ? rows.sort((a, b) => {
          const [x, y] = [value(a), value(b)];
          return (x < y ? -1 : x > y ? 1 : b.id - a.id) * (asc ? 1 : -1);
        })
      : rows.sort((a, b) => b.modified.localeCompare(a.modified) || b.id - a.id);
    const out = sitePage(rows, parsePageNumber(req.query), MY_STUFF_PAGE_SIZE).map((p) => ({
      pk: p.id,
      fields: {
        title: p.title,
        datetime_created: p.created,
        datetime_modified: p.modified,
        datetime_shared: p.shared,
        thumbnail_url: links.protocolRelative(links.projectImage(p.id, '144x108')),
        favorite_count: p.favorites,
        love_count: p.loves,
        remixers_count: store.remixesOf(p.id).length,
        view_count: p.views,
        commenters_count: new Set((store.projectComments.get(p.id) ?? []).map((c) => c.authorId)).size,
      },
    }));
    return json(out);
  });

  const studioRow = (s: StudioRow) => {
    const owner = store.users.get(s.hostId)!;
    return {
      pk: s.id,
      fields: {
        title: s.title,
        owner: { pk: owner.id, username: owner.username },
        thumbnail_url: links.protocolRelative(links.studioImage(s.id)),
        datetime_created: s.created,
        datetime_modified: s.modified,
        curators_count: s.curators.length + s.managers.length,
        projecters_count: s.projects.length,
      },
    };
  };
  router.get('/site-api/galleries/:filter', (req) => {
    const session = me(req);
    const filter = req.params.filter ?? '';
    if (filter !== 'all' && filter !== 'owned' && filter !== 'curated') throw notFound();
    const rows = studiosOf(session.userId, filter).sort(
      (a, b) => b.modified.localeCompare(a.modified) || b.id - a.id,
    );
    return json(sitePage(rows, parsePageNumber(req.query), MY_STUFF_PAGE_SIZE).map(studioRow));
  });

  router.get('/mystuff', (req) => {
    const session = me(req);
    const projects = projectsOf(session.userId);
    const shared = projects.filter((p) => p.shared !== null).length;
    const count = (n: number) => n.toLocaleString('en-US');
    return html(
      [
        '<!DOCTYPE html><html><head><title>My Stuff on Scratch</title></head><body>',
        '<div id="sidebar" class="tabs-index"><ul>',
        `  <li data-tab="shared">Shared Projects (<span data-content="shared-count">${count(shared)}</span>)</li>`,
        `  <li data-tab="unshared">Unshared Projects (<span data-content="unshared-count">${count(projects.length - shared)}</span>)</li>`,
        `  <li data-tab="galleries">My Studios (<span data-content="gallery-count">${count(studiosOf(session.userId, 'all').length)}</span>)</li>`,
        '</ul></div>',
        '</body></html>',
        '',
      ].join('\n'),
    );
  });
}
