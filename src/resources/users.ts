import { ApiError } from '../errors.js';
import { readHtmlAnswer } from '../http/html-answer.js';
import type { HttpAnswer } from '../http/http.js';
import { numberedPages } from '../http/numbered-pages.js';
import { PagedList } from '../http/paging.js';
import type { MessageCount, UserActivity } from '../records/activity-records.js';
import { parseCreditsBundle } from '../records/credits-bundle.js';
import { parseProfileComments } from '../records/profile-comments.js';
import { parseLovesPage, parseProfileCount, parseProfileGroup } from '../records/profile-pages-html.js';
import type {
  FeaturedLabel,
  LovedProject,
  ProfileDetails,
  ProfileTotals,
  ScratchTeamMember,
  UserRank,
} from '../records/profile-records.js';
import type { Project, Studio, User, UserProjectRow } from '../records/records.js';
import { parseUserActivity } from '../records/user-activity-html.js';
import { assertInteger, assertObject, assertUsername } from '../records/validate.js';
import type { CommentPostOptions, ProfileComment } from '../records/write-records.js';
import { RecordList } from '../rows/record-list.js';
import { postProfileComment, profileCommentAction } from './comment-writes.js';
import { CommentEvents, type CommentEventsOptions } from './new-row-events.js';
import { readProfileDetails, setFeaturedProject, setProfileText } from './profile-writes.js';
import { type ListOptions, Resource } from './resource.js';

/** Options of `users.activity`. */
export interface UserActivityOptions {
  /** Most items read (default 100, at most 10,000). */
  max?: number;
  signal?: AbortSignal;
}

/** Loved projects on one page of `/projects/all/<name>/loves/`. */
export const LOVES_PER_PAGE = 40;

/** The profile pages whose headings state a total, and the heading's words (scapi's `get_*_count`). */
const TOTAL_PAGES = [
  ['followers', 'followers', 'Followers'],
  ['following', 'following', 'Following'],
  ['projects', 'projects', 'Shared Projects'],
  ['studios', 'studios', 'Studios I Curate'],
  ['favorites', 'favorites', 'Favorites'],
] as const;

/** Users: `{api}/users/<username>` and its lists. */
export class Users extends Resource {
  /**
   * A profile's totals: followers, following, shared projects, studios, favorites and loves, as
   * the profile's pages state them in their headings ("Followers (1234)"), under the name as the
   * site spells it (names are matched in any case). Seven reads, one after another, each through
   * the request budget (no login): the user's record, then six pages.
   * @throws ApiError (404) for an unknown user; naming what was missing when a page cannot be read
   */
  async totals(username: string, options: { signal?: AbortSignal } = {}): Promise<ProfileTotals> {
    assertUsername(username);
    assertObject(options, 'options');
    // The site's spelling, so that "Alice" and "alice" are one row of a table, as rank answers.
    const user = await this.#user(username, options.signal);
    const name = encodeURIComponent(user.username);
    const counts: Partial<Record<(typeof TOTAL_PAGES)[number][0], number>> = {};
    for (const [key, path, label] of TOTAL_PAGES) {
      const answer = await this.#page(`/users/${name}/${path}/`, undefined, options.signal);
      counts[key] = readHtmlAnswer(this.session, answer, 'GET', (html) => parseProfileCount(html, label));
    }
    const loves = await this.#page(`/projects/all/${name}/loves/`, undefined, options.signal);
    return {
      username: user.username,
      followers: counts.followers!,
      following: counts.following!,
      projects: counts.projects!,
      studios: counts.studios!,
      favorites: counts.favorites!,
      loves: readHtmlAnswer(this.session, loves, 'GET', (html) => parseLovesPage(html).total),
    };
  }

  /**
   * The Scratch Team, as the site's credits page lists it: username, id and first name (read
   * from the page's script `/js/credits.bundle.js`, as scratchattach's `scratch_team_members`;
   * one request through the budget, no login).
   * @throws ApiError naming what was missing when the script holds no team list
   */
  async scratchTeam(options: { signal?: AbortSignal } = {}): Promise<ScratchTeamMember[]> {
    assertObject(options, 'options');
    const answer = await this.#page('/js/credits.bundle.js', undefined, options.signal);
    return readHtmlAnswer(this.session, answer, 'GET', parseCreditsBundle);
  }

  /**
   * Where the user stands: New Scratcher, Scratcher or Scratch Team (the profile page's group,
   * then the API's `scratchteam`, as scratchattach's `User.rank`), and whether the profile shows
   * the membership badge (the API's `profile.membership_avatar_badge`, `null` when absent). Two
   * requests through the budget (no login).
   * @throws ApiError (404) for an unknown user; naming what was missing when the page lacks its group
   */
  async rank(username: string, options: { signal?: AbortSignal } = {}): Promise<UserRank> {
    assertUsername(username);
    assertObject(options, 'options');
    const user = await this.#user(username, options.signal);
    const page = await this.#page(`/users/${encodeURIComponent(username)}/`, undefined, options.signal);
    const group = readHtmlAnswer(this.session, page, 'GET', parseProfileGroup);
    const badge = (user.profile as { membership_avatar_badge?: unknown }).membership_avatar_badge;
    return {
      username: user.username,
      rank: /^new scratcher$/i.test(group)
        ? 'new-scratcher'
        : user.scratchteam
          ? 'scratch-team'
          : 'scratcher',
      membership: typeof badge === 'boolean' ? badge : null,
    };
  }

  /**
   * The projects the user loves, newest first, 40 a page (`/projects/all/<name>/loves/?page=N`,
   * an HTML list: id, title, author): await it for the first 40, iterate it for every page.
   */
  loves(username: string, options: ListOptions = {}): PagedList<LovedProject> {
    assertUsername(username);
    assertObject(options, 'options');
    const { limit, offset, ...walk } = options;
    const path = `/projects/all/${encodeURIComponent(username)}/loves/`;
    const read = async (page: number, signal?: AbortSignal): Promise<LovedProject[]> => {
      let answer: HttpAnswer;
      try {
        answer = await this.#page(path, page, signal);
      } catch (error) {
        // Past the last page the site answers 404 (Django's paginator): the list has ended.
        if (error instanceof ApiError && error.status === 404 && page > 1) return [];
        throw error;
      }
      return readHtmlAnswer(this.session, answer, 'GET', (html) => parseLovesPage(html).projects);
    };
    return new PagedList<LovedProject>(numberedPages(LOVES_PER_PAGE, read), { limit, offset }, walk, {
      pageSize: LOVES_PER_PAGE,
      watchRateLimits: (listener) => this.session.http.watchRateLimits(listener),
    });
  }

  /** The user's record (`get`, with a signal). */
  #user(username: string, signal?: AbortSignal): Promise<User> {
    return this.session.apiGet<User>(`/users/${encodeURIComponent(username)}`, undefined, signal);
  }

  /** A page of the site (HTML), through the budget. */
  #page(path: string, page: number | undefined, signal?: AbortSignal): Promise<HttpAnswer> {
    return this.session.http.request(`${this.session.hosts.site}${path}`, {
      query: page === undefined ? undefined : { page },
      signal,
    });
  }

  /** How many unread messages the user has (public, no login). */
  /**
   * The studios the user curates, hosts or manages (`{api}/users/<name>/studios/curate`, as
   * scratchattach's `User.studios` reads them), 40 a page.
   */
  curatedStudios(username: string, options?: ListOptions): PagedList<Studio> {
    assertUsername(username);
    return this.list<Studio>(`/users/${encodeURIComponent(username)}/studios/curate`, options);
  }

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
    const rows = readHtmlAnswer(this.session, answer, 'GET', parseUserActivity).slice(0, max);
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

  // ---- writes of WIRE.md §11.4-11.5: profile comments, follows (login) ---------------------------

  /**
   * Posts a comment (or, with `parentId`, a reply) on the user's profile. The site answers with
   * HTML, read here into a {@link ProfileComment}. A refusal throws {@link CommentRejectedError};
   * comments are never retried.
   */
  async postComment(
    username: string,
    content: string,
    options?: CommentPostOptions,
  ): Promise<ProfileComment> {
    assertUsername(username);
    return postProfileComment(this.session, username, content, options);
  }

  /**
   * One page of the comments on the user's profile (40 threads a page, newest first), read from
   * the HTML the site serves: each top-level comment with its `replies`. Past the last page: `[]`.
   */
  async comments(
    username: string,
    options: { page?: number; signal?: AbortSignal } = {},
  ): Promise<ProfileComment[]> {
    assertUsername(username);
    const page = assertInteger(options?.page ?? 1, 'page', 1, 1_000);
    const url = `${this.session.hosts.site}/site-api/comments/user/${encodeURIComponent(username)}/`;
    try {
      const answer = await this.session.http.request(url, { query: { page }, signal: options?.signal });
      return readHtmlAnswer(this.session, answer, 'GET', (html) => parseProfileComments(html, answer.url));
    } catch (error) {
      // The site answers a page past the last one with 404.
      if (error instanceof ApiError && error.status === 404 && page > 1) return [];
      throw error;
    }
  }

  /**
   * New top-level comments of a profile as `comment` events, oldest first, by polling its first
   * page of comments (HTML; one request a poll): `start()`, `stop()`, `lastSeenId`.
   */
  commentEvents(username: string, options: CommentEventsOptions = {}): CommentEvents<ProfileComment> {
    assertUsername(username);
    return new CommentEvents<ProfileComment>(async (_limit, offset, signal) => {
      // The profile's comments come a page at a time, not by offset: the poller reads the first.
      if (offset > 0) return [];
      // The poll's signal: `stop()` abandons the request under way, as the other watchers' do.
      return (await this.comments(username, { signal })).filter((c) => c.parent_id === null);
    }, options);
  }

  /** Deletes a comment of the profile: your own, or any on your own profile. */
  async deleteComment(username: string, commentId: number | string): Promise<void> {
    assertUsername(username);
    return profileCommentAction(this.session, username, commentId, 'del');
  }

  /** Reports a comment of the profile to the moderators. */
  async reportComment(username: string, commentId: number | string): Promise<void> {
    assertUsername(username);
    return profileCommentAction(this.session, username, commentId, 'rep');
  }

  /** Follows the user. */
  async follow(username: string): Promise<void> {
    await this.#followers(username, 'add');
  }

  /** Stops following the user. */
  async unfollow(username: string): Promise<void> {
    await this.#followers(username, 'remove');
  }

  // ---- profile edits of WIRE.md §12.5 (login) -----------------------------------------------------

  /**
   * A profile's featured project with its label, as the site's profile page reads it (no login).
   * "About me" and "What I'm working on" are in `get(username).profile`.
   */
  async details(username: string): Promise<ProfileDetails> {
    return readProfileDetails(this.session, username);
  }

  /** Sets your "About me" (at most 200 characters). */
  async setAbout(text: string): Promise<void> {
    return setProfileText(this.session, 'bio', text);
  }

  /** Sets your "What I'm working on" (at most 200 characters). */
  async setWorkingOn(text: string): Promise<void> {
    return setProfileText(this.session, 'status', text);
  }

  /** Features one of your shared projects on your profile, under a named label. */
  async setFeatured(projectId: number | string, label?: FeaturedLabel): Promise<void> {
    return setFeaturedProject(this.session, projectId, label);
  }

  /** `PUT {site}/site-api/users/followers/<target>/<add|remove>/?usernames=<me>` (WIRE.md §11.5). */
  async #followers(username: string, action: 'add' | 'remove'): Promise<void> {
    assertUsername(username);
    this.session.requireAuth(action === 'add' ? 'users.follow' : 'users.unfollow');
    await this.session.authedFetch(
      `${this.session.hosts.site}/site-api/users/followers/${encodeURIComponent(username)}/${action}/`,
      { method: 'PUT', query: { usernames: this.session.username! } },
    );
  }

  #list<T>(username: string, what: string, options?: ListOptions, owner?: string): PagedList<T> {
    assertUsername(username);
    return this.list<T>(`/users/${encodeURIComponent(username)}/${what}`, options, {}, { owner });
  }
}
