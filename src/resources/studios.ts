import type { StudioActivity } from '../activity-records.js';
import { dateLimitFetcher } from '../date-limit-walk.js';
import { PagedList } from '../paging.js';
import type { Comment, Studio, StudioMember, StudioProject } from '../records.js';
import { toDateLimit, toId } from '../validate.js';
import { type ListOptions, Resource } from './resource.js';

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
    return new PagedList(fetch, { limit, offset }, { ...walk, prefetch: 1 });
  }

  /** One studio. */
  async get(id: number | string): Promise<Studio> {
    return this.session.apiGet<Studio>(`/studios/${toId(id, 'studio id')}`);
  }

  /** The projects added to the studio. */
  projects(id: number | string, options?: ListOptions): PagedList<StudioProject> {
    return this.list<StudioProject>(`/studios/${toId(id, 'studio id')}/projects`, options);
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
}
