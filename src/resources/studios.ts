import { ApiError } from '../errors.js';
import { dateLimitFetcher } from '../http/date-limit-walk.js';
import { PagedList } from '../http/paging.js';
import type { StudioActivity } from '../records/activity-records.js';
import { tryParseJson } from '../records/json.js';
import type { Comment, Studio, StudioMember, StudioProject } from '../records/records.js';
import { assertObject, assertString, assertUsername, toDateLimit, toId } from '../records/validate.js';
import type {
  CommentPostOptions,
  CommentReport,
  CuratorAnswer,
  PostedComment,
  StudioEditAnswer,
  StudioProjectAnswer,
  StudioRole,
} from '../records/write-records.js';
import { deleteApiComment, postApiComment, reportApiComment } from './comment-writes.js';
import { CommentEvents, type CommentEventsOptions } from './new-row-events.js';
import { type ListOptions, Resource } from './resource.js';

/** The page size the API answers with at most, which `projectCount` reads. */
const COUNT_PAGE = 40;
/** The most projects `studios.projectCount` counts (a studio holds a few thousand at most). */
export const MAX_COUNTED_PROJECTS = 10_000_000;

/** Options of `studios.activity`. */
export interface StudioActivityOptions extends ListOptions {
  /** Start at this date: rows at or before it (default: the newest). */
  dateLimit?: string | Date;
}

/** Studios: `{api}/studios/<id>` and its lists. */
export class Studios extends Resource {
  /**
   * What happened in the studio, newest first (no login): projects added and removed, curators,
   * managers, edits. Pages by date as the web client does (WIRE.md §11.2), dropping the rows that
   * overlapping pages repeat; `limit`, `offset` and the walk count unique rows.
   */
  activity(id: number | string, options: StudioActivityOptions = {}): PagedList<StudioActivity> {
    const studioId = toId(id, 'studio id');
    const { dateLimit, limit, offset, ...walk } = options ?? {};
    const start = dateLimit === undefined ? undefined : toDateLimit(dateLimit);
    const fetch = dateLimitFetcher<StudioActivity>(
      (pageLimit, cursor, signal) =>
        this.session.apiGet<StudioActivity[]>(
          `/studios/${studioId}/activity/`,
          { limit: pageLimit, dateLimit: cursor },
          signal,
        ),
      start,
    );
    // One request at a time: each page starts where the one before ended.
    return new PagedList(
      fetch,
      { limit, offset },
      { ...walk, prefetch: 1 },
      { watchRateLimits: (listener) => this.session.http.watchRateLimits(listener) },
    );
  }

  /** One studio. */
  async get(id: number | string): Promise<Studio> {
    return this.session.apiGet<Studio>(`/studios/${toId(id, 'studio id')}`);
  }

  /** The projects added to the studio. */
  projects(id: number | string, options?: ListOptions): PagedList<StudioProject> {
    return this.list<StudioProject>(`/studios/${toId(id, 'studio id')}/projects`, options);
  }

  /**
   * How many projects the studio holds, exactly. The API pages them 40 at a time and states no
   * total, so this reads single pages at chosen offsets (as scratchattach's
   * `get_exact_project_count` does): doubling the offset until a page comes back short or empty,
   * then halving the gap between the last full page and the first empty one. About 2·log2(n/40)
   * requests, each through the request budget; `onRequest` is told of each. Each page is read at
   * its own moment: while projects are added or removed, the answer lies between the least and
   * the most the studio held during the search, and is not necessarily the latest count.
   * @throws RangeError when the studio holds more than {@link MAX_COUNTED_PROJECTS}
   */
  async projectCount(
    id: number | string,
    options: { signal?: AbortSignal; onRequest?: (offset: number, rows: number) => void } = {},
  ): Promise<number> {
    const studioId = toId(id, 'studio id');
    assertObject(options, 'options');
    if (options.onRequest !== undefined && typeof options.onRequest !== 'function')
      throw new TypeError('onRequest must be a function');
    const rowsAt = async (offset: number): Promise<number> => {
      const rows = await this.session.apiGet<unknown>(
        `/studios/${studioId}/projects`,
        { limit: COUNT_PAGE, offset },
        options.signal,
      );
      if (!Array.isArray(rows)) {
        throw new ApiError({
          status: 200,
          url: `${this.session.apiHost}/studios/${studioId}/projects`,
          method: 'GET',
          reason: `the answer at offset ${offset} is not a list of projects`,
        });
      }
      const n = Math.min(rows.length, COUNT_PAGE);
      options.onRequest?.(offset, n);
      return n;
    };
    // `full` is an offset whose page is full (40 rows); `empty` one whose page has none.
    let full = 0;
    let empty = COUNT_PAGE;
    let n = await rowsAt(0);
    if (n < COUNT_PAGE) return n;
    for (;;) {
      if (empty > MAX_COUNTED_PROJECTS) {
        throw new RangeError(
          `studio ${studioId} holds more than ${MAX_COUNTED_PROJECTS} projects; not counted`,
        );
      }
      n = await rowsAt(empty);
      if (n === 0) break;
      if (n < COUNT_PAGE) return empty + n;
      full = empty;
      empty *= 2;
    }
    while (empty - full > COUNT_PAGE) {
      const middle: number = full + Math.floor((empty - full) / 2);
      n = await rowsAt(middle);
      if (n === 0) empty = middle;
      else if (n < COUNT_PAGE) return middle + n;
      else full = middle;
    }
    // The page at `full` is full and the one at `empty` (at most 40 further) is empty.
    return full + COUNT_PAGE;
  }

  /** The studio's curators. */
  curators(id: number | string, options?: ListOptions): PagedList<StudioMember> {
    return this.list<StudioMember>(`/studios/${toId(id, 'studio id')}/curators`, options);
  }

  /** The studio's managers. */
  managers(id: number | string, options?: ListOptions): PagedList<StudioMember> {
    return this.list<StudioMember>(`/studios/${toId(id, 'studio id')}/managers`, options);
  }

  /** Top-level comments on the studio. */
  comments(id: number | string, options?: ListOptions): PagedList<Comment> {
    return this.list<Comment>(`/studios/${toId(id, 'studio id')}/comments`, options);
  }

  /**
   * New top-level comments of the studio as `comment` events, oldest first, by polling the
   * newest comments (as `messages.events()` polls the inbox): `start()`, `stop()`, `lastSeenId`.
   */
  commentEvents(id: number | string, options: CommentEventsOptions = {}): CommentEvents {
    const studioId = toId(id, 'studio id');
    return new CommentEvents(
      (limit, offset, signal) => this.comments(studioId, { limit, offset, signal }),
      options,
    );
  }

  /** One comment of the studio, top-level or reply, by its id. */
  async comment(id: number | string, commentId: number | string): Promise<Comment> {
    return this.session.apiGet<Comment>(
      `/studios/${toId(id, 'studio id')}/comments/${toId(commentId, 'comment id')}`,
    );
  }

  /** Replies to one comment of the studio. */
  replies(id: number | string, commentId: number | string, options?: ListOptions): PagedList<Comment> {
    const path = `/studios/${toId(id, 'studio id')}/comments/${toId(commentId, 'comment id')}/replies`;
    return this.list<Comment>(path, options);
  }

  // ---- writes of WIRE.md §11.4-11.6: comments, follows, curation (login) -------------------------

  /**
   * Posts a comment (or, with `parentId`, a reply) on the studio. Answers the comment without
   * `author.username`, as the service echoes it. A refusal throws {@link CommentRejectedError};
   * comments are never retried.
   */
  async postComment(
    id: number | string,
    content: string,
    options?: CommentPostOptions,
  ): Promise<PostedComment> {
    return postApiComment(this.session, 'studio', toId(id, 'studio id'), content, options);
  }

  /** Deletes a comment of the studio: your own, or any when you manage the studio. */
  async deleteComment(id: number | string, commentId: number | string): Promise<void> {
    return deleteApiComment(this.session, 'studio', toId(id, 'studio id'), commentId);
  }

  /** Reports a comment of the studio to the moderators. */
  async reportComment(id: number | string, commentId: number | string): Promise<CommentReport> {
    return reportApiComment(this.session, 'studio', toId(id, 'studio id'), commentId);
  }

  /** Follows the studio. A muted account gets a 403 {@link ApiError} whose body has `mute_status`. */
  async follow(id: number | string): Promise<void> {
    await this.#site(`users/bookmarkers/${toId(id, 'studio id')}/add`, 'studios.follow', this.#me());
  }

  /** Stops following the studio. */
  async unfollow(id: number | string): Promise<void> {
    await this.#site(`users/bookmarkers/${toId(id, 'studio id')}/remove`, 'studios.unfollow', this.#me());
  }

  /** Your role in the studio: `{ manager, curator, invited, following }`. */
  async myRole(id: number | string): Promise<StudioRole> {
    const studioId = toId(id, 'studio id');
    this.session.requireAuth('studios.myRole');
    return this.session.authedJson<StudioRole>(
      `${this.session.apiHost}/studios/${studioId}/users/${encodeURIComponent(this.#me())}`,
    );
  }

  /**
   * Adds a project to the studio (curators and managers; anyone when the studio is open).
   * 409 when it is in the studio already.
   */
  async addProject(id: number | string, projectId: number | string): Promise<StudioProjectAnswer> {
    return this.#project(id, projectId, 'POST');
  }

  /** Removes a project from the studio (managers, whoever added it, or its author). */
  async removeProject(id: number | string, projectId: number | string): Promise<StudioProjectAnswer> {
    return this.#project(id, projectId, 'DELETE');
  }

  /** Invites a user to curate the studio (managers). Refusals (already a curator, …) throw. */
  async inviteCurator(id: number | string, username: string): Promise<CuratorAnswer> {
    assertUsername(username);
    return this.#curators(id, 'invite_curator', username, 'studios.inviteCurator');
  }

  /** Accepts your invitation to curate the studio. */
  async acceptInvite(id: number | string): Promise<CuratorAnswer> {
    return this.#curators(id, 'add', this.#me(), 'studios.acceptInvite');
  }

  /** Makes a curator a manager (managers). 400 "too many owners" when the studio has its most. */
  async promote(id: number | string, username: string): Promise<CuratorAnswer> {
    assertUsername(username);
    return this.#curators(id, 'promote', username, 'studios.promote');
  }

  /** Removes a curator or manager from the studio (managers), or yourself (leaving). */
  async removeCurator(id: number | string, username: string): Promise<void> {
    assertUsername(username);
    // The site answers with an HTML fragment nobody reads (WIRE.md §11.6).
    await this.#site(`users/curators-in/${toId(id, 'studio id')}/remove`, 'studios.removeCurator', username);
  }

  /** Sets the studio's title (managers). A refusal (`inappropriate-generic`, …) throws. */
  async setTitle(id: number | string, title: string): Promise<StudioEditAnswer> {
    assertString(title, 'title');
    return this.#edit(id, { title });
  }

  /** Sets the studio's description (managers). */
  async setDescription(id: number | string, description: string): Promise<StudioEditAnswer> {
    assertString(description, 'description');
    return this.#edit(id, { description });
  }

  /** Lets anyone add projects to the studio (managers); its `open_to_all` becomes true. */
  async openToAll(id: number | string): Promise<void> {
    await this.#mark(id, 'open');
  }

  /** Lets only curators and managers add projects to the studio (managers); `open_to_all` becomes false. */
  async closeToAll(id: number | string): Promise<void> {
    await this.#mark(id, 'closed');
  }

  /**
   * @deprecated Use {@link openToAll} (the old name read like a lifecycle call); removed in the
   * next release.
   */
  async open(id: number | string): Promise<void> {
    await this.openToAll(id);
  }

  /**
   * @deprecated Use {@link closeToAll} (the old name read like a lifecycle call); removed in the
   * next release.
   */
  async close(id: number | string): Promise<void> {
    await this.closeToAll(id);
  }

  #me(): string {
    this.session.requireAuth();
    return this.session.username!;
  }

  /** `PUT {site}/site-api/<path>/?usernames=<name>` (WIRE.md §11.5-11.6). */
  async #site(path: string, what: string, username: string) {
    this.session.requireAuth(what);
    return this.session.authedFetch(`${this.session.hosts.site}/site-api/${path}/`, {
      method: 'PUT',
      query: { usernames: username },
    });
  }

  async #curators(
    id: number | string,
    action: string,
    username: string,
    what: string,
  ): Promise<CuratorAnswer> {
    const studioId = toId(id, 'studio id');
    const answer = await this.#site(`users/curators-in/${studioId}/${action}`, what, username);
    const body = tryParseJson(new TextDecoder().decode(answer.bytes)) as CuratorAnswer | undefined;
    if (body?.status === 'error') {
      throw new ApiError({
        status: answer.status,
        url: answer.url,
        method: 'PUT',
        body,
        reason: typeof body.message === 'string' && body.message ? body.message : 'refused',
      });
    }
    return body && typeof body === 'object' ? body : {};
  }

  async #project(
    id: number | string,
    projectId: number | string,
    method: 'POST' | 'DELETE',
  ): Promise<StudioProjectAnswer> {
    const studioId = toId(id, 'studio id');
    const pid = toId(projectId, 'project id');
    this.session.requireAuth(method === 'POST' ? 'studios.addProject' : 'studios.removeProject');
    return this.session.authedJson<StudioProjectAnswer>(
      `${this.session.apiHost}/studios/${studioId}/project/${pid}`,
      { method },
    );
  }

  async #edit(
    id: number | string,
    fields: { title?: string; description?: string },
  ): Promise<StudioEditAnswer> {
    const studioId = toId(id, 'studio id');
    this.session.requireAuth(fields.title === undefined ? 'studios.setDescription' : 'studios.setTitle');
    const url = `${this.session.hosts.site}/site-api/galleries/all/${studioId}/`;
    const answer = await this.session.authedJson<StudioEditAnswer>(url, {
      method: 'PUT',
      json: fields,
    });
    // Refusals come as HTTP 200 with `errors` (WIRE.md §11.6).
    if (Array.isArray(answer?.errors) && answer.errors.length > 0) {
      throw new ApiError({ status: 200, url, method: 'PUT', body: answer, reason: String(answer.errors[0]) });
    }
    return answer ?? {};
  }

  async #mark(id: number | string, state: 'open' | 'closed'): Promise<void> {
    const studioId = toId(id, 'studio id');
    this.session.requireAuth(state === 'open' ? 'studios.openToAll' : 'studios.closeToAll');
    await this.session.authedFetch(
      `${this.session.hosts.site}/site-api/galleries/${studioId}/mark/${state}/`,
      {
        method: 'PUT',
      },
    );
  }
}
