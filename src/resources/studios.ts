import type { PagedList } from '../paging.js';
import type { Comment, Studio, StudioMember, StudioProject } from '../records.js';
import { toId } from '../validate.js';
import { type ListOptions, Resource } from './resource.js';

/** Studios: `{api}/studios/<id>` and its lists. */
export class Studios extends Resource {
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
