/**
 * Typed answers of the platform's writes (WIRE.md §11.4-11.6): comments, loves, favorites,
 * follows and studio management. Field for field as the real service sends them; where the wire
 * is only inferred, the field's documentation says so.
 */
import type { Comment, CommentAuthor } from './records.js';

/** One offense in a {@link MuteStatus}; times are unix seconds. */
export interface MuteOffense {
  createdAt: number;
  expiresAt: number;
  messageType: string;
}

/**
 * An account's mute status (`mute_status`), as comment refusals, `403` answers of social writes
 * and `/session/`'s `permissions.mute_status` carry it. Times are unix seconds. Not muted: `{}`.
 */
export interface MuteStatus {
  offenses?: MuteOffense[];
  showWarning?: boolean;
  /** When the current mute ends. */
  muteExpiresAt?: number;
  currentMessageType?: string | null;
  [key: string]: unknown;
}

/** The refusal codes of a comment that the official web client knows (WIRE.md §11.4). */
export type CommentRejectionCode =
  | 'isEmpty'
  | 'isFlood'
  | 'isBad'
  | 'hasChatSite'
  | 'isSpam'
  | 'isDisallowed'
  | 'isIPMuted'
  | 'isTooLong'
  | 'isNotPermitted'
  | 'isNotPermittedByParent'
  | 'isMuted'
  | 'isUnconstructive';

/** A refused comment's answer: HTTP 200 with `rejected` (the client throws `CommentRejectedError`). */
export interface CommentRejection {
  rejected: CommentRejectionCode | (string & {});
  appealId?: string | number;
  status?: { mute_status?: MuteStatus };
}

/**
 * The answer to a posted project or studio comment: the comment object of a list, **without
 * `author.username`** (the poster knows who they are).
 */
export interface PostedComment extends Omit<Comment, 'author'> {
  author: Omit<CommentAuthor, 'username'> & { username?: string };
}

/** Options of `postComment`. */
export interface CommentPostOptions {
  /** The top-level comment this one answers (a reply to a reply names the top-level one). */
  parentId?: number | string;
  /** The user id of the person answered (the service notifies them). */
  commenteeId?: number | string;
}

/** The answer to reporting a comment. */
export interface CommentReport {
  reportId?: number | string | null;
  [key: string]: unknown;
}

/**
 * A profile comment, read from the HTML the site answers profile comments with. It has the
 * fields of a project {@link Comment} the page shows: the author's name, id and avatar, the text
 * (HTML entities decoded, links flattened to their text), the date and the thread. The page does
 * not say whom a reply answers (its text starts with `@name`).
 */
export interface ProfileComment {
  id: number;
  /** The top-level comment of its thread, or `null` for a top-level one. */
  parent_id: number | null;
  content: string;
  /** ISO date (the page's `title` of the time). */
  datetime_created: string;
  /**
   * The author. `id` comes from the reply link (`data-commentee-id`: whom a reply answers), so
   * `{ parentId: c.parent_id ?? c.id, commenteeId: c.author.id }` replies to the comment.
   */
  author: { id?: number; username: string; image?: string };
  /** How many replies the page shows under it (0 for a reply or a freshly posted comment). */
  reply_count: number;
  /** Replies shown under a top-level comment of a listing (a freshly posted comment has none). */
  replies?: ProfileComment[];
}

/** `POST` / `DELETE {api}/proxy/projects/<id>/loves/user/<me>`. Note the **string** project id. */
export interface LoveAnswer {
  projectId: string;
  userLove: boolean;
  /** `false` when the project already was (or was not) loved: nothing changed. */
  statusChanged: boolean;
}

/** `POST` / `DELETE {api}/proxy/projects/<id>/favorites/user/<me>`. Note the **string** project id. */
export interface FavoriteAnswer {
  projectId: string;
  userFavorite: boolean;
  statusChanged: boolean;
}

/** `GET {api}/studios/<id>/users/<me>`: the logged-in user's role in a studio. */
export interface StudioRole {
  manager: boolean;
  curator: boolean;
  invited: boolean;
  following: boolean;
  [key: string]: unknown;
}

/** `POST` / `DELETE {api}/studios/<id>/project/<pid>`. Note the **string** project id. */
export interface StudioProjectAnswer {
  projectId: string;
  actorId?: number;
  studioId?: number;
  [key: string]: unknown;
}

/** The answers of `{site}/site-api/users/curators-in/<id>/…`. */
export interface CuratorAnswer {
  status?: 'success' | 'error' | (string & {});
  message?: string;
  [key: string]: unknown;
}

/** `PUT {site}/site-api/galleries/all/<id>/`: the studio's fields as changed, or `errors`. */
export interface StudioEditAnswer {
  id?: number;
  title?: string;
  description?: string;
  /** A refusal: `inappropriate-generic`, `editable-text-too-long`, `This field is required.` */
  errors?: string[];
  [key: string]: unknown;
}
