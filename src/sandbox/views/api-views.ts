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
} from '../../records/records.js';
import type { Session } from '../state/sessions.js';
import type { CommentRow, NewsRow, ProjectRow, Store, StudioRow, UserRow } from '../state/store.js';
import type { Links } from './links.js';

// The real service's shapes where they are looser than `records.ts` says (WIRE.md §10). Kept
// here, so the sandbox answers as the real site does whatever the client's types promise.

/** A user: `profile.country` may be `null`. */
type WireUser = Omit<User, 'profile'> & {
  profile: Omit<User['profile'], 'country'> & { country: string | null };
};
/** The author block of a `/users/<u>/projects` row: no `username`. */
type ListAuthor = Omit<ProjectAuthor, 'username'>;
/** A row of `/users/<u>/projects`: a thin author, no `project_token`, `stats.remixes` 0. */
type ProjectListRow = Omit<Project, 'author' | 'project_token'> & { author: ListAuthor };
/** A news item whose id may pass 2^53: a bigint, written as exact digits (see `json`). */
type WireNewsItem = Omit<NewsItem, 'id'> & { id: bigint };
/** `/session/` with the fields the real one sends beyond the documented ones. */
type WireSessionInfo = SessionInfo & {
  user: NonNullable<SessionInfo['user']> & {
    classroomId: number | null;
    should_vpn: boolean;
    birthYear: number;
    birthMonth: number;
    gender: string;
  };
};

/** The join date the real API puts in every project's author block, whatever the truth. */
const PLACEHOLDER_JOINED = '1900-01-01T00:00:00.000Z';

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

  user(row: UserRow): WireUser {
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

  /**
   * The author block of a project. The real API fills it with placeholders: `profile.id` null,
   * `scratchteam` false and a 1900 join date, whatever the truth (WIRE.md §10).
   */
  author(row: UserRow): ProjectAuthor {
    return {
      id: row.id,
      username: row.username,
      scratchteam: false,
      history: { joined: PLACEHOLDER_JOINED },
      profile: { id: null, images: this.links.userImages(row.id) },
    };
  }

  /**
   * A row of `/users/<u>/projects` as the real API sends it: the author without `username` (the
   * caller knows whose list it is), and `stats.remixes` 0 whatever the truth (WIRE.md §10).
   */
  projectListRow(row: ProjectRow): ProjectListRow {
    const { author, ...rest } = this.project(row);
    const { username: _left, ...thin } = author;
    return { ...rest, author: thin, stats: { ...rest.stats, remixes: 0 } };
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

  news(row: NewsRow): WireNewsItem {
    return {
      id: BigInt(row.id),
      stamp: row.stamp,
      headline: row.headline,
      url: this.links.page(`/news#${row.id}`),
      image: this.links.newsImage(row.id),
      copy: row.copy,
    };
  }

  /** A project row of the front page: snake case, a protocol-relative thumbnail (WIRE.md §10). */
  featuredProject(row: ProjectRow, extra: Record<string, unknown> = {}): FeaturedRow {
    return {
      thumbnail_url: this.links.protocolRelative(this.links.projectImage(row.id, '144x108')),
      title: row.title,
      creator: this.owner(row.ownerId).username,
      type: 'project',
      id: row.id,
      love_count: row.loves,
      remixers_count: this.store.remixesOf(row.id).length,
      ...extra,
    };
  }

  featuredStudio(row: StudioRow): FeaturedRow {
    return {
      thumbnail_url: this.links.protocolRelative(this.links.studioImage(row.id)),
      title: row.title,
      type: 'gallery',
      id: row.id,
    };
  }

  /**
   * `GET /session/` for a live session, with the real one's quirks (WIRE.md §10): extra fields, a
   * protocol-relative `thumbnailUrl`, and `dateJoined` in UTC without a zone.
   */
  sessionInfo(session: Session): WireSessionInfo {
    const user = this.owner(session.userId);
    return {
      user: {
        id: user.id,
        banned: false,
        should_vpn: false,
        username: user.username,
        token: session.token,
        thumbnailUrl: this.links.protocolRelative(this.links.userImage(user.id, '32x32')),
        dateJoined: user.joined.replace(/(\.\d+)?Z$/, ''),
        email: `${user.username.toLowerCase()}@example.invalid`,
        birthYear: 2010,
        birthMonth: 1,
        gender: '',
        classroomId: this.store.classrooms.ofStudent(user.id)?.id ?? null,
      },
      permissions: {
        admin: false,
        scratcher: true,
        new_scratcher: false,
        invited_scratcher: false,
        social: true,
        educator: this.store.classrooms.educators.has(user.id),
        educator_invitee: false,
        student: this.store.classrooms.ofStudent(user.id) !== undefined,
        mute_status: this.store.social.guard.muteStatus(user.id),
      },
      // The keys scapi's SessionStatusFlagsPayload lists (test/fixtures/captured/SOURCES.md).
      flags: { ...sessionFlags(), with_parent_email: false },
    };
  }

  /** `GET /session/` logged out: `flags` without `user`, one of the real site's two forms. */
  loggedOutSession(): SessionInfo {
    return { flags: sessionFlags() };
  }
}

/** The `flags` of `/session/`, logged in or out. */
function sessionFlags(): Record<string, boolean> {
  return {
    must_reset_password: false,
    has_outstanding_email_confirmation: false,
    show_welcome: false,
    confirm_email_banner: false,
    unsupported_browser_banner: false,
    project_comments_enabled: true,
    gallery_comments_enabled: true,
    userprofile_comments_enabled: true,
    must_complete_registration: false,
    everything_is_totally_normal: false,
  };
}
