/**
 * The sandbox's memory of what happened: each user's messages, each studio's activity, each
 * user's own activity (their profile's activity and, for their followers, "what's happening").
 * Rows are kept in their wire shapes (WIRE.md §11.1-11.2), with titles and names as they were
 * when it happened, as the real service keeps them. Writes record here through
 * `activity-events.ts`; the routes in `routes/activity.ts` and `routes/messages.ts` read here.
 */
import type {
  ActorFields,
  FeedDetail,
  Message,
  MessageDetail,
  StudioActivity,
  StudioActivityDetail,
} from '../../records/activity-records.js';

/** The type-specific part of a user's own activity: the feed's types, plus two the profile shows. */
export type UserActivityDetail =
  | FeedDetail
  | {
      type: 'addprojecttostudio';
      project_id: number;
      title: string;
      gallery_id: number;
      gallery_title: string;
    }
  | { type: 'userjoin' };

/** One thing a user did, as the sandbox keeps it (a feed row, or one of the profile-only kinds). */
export type UserActivityRecord = ActorFields & { id: number } & UserActivityDetail;

/** Who did it and when (ms since the epoch; default now). */
export interface Actor {
  id: number;
  username: string;
}

/** Most rows kept per list: the oldest go first, as the real service keeps about a year. */
const ACTIVITY_KEEP = 5_000;

/**
 * Inserts `row` into a list kept newest first (by date, then by id), and trims the list. Seeded
 * history arrives in time order, live writes at "now": both usually land at the front.
 */
function insertNewestFirst<T extends { datetime_created: string; id: number | string }>(
  list: T[],
  row: T,
  order: number,
  orders: WeakMap<object, number>,
): void {
  orders.set(row, order);
  const at = Date.parse(row.datetime_created);
  let i = 0;
  while (i < list.length) {
    const other = list[i]!;
    const otherAt = Date.parse(other.datetime_created);
    if (otherAt < at || (otherAt === at && (orders.get(other) ?? 0) < order)) break;
    i++;
  }
  list.splice(i, 0, row);
  if (list.length > ACTIVITY_KEEP) list.length = ACTIVITY_KEEP;
}

/** ISO-8601 with milliseconds and `Z`, as the activity endpoints write dates. */
const isoMs = (ms: number): string => new Date(ms).toISOString();

/** All messages and activity of one sandbox. */
export class ActivityLog {
  /** Messages of each recipient (user id), newest first. */
  readonly messages = new Map<number, Message[]>();
  /** Per recipient: the id of the newest message when they last cleared (unread = newer ones). */
  readonly clearedUpTo = new Map<number, number>();
  /** Activity of each studio, newest first. */
  readonly studios = new Map<number, StudioActivity[]>();
  /** What each user did (by actor id), newest first. */
  readonly users = new Map<number, UserActivityRecord[]>();

  #messageId = 40_000_000;
  #studioSerial = 9_000_000;
  #activityId = 70_000_000;
  #order = 0;
  readonly #orders = new WeakMap<object, number>();

  /** Adds a message to `recipientId`'s list and answers it. */
  addMessage(recipientId: number, actor: Actor, detail: MessageDetail, at = Date.now()): Message {
    const row = { id: ++this.#messageId, ...base(actor, at), ...detail } as Message;
    this.#insert(this.messages, recipientId, row);
    return row;
  }

  /** Records a studio's activity row (its id is `"<type>-<n>"`). */
  addStudioActivity(
    studioId: number,
    actor: Actor,
    detail: StudioActivityDetail,
    at = Date.now(),
  ): StudioActivity {
    const row = {
      id: `${detail.type}-${++this.#studioSerial}`,
      ...base(actor, at),
      ...detail,
    } as StudioActivity;
    this.#insert(this.studios, studioId, row);
    return row;
  }

  /** Records something `actor` did (their profile's activity; their followers' feed). */
  addUserActivity(actor: Actor, detail: UserActivityDetail, at = Date.now()): UserActivityRecord {
    const row = { id: ++this.#activityId, ...base(actor, at), ...detail } as UserActivityRecord;
    this.#insert(this.users, actor.id, row);
    return row;
  }

  /** A user's messages, newest first. */
  messagesOf(userId: number): readonly Message[] {
    return this.messages.get(userId) ?? [];
  }

  /** How many of a user's messages are unread (newer than their last clear). */
  unreadCount(userId: number): number {
    const cleared = this.clearedUpTo.get(userId) ?? 0;
    let count = 0;
    for (const message of this.messagesOf(userId)) if (message.id > cleared) count++;
    return count;
  }

  /** Marks every message of the user as read. */
  clear(userId: number): void {
    const newest = this.messagesOf(userId).reduce((max, m) => Math.max(max, m.id), 0);
    this.clearedUpTo.set(userId, Math.max(newest, this.clearedUpTo.get(userId) ?? 0));
  }

  /** A studio's activity, newest first. */
  studioActivity(studioId: number): readonly StudioActivity[] {
    return this.studios.get(studioId) ?? [];
  }

  /** What a user did, newest first. */
  userActivity(userId: number): readonly UserActivityRecord[] {
    return this.users.get(userId) ?? [];
  }

  /** What the given users did, merged newest first (the "what's happening" feed). */
  activityOf(userIds: readonly number[]): UserActivityRecord[] {
    const rows = userIds.flatMap((id) => this.userActivity(id));
    return rows.sort(
      (a, b) =>
        Date.parse(b.datetime_created) - Date.parse(a.datetime_created) ||
        (this.#orders.get(b) ?? 0) - (this.#orders.get(a) ?? 0),
    );
  }

  #insert<T extends { datetime_created: string; id: number | string }>(
    lists: Map<number, T[]>,
    key: number,
    row: T,
  ): void {
    let list = lists.get(key);
    if (!list) {
      list = [];
      lists.set(key, list);
    }
    insertNewestFirst(list, row, ++this.#order, this.#orders);
  }
}

function base(actor: Actor, at: number): ActorFields {
  return { datetime_created: isoMs(at), actor_id: actor.id, actor_username: actor.username };
}
