/**
 * Typed records of classrooms (WIRE.md §12.2): a class as the API sends it, the rows of an
 * educator's class lists, a class's students and studios (read from its HTML pages), its private
 * activity and the educator's alerts.
 */
import type { User } from './records.js';

/**
 * A class. From `{api}/classrooms/<id>` for an open class; a closed class is read from its page
 * (`{site}/classes/<id>/`), which has no dates or images: those fields are then `null`.
 */
export interface Classroom {
  id: number;
  title: string;
  /** "About this class". */
  description: string;
  /** "What we're working on". */
  status: string;
  /** When the class started, ISO-8601; `null` when read from a closed class's page. */
  date_start: string | null;
  /** When it was closed; `null` while it is open (and on a closed class's page, which gives no date). */
  date_end: string | null;
  /** True when the class has ended. */
  closed: boolean;
  /** The educator. Read from a closed class's page, only `username` is known. */
  educator: User | { username: string };
  /** Thumbnail URLs by size; absent on a closed class's page. */
  images?: Record<string, string>;
  /** Students and class studios, when read from the class's page (which counts them). */
  student_count?: number;
  studio_count?: number;
}

/** A row of the educator's class lists (`{site}/site-api/classrooms/<all|closed>/`). */
export interface ClassroomListRow {
  /** The class id. */
  pk: number;
  model?: string;
  fields: {
    title: string;
    /** The sign-up token (a secret of the class: whoever has it can join; printed as `[redacted]`). */
    token: string;
    datetime_created: string;
    student_count?: number;
    educator_profile: { user: { username: string; pk: number } };
  };
}

/** A student of a class, from its students page. */
export interface ClassroomStudent {
  username: string;
}

/** A class studio, from the class's studios page. */
export interface ClassroomStudio {
  id: number;
  title: string;
}

/**
 * The site's codes of private activity items (`type`): 0 follow user, 1 follow studio, 2 love,
 * 3 favorite, 7 add to studio, 8-10 share, 11 remix, 13 create studio, 15 update studio, 16-19
 * remove from studio, 20-22 promote, 23-25 profile update, 26-27 comment.
 */
export type ClassActivityCode = number;

/** What each code of private activity is, named as the other activity rows name it. */
export type ClassActivityName =
  | 'followuser'
  | 'followstudio'
  | 'loveproject'
  | 'favoriteproject'
  | 'addprojecttostudio'
  | 'shareproject'
  | 'remixproject'
  | 'createstudio'
  | 'updatestudio'
  | 'removeprojectfromstudio'
  | 'becomeownerstudio'
  | 'updateprofile'
  | 'addcomment'
  | 'performaction';

/** The name of a private activity code (WIRE.md §12.2.3); codes it does not list are `performaction`. */
export function classActivityName(code: ClassActivityCode): ClassActivityName {
  if (code === 0) return 'followuser';
  if (code === 1) return 'followstudio';
  if (code === 2) return 'loveproject';
  if (code === 3) return 'favoriteproject';
  if (code === 7) return 'addprojecttostudio';
  if (code >= 8 && code <= 10) return 'shareproject';
  if (code === 11) return 'remixproject';
  if (code === 13) return 'createstudio';
  if (code === 15) return 'updatestudio';
  if (code >= 16 && code <= 19) return 'removeprojectfromstudio';
  if (code >= 20 && code <= 22) return 'becomeownerstudio';
  if (code >= 23 && code <= 25) return 'updateprofile';
  if (code === 26 || code === 27) return 'addcomment';
  return 'performaction';
}

/** One item of a class's private activity (educator only). */
export interface ClassroomActivityRow {
  type: ClassActivityCode;
  datetime_created: string;
  actor: { username: string; pk?: number };
  actor_username?: string;
  /** The project, when the item is about one. */
  project?: number;
  project_title?: string;
  /** The studio, when the item is about one. */
  gallery?: number;
  gallery_title?: string;
  followed_username?: string | null;
  comment_fragment?: string;
  comment_type?: 0 | 1 | 2;
  comment_obj_id?: number;
  comment_obj_title?: string;
  comment_id?: number;
}

/** A user as an alert names them. */
export interface AlertUser {
  username: string;
  pk: number;
  thumbnail_url: string;
  admin: boolean;
}

/** An alert of the educator about a student (`educators.educatoralert`). */
export interface EducatorAlert {
  model: string;
  pk: number;
  fields: {
    /** When the educator read it, or `null`. */
    educator_datetime_read: string | null;
    admin_action: {
      datetime_created: string;
      /** The alert's code (`AlertTypes`: 4 notified, 6 autoremoved, 9 reviewed, 11 project deleted, ...). */
      type: number;
      object_id: number;
      target_user: AlertUser;
      actor: AlertUser;
      /** What it is about, as the site sends it: a JSON string. */
      extra_data: string;
    };
  };
}
