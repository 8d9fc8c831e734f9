/**
 * Typed records of the platform's JSON answers (WIRE.md §2-3, with the quirks of §10).
 *
 * These mirror what the real service sends, field for field, so code written against the
 * sandbox works unchanged against the real site. Dates are ISO-8601 strings, as on the wire.
 * Where real answers leave a field out it is optional, where they send `null` the type says so,
 * and placeholder values (a value the service sends whatever the truth) are named in the field's
 * documentation: code that reads them should not trust them.
 */

/** Avatar URLs keyed by size, e.g. `"90x90"`. */
export type ImageSet = Record<string, string>;

export interface UserHistory {
  /**
   * When the user joined. Inside a project's `author` block this may be the placeholder
   * `1900-01-01T00:00:00.000Z` whatever the truth.
   */
  joined: string;
}

export interface UserProfile {
  /** Profile id; `null` in some answers. */
  id: number | null;
  status: string;
  bio: string;
  /** `null` when the user gave none. */
  country: string | null;
  images: ImageSet;
}

/** `GET {api}/users/<u>` and the rows of followers/following lists. */
export interface User {
  id: number;
  username: string;
  scratchteam: boolean;
  history: UserHistory;
  profile: UserProfile;
}

/** The author block inside a project record. */
export interface ProjectAuthor {
  id: number;
  username: string;
  /** May be the placeholder `false` whatever the truth. */
  scratchteam: boolean;
  /** `joined` may be the placeholder `1900-01-01T00:00:00.000Z`. */
  history: UserHistory;
  /** `id` may be `null`. */
  profile: { id: number | null; images: ImageSet };
}

/**
 * The author block of a row of `GET {api}/users/<u>/projects`: the same without `username` (the
 * caller knows whose list it is).
 */
export type ListedProjectAuthor = Omit<ProjectAuthor, 'username'> & { username?: string };

export interface ProjectHistory {
  created: string;
  modified: string;
  /** `null` while the project is unshared. */
  shared: string | null;
}

export interface ProjectStats {
  views: number;
  loves: number;
  favorites: number;
  /** In rows of lists this may be the placeholder `0` whatever the truth; read the project for the count. */
  remixes: number;
}

export interface ProjectRemix {
  /** Id of the project this one remixes, or `null`. */
  parent: number | null;
  /** Id of the first project of the remix chain, or `null`. */
  root: number | null;
}

/** `GET {api}/projects/<id>` and the rows of project lists (search, explore, favorites, remixes). */
export interface Project {
  id: number;
  title: string;
  description: string;
  instructions: string;
  visibility: string;
  public: boolean;
  comments_allowed: boolean;
  is_published: boolean;
  author: ProjectAuthor;
  image: string;
  images: ImageSet;
  history: ProjectHistory;
  stats: ProjectStats;
  remix: ProjectRemix;
  /**
   * Short-lived token (`<unix seconds>_<128 hex digits>`) needed to read the project body. Only in
   * single records, never in list rows; a secret: displays redact it.
   */
  project_token?: string;
}

/**
 * A row of `GET {api}/users/<u>/projects`: thinner than a {@link Project} (WIRE.md §10). Its
 * author has no `username`, there is no `project_token`, and `stats.remixes` may be `0`.
 */
export interface UserProjectRow extends Omit<Project, 'author' | 'project_token'> {
  author: ListedProjectAuthor;
}

export interface CommentAuthor {
  id: number;
  username: string;
  scratchteam: boolean;
  image: string;
}

/** A comment on a project or studio. */
export interface Comment {
  id: number;
  parent_id: number | null;
  commentee_id: number | null;
  content: string;
  datetime_created: string;
  datetime_modified: string;
  visibility: string;
  author: CommentAuthor;
  reply_count: number;
}

export interface StudioHistory {
  created: string;
  modified: string;
}

export interface StudioStats {
  comments: number;
  followers: number;
  managers: number;
  projects: number;
}

/** `GET {api}/studios/<id>`. */
export interface Studio {
  id: number;
  title: string;
  /** User id of the studio's host (the record carries no username). */
  host: number;
  description: string;
  visibility: string;
  public: boolean;
  open_to_all: boolean;
  comments_allowed: boolean;
  image: string;
  history: StudioHistory;
  stats: StudioStats;
}

/** A row of `GET {api}/studios/<id>/projects`. */
export interface StudioProject {
  id: number;
  title: string;
  image: string;
  creator_id: number;
  username: string;
  avatar: ImageSet;
  actor_id: number;
}

/** A row of `GET {api}/studios/<id>/curators` and `/managers`. */
export type StudioMember = User;

/**
 * An id that can pass `Number.MAX_SAFE_INTEGER` (news items): a number when it fits exactly,
 * otherwise a string of its exact digits (the client never rounds it).
 */
export type LargeId = number | string;

/** `GET {api}/news`. */
export interface NewsItem {
  id: LargeId;
  stamp: string;
  headline: string;
  url: string;
  image: string;
  copy: string;
}

/** Connection-pool counts of one database server in {@link Health}, e.g. `{ "numUsed": 2, "numFree": 8 }`. */
export type HealthPool = Record<string, number | boolean>;

/** `GET {api}/health`: service status; the exact keys vary. */
export interface Health {
  /** Service version; real answers may start it with a space. */
  version?: string;
  uptime?: number;
  /** Load averages. */
  load?: number[];
  /**
   * Databases by name, then by role, e.g.
   * `{ main: { primary: {...}, replica: {...} }, project_comments: { primary: {...} } }`. Older
   * answers (and some servers) give one flat pool per database instead.
   */
  sql?: Record<string, Record<string, HealthPool> | HealthPool>;
  timestamp?: number;
  /** Cache statistics, objects of numbers. */
  cache?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * A row of the front page (`GET {api}/proxy/featured`): snake case, no `author` object
 * (WIRE.md §10). `thumbnail_url` is protocol-relative on the wire (`//cdn2…`); the client makes
 * it an `https:` URL.
 */
export interface FeaturedRow {
  id: number;
  title: string;
  thumbnail_url?: string;
  /** The author's username (projects only). */
  creator?: string;
  type?: 'project' | 'gallery';
  love_count?: number;
  remixers_count?: number;
  [key: string]: unknown;
}

/** `GET {api}/proxy/featured`: named rows of projects and studios. */
export type Featured = Record<string, FeaturedRow[]>;

/** The `user` of {@link SessionInfo}; real answers carry more fields than these. */
export interface SessionUser {
  id: number;
  banned: boolean;
  username: string;
  /** The X-Token: a secret, redacted by every display. */
  token: string;
  /** Protocol-relative on the wire (`//cdn2…`); the client makes it an `https:` URL. */
  thumbnailUrl: string;
  /** On the wire without a zone (`2019-08-24T10:20:30`): UTC. */
  dateJoined: string;
  email: string;
  classroomId?: number | null;
  should_vpn?: boolean;
  birthYear?: number;
  birthMonth?: number;
  gender?: string;
  [key: string]: unknown;
}

/** The `flags` of {@link SessionInfo}; real answers carry more than these. */
export interface SessionFlags {
  must_reset_password?: boolean;
  must_complete_registration?: boolean;
  has_outstanding_email_confirmation?: boolean;
  show_welcome?: boolean;
  confirm_email_banner?: boolean;
  unsupported_browser_banner?: boolean;
  everything_is_totally_normal?: boolean;
  [key: string]: unknown;
}

/**
 * `GET {site}/session/`. Logged out it is `{}` or carries `flags` without `user`; logged in it has
 * more fields than the documented ones (accept what you do not know).
 */
export interface SessionInfo {
  user?: SessionUser;
  permissions?: {
    admin: boolean;
    scratcher: boolean;
    new_scratcher: boolean;
    social: boolean;
    educator: boolean;
    student: boolean;
    mute_status: Record<string, unknown>;
    [key: string]: unknown;
  };
  flags?: SessionFlags;
  [key: string]: unknown;
}

/** One element of the array `POST {site}/login/` answers. */
export interface LoginAnswer {
  username: string;
  /** The X-Token (on success): a secret. */
  token?: string;
  /** Real answers may leave it out. */
  num_tries?: number;
  /** Where the site would send the browser next, when present. */
  redirect?: string;
  success: 0 | 1;
  msg: string;
  messages: unknown[];
  id: number | null;
}

/** `PUT {projects}/<id>` answer. */
export interface ProjectSaveAnswer {
  status: string;
  'autosave-interval'?: string;
  'content-name'?: string;
  /** A new project's title, base64 (the answer of a creation, WIRE.md §12.4). */
  'content-title'?: string;
}

/** Error body of the API, e.g. `{"code": "NotFound", "message": ""}`. */
export interface ErrorBody {
  code: string;
  message: string;
}

/** The verbs of cloud activity, as the client names them (WIRE.md §6 maps the wire's verbs). */
export type CloudVerb = 'set' | 'create' | 'delete' | 'rename';

/**
 * One entry of a project's cloud log (`GET {cloudHttp}/logs`), newest first on the wire.
 * `name` is given without the `☁ ` prefix; `timestamp` is milliseconds since the epoch.
 */
export interface CloudLogEntry {
  user: string;
  verb: CloudVerb;
  name: string;
  value: string;
  timestamp: number;
}

/** The raw log row as the service sends it (`verb` is `set_var`, `create_var`, ...; `name` keeps `☁ `). */
export interface CloudLogRow {
  user: string;
  verb: 'set_var' | 'create_var' | 'del_var' | 'rename_var';
  name: string;
  value: string | number;
  timestamp: number;
}
