/**
 * Typed records of messages and activity (WIRE.md §11.1-11.2): a user's messages, a studio's
 * activity, the "what's happening" feed, and a profile's activity (served as HTML, parsed into
 * {@link UserActivity}). Each is a discriminated union on `type`, with the fields the official
 * web client reads for that type.
 */

/** Fields every message and feed row has. */
export interface ActorFields {
  /** When it happened, ISO-8601. */
  datetime_created: string;
  actor_id: number;
  actor_username: string;
  /** A membership label of the actor, when the service sends one. */
  actor_membership_label?: number | string;
  /** A membership avatar badge of the actor, when the service sends one. */
  actor_membership_avatar_badge?: number | string;
}

/** What a message's comment is on: 0 a project, 1 a profile, 2 a studio. */
export type CommentObjectType = 0 | 1 | 2;

/** The type-specific part of a {@link Message}. */
export type MessageDetail =
  | { type: 'followuser'; followed_user_id: number; followed_username: string }
  | { type: 'loveproject'; project_id: number; title: string }
  | { type: 'favoriteproject'; project_id: number; project_title: string }
  | {
      type: 'remixproject';
      /** The remix. */
      project_id: number;
      /** The remix's title (one Python client reads it as the parent's; the web client does not). */
      title: string;
      parent_id: number;
      parent_title: string;
    }
  | {
      type: 'addcomment';
      comment_type: CommentObjectType;
      /** The project or studio id; for a profile comment, the profile owner's user id. */
      comment_obj_id: number;
      /** The project or studio title; for a profile comment, the owner's username. */
      comment_obj_title: string;
      comment_id: number;
      /** The start of the comment, HTML-escaped. */
      comment_fragment: string;
      /** Whom the comment answers, or `null` for a top-level comment. */
      commentee_username: string | null;
    }
  | { type: 'curatorinvite'; gallery_id: number; title: string }
  | {
      type: 'becomeownerstudio';
      gallery_id: number;
      gallery_title: string;
      recipient_id: number;
      recipient_username: string;
    }
  | {
      type: 'becomehoststudio';
      gallery_id: number;
      gallery_title: string;
      recipient_id: number;
      recipient_username: string;
      former_host_username: string;
      /** True when a Scratch Team member made the change. */
      admin_actor: boolean;
    }
  | { type: 'studioactivity'; gallery_id: number; title: string }
  | { type: 'forumpost'; topic_id: number; topic_title: string }
  | { type: 'userjoin' };

/** One message (`GET {api}/users/<me>/messages`), newest first on the wire. */
export type Message = ActorFields & { id: number } & MessageDetail;

/** The message types, in the order WIRE.md §11.1 lists them. */
export type MessageType = Message['type'];

export const MESSAGE_TYPES: readonly MessageType[] = [
  'followuser',
  'loveproject',
  'favoriteproject',
  'remixproject',
  'addcomment',
  'curatorinvite',
  'becomeownerstudio',
  'becomehoststudio',
  'studioactivity',
  'forumpost',
  'userjoin',
];

/** What `session.messages.list({ filter })` narrows to, as the web client's tabs do. */
export type MessageFilter = 'comments' | 'projects' | 'studios' | 'forums';
export const MESSAGE_FILTERS: readonly MessageFilter[] = ['comments', 'projects', 'studios', 'forums'];

/** `GET {api}/users/<u>/messages/count`. */
export interface MessageCount {
  count: number;
}

/** The type-specific part of a {@link StudioActivity}. */
export type StudioActivityDetail =
  | { type: 'addprojecttostudio' | 'removeprojectstudio'; project_id: number; project_title: string }
  | { type: 'updatestudio' }
  | {
      type: 'becomecurator' | 'removecuratorstudio';
      /** The curator. */
      username: string;
    }
  | {
      type: 'becomeownerstudio';
      /** Who was made a manager. */
      recipient_username: string;
    }
  | {
      type: 'becomehoststudio';
      recipient_username: string;
      former_host_username: string;
      admin_actor: boolean;
    };

/**
 * One row of a studio's activity (`GET {api}/studios/<id>/activity/`), newest first. Its `id` is
 * a string `"<type>-<n>"`; pages overlap, so the same id can come twice (the walk drops repeats).
 */
export type StudioActivity = ActorFields & { id: string } & StudioActivityDetail;

export type StudioActivityType = StudioActivity['type'];

/** The type-specific part of a {@link FeedItem}. */
export type FeedDetail =
  | { type: 'shareproject' | 'loveproject'; project_id: number; title: string }
  | { type: 'favoriteproject'; project_id: number; project_title: string }
  | { type: 'followuser'; followed_user_id: number; followed_username: string }
  | { type: 'followstudio'; gallery_id: number; title: string }
  | { type: 'remixproject'; project_id: number; title: string; parent_id: number; parent_title: string }
  | {
      type: 'becomecurator';
      /** The new curator. */
      username: string;
      gallery_id: number;
      /** The studio's title (one Python client reads `gallery_title`). */
      title: string;
    }
  | {
      type: 'becomeownerstudio';
      recipient_id: number;
      recipient_username: string;
      gallery_id: number;
      gallery_title: string;
    };

/** One row of "what's happening" (`GET {api}/users/<me>/following/users/activity`), newest first. */
export type FeedItem = ActorFields & { id: number } & FeedDetail;

export type FeedType = FeedItem['type'];

/** What a profile's activity item is about, read from its verb. */
export type UserActivityType =
  | 'loveproject'
  | 'favoriteproject'
  | 'shareproject'
  | 'remixproject'
  | 'followuser'
  | 'followstudio'
  | 'becomecurator'
  | 'becomeownerstudio'
  | 'addprojecttostudio'
  | 'userjoin'
  /** A verb this client does not know: the row keeps its text in `verb`. */
  | 'other';

/** A link of a profile's activity item: what the item is about. */
export interface ActivityTarget {
  kind: 'project' | 'studio' | 'user' | 'other';
  /** The project or studio id, or the username; `null` when the link names none. */
  id: number | string | null;
  /** The link's text (a title or a username). */
  name: string;
  /** The link as written (site-relative on the real service). */
  href: string;
}

/**
 * One item of a profile's activity (`GET {site}/messages/ajax/user-activity/`, HTML). The page gives
 * only a relative time (`2 days, 3 hours ago`): `datetime_created` is that time taken back from
 * when the page was read, so it is as precise as the page (a day for old items).
 */
export interface UserActivity {
  type: UserActivityType;
  actor_username: string;
  /** The verb as the page writes it (`loved`, `is now following`, `added`, …). */
  verb: string;
  /** The first link: the project, studio or user the item is about. */
  target: ActivityTarget | null;
  /** The second link, when there is one (the studio a project was added to, the remix's parent). */
  secondTarget: ActivityTarget | null;
  /** When it happened (estimated from the relative time), ISO-8601. */
  datetime_created: string;
  /** The relative time as the page wrote it, spaces normalized (`2 days, 3 hours ago`). */
  ago: string;
}
