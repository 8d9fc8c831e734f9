import type { FeedItem } from '../../records/activity-records.js';
import type { SandboxContext } from '../context.js';
import { badRequest, forbidden, notFound, unauthorized } from '../errors.js';
import { json, page, parseId, parsePaging, type Reply } from '../http-utils.js';
import type { Router } from '../router.js';
import { reader } from '../rules/auth.js';
import type { UserActivityRecord } from '../state/activity-log.js';
import { activityHtml } from '../views/activity-html.js';
import { parseDateLimit } from './date-limit.js';

/** Items of a profile's activity page when `max` is not given, and at most. */
const DEFAULT_MAX = 100_000;

/** The kinds of a user's activity that the "what's happening" feed shows. */
const isFeedItem = (row: UserActivityRecord): row is FeedItem =>
  row.type !== 'addprojecttostudio' && row.type !== 'userjoin';

const html = (body: string, status = 200): Reply => ({
  status,
  body,
  contentType: 'text/html; charset=utf-8',
});

/** Studio activity, the "what's happening" feed and a profile's activity (WIRE.md §11.2). */
export function activityRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions, links } = ctx;

  // No login; `limit` (default 20, at most 40) and `dateLimit` (rows at or before it); no offset.
  router.get('/api/studios/:id/activity', (req) => {
    const id = parseId(req.params.id);
    if (id === null || !store.studios.has(id)) throw notFound();
    const { limit } = parsePaging(req.query);
    const dateLimit = parseDateLimit(req.query);
    const rows = store.activity.studioActivity(id);
    const from = dateLimit === null ? 0 : rows.findIndex((r) => Date.parse(r.datetime_created) <= dateLimit);
    return json(from < 0 ? [] : rows.slice(from, from + limit));
  });

  // What the users the caller follows did; the caller's own list only.
  router.get('/api/users/:username/following/users/activity', (req) => {
    const user = store.userByName(req.params.username ?? '');
    if (!user) throw notFound();
    const session = reader(req, sessions);
    if (!session) throw unauthorized();
    if (session.userId !== user.id) throw forbidden('You can only read your own feed');
    const dateLimit = parseDateLimit(req.query);
    let rows = store.activity.activityOf(store.following.get(user.id) ?? []).filter(isFeedItem);
    if (dateLimit !== null) rows = rows.filter((r) => Date.parse(r.datetime_created) <= dateLimit);
    return json(page(rows, parsePaging(req.query)));
  });

  // HTML, no login, as the real site serves it.
  router.get('/messages/ajax/user-activity', (req) => {
    const name = req.query.get('user') ?? '';
    const user = name === '' ? undefined : store.userByName(name);
    if (!user) return html('<h1>Page not found</h1>\n', 404);
    const maxText = req.query.get('max');
    let max = DEFAULT_MAX;
    if (maxText !== null && maxText !== '') {
      if (!/^\d{1,9}$/.test(maxText)) throw badRequest('max must be a non-negative integer');
      max = Math.min(Number(maxText), DEFAULT_MAX);
    }
    return html(activityHtml(store.activity.userActivity(user.id).slice(0, max), links));
  });
}
