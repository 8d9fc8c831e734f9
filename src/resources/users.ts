import type { PagedList } from '../paging.js';
import type { Project, User, UserProjectRow } from '../records.js';
import { assertUsername } from '../validate.js';
import { type ListOptions, Resource } from './resource.js';

/** Users: `{api}/users/<username>` and its lists. */
export class Users extends Resource {
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
