/**
 * A profile's page (its header's group) and its list pages (no login), as far as readers of rank,
 * totals and loves use them:
 * `/users/<u>/followers/`, `following/`, `projects/`, `studios/`, `favorites/` state their totals
 * in their heading; `/projects/all/<u>/loves/?page=N` lists the projects the user loves, 40 a
 * page (404 past the last). An unknown user is the 404 page.
 */
import type { SandboxContext } from '../context.js';
import { HttpError } from '../errors.js';
import type { Incoming, Router } from '../router.js';
import type { UserRow } from '../state/store.js';
import { lovesPageHtml, profileCountHtml, profilePageHtml } from '../views/profile-pages-html.js';
import { html, parsePageNumber, sitePage } from './page-number.js';

/** Loved projects a page. */
export const LOVES_PAGE_SIZE = 40;

export function profilePageRoutes(router: Router, ctx: SandboxContext): void {
  const { store } = ctx;
  const userOf = (req: Incoming): UserRow => {
    const user = store.userByName(req.params.username ?? '');
    if (!user) throw new HttpError(404, 'NotFound', 'no such user');
    return user;
  };
  const shared = (ids: readonly number[]) =>
    ids.map((id) => store.projects.get(id)).filter((p) => p !== undefined && p.shared !== null);
  const curated = (userId: number) =>
    [...store.studios.values()].filter(
      (s) => s.hostId === userId || s.managers.includes(userId) || s.curators.includes(userId),
    ).length;
  /** The projects a user loves, the latest love first. */
  const loved = (userId: number) =>
    shared(
      [...store.social.lovers.entries()].filter(([, lovers]) => lovers.has(userId)).map(([id]) => id),
    ).reverse();

  const COUNTS: readonly [string, string, (user: UserRow) => number][] = [
    ['followers', 'Followers', (u) => (store.followers.get(u.id) ?? []).length],
    ['following', 'Following', (u) => (store.following.get(u.id) ?? []).length],
    ['projects', 'Shared Projects', (u) => store.sharedProjectsOf(u.id).length],
    ['studios', 'Studios I Curate', (u) => curated(u.id)],
    ['favorites', 'Favorites', (u) => shared(store.favorites.get(u.id) ?? []).length],
  ];
  for (const [path, label, count] of COUNTS) {
    router.get(`/users/:username/${path}`, (req) => {
      const user = userOf(req);
      return html(profileCountHtml(user.username, label, count(user)));
    });
  }

  // The profile page's group. The sandbox's rule (the site's is not public): the Scratch Team is
  // "Scratch Team", a user without a shared project "New Scratcher", everyone else "Scratcher".
  router.get('/users/:username', (req) => {
    const user = userOf(req);
    const group = user.scratchteam
      ? 'Scratch Team'
      : store.sharedProjectsOf(user.id).length === 0
        ? 'New Scratcher'
        : 'Scratcher';
    return html(profilePageHtml(user.username, group, user.joined));
  });

  // The credits page's script, as far as the Scratch Team list goes: scratch-www bundles its
  // `people.json` as `JSON.parse('[{"userName":…,"userId":…,"name":…}]')`. The sandbox's Scratch
  // Team accounts, then a member listed without an account (as the real list has one).
  router.get('/js/credits.bundle.js', () => {
    const people: { userName: string; userId: number | ''; name: string }[] = [...store.users.values()]
      .filter((u) => u.scratchteam)
      .map((u) => ({
        userName: u.username,
        userId: u.id,
        name: u.username.replace(/[^A-Za-z].*$/, '') || u.username,
      }));
    people.push({ userName: '', userId: '', name: 'Zo\u00eb' });
    const literal = JSON.stringify(people)
      .replace(/\\/g, '\\\\')
      .replace(/'/g, "\\'")
      .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const script = `!function(e){var t={};function n(r){return t[r]}n.p="";var people=JSON.parse('${literal}');e.credits=people}(window);\n`;
    return { status: 200, body: script, contentType: 'application/javascript; charset=utf-8' };
  });

  router.get('/projects/all/:username/loves', (req) => {
    const user = userOf(req);
    const all = loved(user.id);
    const rows = sitePage(all, parsePageNumber(req.query), LOVES_PAGE_SIZE).map((p) => ({
      id: p!.id,
      title: p!.title,
      author: store.users.get(p!.ownerId)!.username,
    }));
    return html(lovesPageHtml(user.username, rows, all.length));
  });
}
