import type { Message, MessageFilter, MessageType } from '../../records/activity-records.js';
import type { SandboxContext } from '../context.js';
import { badRequest, forbidden, notFound, unauthorized } from '../errors.js';
import { json, page, parsePaging } from '../http-utils.js';
import type { Incoming, Router } from '../router.js';
import { reader, writer } from '../rules/auth.js';
import type { UserRow } from '../state/store.js';
import { parseDateLimit } from './date-limit.js';

/** The types each tab of the web client's messages page shows (`filter`). */
const FILTERS: ReadonlyMap<string, ReadonlySet<MessageType>> = new Map<MessageFilter, Set<MessageType>>([
  ['comments', new Set(['addcomment'])],
  ['projects', new Set(['loveproject', 'favoriteproject', 'remixproject'])],
  ['studios', new Set(['curatorinvite', 'becomeownerstudio', 'becomehoststudio', 'studioactivity'])],
  ['forums', new Set(['forumpost'])],
]);

/** A user's messages, their count and clearing them (WIRE.md §11.1). */
export function messageRoutes(router: Router, ctx: SandboxContext): void {
  const { store, sessions } = ctx;

  const userParam = (req: Incoming): UserRow => {
    const user = store.userByName(req.params.username ?? '');
    if (!user) throw notFound();
    return user;
  };

  /** The user of the path, who must be the one asking (by X-Token or session cookie). */
  const ownUser = (req: Incoming): UserRow => {
    const user = userParam(req);
    const session = reader(req, sessions);
    if (!session) throw unauthorized();
    if (session.userId !== user.id) throw forbidden('You can only read your own messages');
    return user;
  };

  // The public count: no login.
  router.get('/api/users/:username/messages/count', (req) =>
    json({ count: store.activity.unreadCount(userParam(req).id) }),
  );

  router.get('/api/users/:username/messages', (req) => {
    const user = ownUser(req);
    const filterText = req.query.get('filter');
    let rows: readonly Message[] = store.activity.messagesOf(user.id);
    if (filterText !== null && filterText !== '') {
      const types = FILTERS.get(filterText);
      if (!types) throw badRequest(`filter must be one of ${[...FILTERS.keys()].join(', ')}`);
      rows = rows.filter((m) => types.has(m.type));
    }
    const dateLimit = parseDateLimit(req.query);
    if (dateLimit !== null) rows = rows.filter((m) => Date.parse(m.datetime_created) <= dateLimit);
    // Listing leaves the count as it is: the web client clears after loading.
    return json(page(rows, parsePaging(req.query)));
  });

  // Admin alerts: the sandbox's staff sends none.
  router.get('/api/users/:username/messages/admin', (req) => {
    ownUser(req);
    return json([]);
  });

  // The site's count for the logged-in user (cookies).
  router.get('/messages/ajax/get-message-count', (req) => {
    const session = reader(req, sessions);
    if (!session) throw unauthorized();
    return json({ msg_count: store.activity.unreadCount(session.userId) });
  });

  router.post('/site-api/messages/messages-clear', (req) => {
    const session = writer(req, sessions, 'if-present');
    store.activity.clear(session.userId);
    return json({ success: true });
  });
}
