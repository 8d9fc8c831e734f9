import type { MessageCount, UserActivity } from '../activity-records.js';
import type { PagedList } from '../paging.js';
import { RecordList } from '../record-list.js';
import type { Project, User, UserProjectRow } from '../records.js';
import { parseUserActivity } from '../user-activity-html.js';
import { assertInteger, assertUsername } from '../validate.js';
import { type ListOptions, Resource } from './resource.js';

/** Options of `users.activity`. */
export interface UserActivityOptions {
  /** Most items read (default 100, at most 10,000). */
  max?: number;
  signal?: AbortSignal;
}

/** Users: `{api}/users/<username>` and its lists. */
export class Users extends Resource {
  /** How many unread messages the user has (public, no login). */
  async messageCount(username: string): Promise<number> {
    assertUsername(username);
    const answer = await this.session.apiGet<MessageCount>(
      `/users/${encodeURIComponent(username)}/messages/count`,
    );
    return answer.count;
  }

  /**
   * What the user did lately (their profile's activity: loves, favorites, shares, follows,
   * studios), newest first, no login. The service answers it only as HTML, which is parsed here;
   * it gives relative times (`2 days ago`), so the dates are estimates, as precise as the page.
   */
  async activity(username: string, options: UserActivityOptions = {}): Promise<RecordList<UserActivity>> {
    assertUsername(username);
    const max = options?.max === undefined ? 100 : assertInteger(options.max, 'max', 1, 10_000);
    const answer = await this.session.http.request(
      `${this.session.hosts.site}/messages/ajax/user-activity/`,
      {
        query: { user: username, max },
        signal: options?.signal,
      },
    );
    const rows = parseUserActivity(new TextDecoder().decode(answer.bytes)).slice(0, max);
    return RecordList.fromWindow(rows, { offset: 0, more: rows.length >= max });
  }

  /** One user's profile. 404 → {@link ApiError} with `status` 404. */
  async get(username: string): Promise<User> {
    assertUsername(username);
    return this.session.apiGet<User>(`/users/${encodeURIComponent(username)}`);
  }

  /** Who follows the user. `await` for one window, `for await` for all. */
  followers(username: string, options?: ListOptions): PagedList<User> {
    return this.#list<User>(username, 'followers', options);
  }

  /** Whom the user follows. */
  following(username: string, options?: ListOptions): PagedList<User> {
    return this.#list<User>(username, 'following', options);
  }

  /** The user's favorite projects. */
  favorites(username: string, options?: ListOptions): PagedList<Project> {
    return this.#list<Project>(username, 'favorites', options);
  }

  /**
   * The user's shared projects. Rows are thinner than single records (WIRE.md §10): their author
   * has no `username`, so the list remembers whose it is and its tables and exports show it.
   */
  projects(username: string, options?: ListOptions): PagedList<UserProjectRow> {
    return this.#list<UserProjectRow>(username, 'projects', options, username);
  }

  #list<T>(username: string, what: string, options?: ListOptions, owner?: string): PagedList<T> {
    assertUsername(username);
    return this.list<T>(`/users/${encodeURIComponent(username)}/${what}`, options, {}, { owner });
  }
}
