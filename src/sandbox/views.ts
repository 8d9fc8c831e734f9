import type {
  Comment,
  FeaturedRow,
  NewsItem,
  Project,
  ProjectAuthor,
  SessionInfo,
  Studio,
  StudioProject,
  User,
} from '../records.js';
import type { Links } from './links.js';
import type { Session } from './sessions.js';
import type { CommentRow, NewsRow, ProjectRow, Store, StudioRow, UserRow } from './store.js';

/**
 * Builds the wire records of `records.ts` from store rows, field for field as the real service
 * sends them. Built at answer time, so they always reflect the latest writes.
 */
export class Views {
  constructor(
    private readonly store: Store,
    private readonly links: Links,
  ) {}

  private owner(userId: number): UserRow {
    const user = this.store.users.get(userId);
    if (!user) throw new Error(`dangling user id ${userId}`);
    return user;
  }

  user(row: UserRow): User {
    return {
      id: row.id,
      username: row.username,
      scratchteam: row.scratchteam,
      history: { joined: row.joined },
      profile: {
        id: row.profileId,
        status: row.status,
        bio: row.bio,
        country: row.country,
        images: this.links.userImages(row.id),
      },
    };
  }

  /** The author block of a project: the real API leaves `profile.id` null there. */
  author(row: UserRow): ProjectAuthor {
    return {
      id: row.id,
      username: row.username,
      scratchteam: row.scratchteam,
      history: { joined: row.joined },
      profile: { id: null, images: this.links.userImages(row.id) },
    };
  }

  project(row: ProjectRow, projectToken?: string): Project {
    const shared = row.shared !== null;
    const record: Project = {
      id: row.id,
      title: row.title,
      description: row.description,
      instructions: row.instructions,
      visibility: 'visible',
      public: shared,
      comments_allowed: row.commentsAllowed,
      is_published: shared,
      author: this.author(this.owner(row.ownerId)),
      image: this.links.projectImage(row.id),
      images: this.links.projectImages(row.id),
      history: { created: row.created, modified: row.modified, shared: row.shared },
      stats: {
        views: row.views,
        loves: row.loves,
        favorites: row.favorites,
        remixes: this.store.remixesOf(row.id).length,
      },
      remix: { parent: row.parent, root: row.root },
    };
    if (projectToken !== undefined) record.project_token = projectToken;
    return record;
  }

  comment(row: CommentRow, all: readonly CommentRow[]): Comment {
    const author = this.owner(row.authorId);
    return {
      id: row.id,
      parent_id: row.parentId,
      commentee_id: row.commenteeId,
      content: row.content,
      datetime_created: row.created,
      datetime_modified: row.created,
      visibility: 'visible',
      author: {
        id: author.id,
        username: author.username,
        scratchteam: author.scratchteam,
        image: this.links.userImage(author.id, '60x60'),
      },
      reply_count: row.parentId === null ? this.store.repliesTo(all, row.id).length : 0,
    };
  }

  studio(row: StudioRow): Studio {
    return {
      id: row.id,
      title: row.title,
      host: row.hostId,
      description: row.description,
      visibility: 'visible',
      public: true,
      open_to_all: row.openToAll,
      comments_allowed: row.commentsAllowed,
      image: this.links.studioImage(row.id),
      history: { created: row.created, modified: row.modified },
      stats: {
        comments: (this.store.studioComments.get(row.id) ?? []).length,
        followers: row.followers,
        managers: row.managers.length,
        projects: this.studioProjects(row).length,
      },
    };
  }

  /** The shared projects of a studio, most recently added first. */
  studioProjects(row: StudioRow): StudioProject[] {
    const out: StudioProject[] = [];
    for (const entry of [...row.projects].reverse()) {
      const project = this.store.projects.get(entry.projectId);
      if (!project || project.shared === null) continue;
      const creator = this.owner(project.ownerId);
      out.push({
        id: project.id,
        title: project.title,
        image: this.links.projectImage(project.id, '480x360'),
        creator_id: creator.id,
        username: creator.username,
        avatar: this.links.userImages(creator.id),
        actor_id: entry.actorId,
      });
    }
    return out;
  }

  news(row: NewsRow): NewsItem {
    return {
      id: row.id,
      stamp: row.stamp,
      headline: row.headline,
      url: this.links.page(`/news#${row.id}`),
      image: this.links.newsImage(row.id),
      copy: row.copy,
    };
  }

  featuredProject(row: ProjectRow, extra: Record<string, unknown> = {}): FeaturedRow {
    return {
      thumbnail_url: this.links.projectImage(row.id, '144x108'),
      title: row.title,
      creator: this.owner(row.ownerId).username,
      type: 'project',
      id: row.id,
      love_count: row.loves,
      ...extra,
    };
  }

  featuredStudio(row: StudioRow): FeaturedRow {
    return { thumbnail_url: this.links.studioImage(row.id), title: row.title, type: 'gallery', id: row.id };
  }

  /** `GET /session/` for a live session. */
  sessionInfo(session: Session): SessionInfo {
    const user = this.owner(session.userId);
    return {
      user: {
        id: user.id,
        banned: false,
        username: user.username,
        token: session.token,
        thumbnailUrl: this.links.userImage(user.id, '32x32'),
        dateJoined: user.joined,
        email: `${user.username.toLowerCase()}@example.invalid`,
      },
      permissions: {
        admin: false,
        scratcher: true,
        new_scratcher: false,
        social: true,
        educator: false,
        student: false,
        mute_status: {},
      },
      flags: {
        must_reset_password: false,
        has_outstanding_email_confirmation: false,
        show_welcome: false,
        confirm_email_banner: false,
        unsupported_browser_banner: false,
        project_comments_enabled: true,
        gallery_comments_enabled: true,
        userprofile_comments_enabled: true,
        everything_is_totally_normal: false,
      },
    };
  }
}
