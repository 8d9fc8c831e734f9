/**
 * Classrooms of the sandbox (WIRE.md §12.2): each class's educator, token, students, class
 * studios and what its students did, plus the educators' alerts. Plain rows, read by the class
 * routes and views.
 */

/** One class. */
export interface ClassroomRow {
  id: number;
  title: string;
  /** "About this class". */
  description: string;
  /** "What we're working on". */
  status: string;
  educatorId: number;
  /** The sign-up token: letters and digits, as the real site's are. */
  token: string;
  created: string;
  /** When the class was closed, or `null` while it is open. */
  ended: string | null;
  studentIds: number[];
  /** Class studios, oldest first. */
  studioIds: number[];
  /** What the students did, newest first (the private activity; the public one is a subset). */
  activity: ClassActivityRow[];
}

/**
 * One item of a class's activity. `type` is the site's code (0 follow user, 1 follow studio,
 * 2 love, 3 favorite, 7 add to studio, 10 share, 11 remix, 25 profile update).
 */
export interface ClassActivityRow {
  type: number;
  actorId: number;
  created: string;
  projectId?: number;
  studioId?: number;
  followedId?: number;
}

/** An alert of an educator about one of their students (`educators.educatoralert`). */
export interface EducatorAlertRow {
  pk: number;
  educatorId: number;
  classroomId: number;
  /** The code of `AlertTypes` (4 notified, 6 autoremoved, 9 reviewed, ...). */
  type: number;
  targetUserId: number;
  objectId: number;
  created: string;
  read: string | null;
  /** What the alert is about, sent as a JSON string in `extra_data`. */
  extra: Record<string, unknown>;
}

/** The most classes one educator may have open at once (the sandbox's rule). */
export const MAX_CLASSES_PER_EDUCATOR = 200;

/** All classes of one sandbox. */
export class ClassroomState {
  readonly classes = new Map<number, ClassroomRow>();
  /** Users who may run classes (`permissions.educator` of `/session/`). */
  readonly educators = new Set<number>();
  readonly alerts: EducatorAlertRow[] = [];
  #nextId = 400_000;

  /** Adds a class under the next id, or `id` when given (the seed's). */
  add(row: Omit<ClassroomRow, 'id'> & { id?: number }): ClassroomRow {
    const id = row.id ?? ++this.#nextId;
    if (this.classes.has(id)) throw new Error(`duplicate classroom ${id}`);
    this.#nextId = Math.max(this.#nextId, id);
    const full: ClassroomRow = { ...row, id };
    this.classes.set(id, full);
    return full;
  }

  /** The class a token signs up to, open or closed. */
  byToken(token: string): ClassroomRow | undefined {
    for (const row of this.classes.values()) if (row.token === token) return row;
    return undefined;
  }

  /** The classes of an educator, newest first. */
  of(educatorId: number): ClassroomRow[] {
    return [...this.classes.values()].filter((c) => c.educatorId === educatorId).sort((a, b) => b.id - a.id);
  }

  /** The class a student is in, if any. */
  ofStudent(userId: number): ClassroomRow | undefined {
    for (const row of this.classes.values()) if (row.studentIds.includes(userId)) return row;
    return undefined;
  }
}
