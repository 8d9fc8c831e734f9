import type { ClientCore } from '../http/client-core.js';
import type { PagedList } from '../http/paging.js';
import {
  MESSAGE_FILTERS,
  type Message,
  type MessageCount,
  type MessageFilter,
} from '../records/activity-records.js';
import { describe } from '../records/validate.js';
import { MessageEvents, type MessageEventsOptions } from './new-row-events.js';
import { apiList, type ListOptions } from './resource.js';

/** Options of `messages.list`. */
export interface MessageListOptions extends ListOptions {
  /** Only one tab of the messages page: `comments`, `projects`, `studios` or `forums`. */
  filter?: MessageFilter;
}

/**
 * The logged-in user's messages (WIRE.md §11.1): `{api}/users/<me>/messages` and the site's
 * clear. Every call needs a login.
 */
export class Messages {
  readonly #session: ClientCore;

  constructor(session: ClientCore) {
    this.#session = session;
  }

  /**
   * The messages, newest first, typed by `type` (narrow on it to read each kind's fields).
   * Reading them does not mark them read: {@link clear} does.
   */
  list(options: MessageListOptions = {}): PagedList<Message> {
    const { filter, ...rest } = options ?? {};
    if (filter !== undefined && !MESSAGE_FILTERS.includes(filter)) {
      throw new RangeError(`filter must be one of ${MESSAGE_FILTERS.join(', ')}, got ${describe(filter)}`);
    }
    const me = this.#me('messages.list');
    return apiList<Message>(this.#session, `/users/${encodeURIComponent(me)}/messages`, rest, { filter });
  }

  /** How many messages are unread. */
  async count(): Promise<number> {
    const me = this.#me('messages.count');
    const answer = await this.#session.apiGet<MessageCount>(
      `/users/${encodeURIComponent(me)}/messages/count`,
    );
    return answer.count;
  }

  /** Marks every message read (the count drops to 0), as the messages page does after loading. */
  async clear(): Promise<void> {
    this.#me('messages.clear');
    await this.#session.authedJson<{ success?: boolean }>(
      `${this.#session.hosts.site}/site-api/messages/messages-clear/`,
      { method: 'POST' },
    );
  }

  /**
   * A poller that emits `message` once for each new message, oldest first. Give `lastSeenId` (the
   * `lastSeenId` of an earlier poller) to hear what came while it was not running; without it the
   * first poll only marks what is there. Call `start()`; `stop()` ends it.
   */
  events(options: MessageEventsOptions = {}): MessageEvents {
    this.#me('messages.events');
    return new MessageEvents((limit, offset, signal) => this.list({ limit, offset, signal }), options);
  }

  /** The logged-in user's name; throws `LoginRequiredError` without a login. */
  #me(what: string): string {
    this.#session.requireAuth(what);
    return this.#session.username!;
  }
}
