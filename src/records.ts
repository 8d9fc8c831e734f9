/**
 * Typed records of the platform's JSON answers (WIRE.md §2-3).
 *
 * These mirror what the real service sends, field for field, so code written against the
 * sandbox works unchanged against the real site. Dates are ISO-8601 strings, as on the wire.
 */

/** Avatar URLs keyed by size, e.g. `"90x90"`. */
export type ImageSet = Record<string, string>;

export interface UserHistory {
  joined: string;
}

export interface UserProfile {
  id: number;
  status: string;
  bio: string;
  country: string;
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
  scratchteam: boolean;
  history: UserHistory;
  profile: { id: number | null; images: ImageSet };
}

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
  remixes: number;
}

export interface ProjectRemix {
  /** Id of the project this one remixes, or `null`. */
  parent: number | null;
  /** Id of the first project of the remix chain, or `null`. */
  root: number | null;
}

/** `GET {api}/projects/<id>` and the rows of project lists. */
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
  /** Short-lived token (`<unix seconds>_<hex>`) needed to read the project body. */
  project_token?: string;
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
  /** User id of the studio's host. */
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

/** `GET {api}/news`. */
export interface NewsItem {
  id: number;
  stamp: string;
  headline: string;
  url: string;
  image: string;
  copy: string;
}

/** `GET {api}/health`: service status; the exact keys vary. */
export interface Health {
  version?: string;
  uptime?: number;
  load?: number[];
  sql?: Record<string, unknown>;
  timestamp?: number;
  cache?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A row of the front page (`GET {api}/proxy/featured`). */
export interface FeaturedRow {
  id: number;
  title: string;
  thumbnail_url?: string;
  creator?: string;
  type?: 'project' | 'gallery';
  love_count?: number;
  [key: string]: unknown;
}

/** `GET {api}/proxy/featured`: named rows of projects and studios. */
export type Featured = Record<string, FeaturedRow[]>;

/** `GET {site}/session/` when logged in (logged out it is `{}`). */
export interface SessionInfo {
  user?: {
    id: number;
    banned: boolean;
    username: string;
    token: string;
    thumbnailUrl: string;
    dateJoined: string;
    email: string;
  };
  permissions?: {
    admin: boolean;
    scratcher: boolean;
    new_scratcher: boolean;
    social: boolean;
    educator: boolean;
    student: boolean;
    mute_status: Record<string, unknown>;
  };
  flags?: Record<string, unknown>;
}

/** One element of the array `POST {site}/login/` answers. */
export interface LoginAnswer {
  username: string;
  token?: string;
  num_tries: number;
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
