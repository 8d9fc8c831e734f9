/**
 * Which platform record a value is, decided by its shape.
 *
 * Values arrive from JSON (or a REPL user's hand-made objects), never as class instances, so the
 * checks are structural: the fields the presentation layer reads must be there with the right types.
 */
import type { ProjectAnalysis } from '../analysis/analyze-project.js';
import type { FeedItem, Message, StudioActivity, UserActivity } from '../records/activity-records.js';
import type { BackpackItem } from '../records/backpack-records.js';
import type { Classroom, ClassroomListRow } from '../records/classroom-records.js';
import type { ForumPost, ForumTopic } from '../records/forum-records.js';
import type { LovedProject, ProfileTotals, ScratchTeamMember, UserRank } from '../records/profile-records.js';
import type {
  CloudLogEntry,
  Comment,
  Project,
  Studio,
  StudioProject,
  User,
  UserProjectRow,
} from '../records/records.js';

/** The kinds of record the presentation layer knows how to show. */
export type RecordKind =
  | 'user'
  | 'project'
  | 'studio'
  | 'comment'
  | 'studioProject'
  | 'logEntry'
  | 'activity'
  | 'forumTopic'
  | 'forumPost'
  | 'classroom'
  | 'classroomRow'
  | 'backpackItem'
  | 'projectAnalysis'
  | 'profileTotals'
  | 'lovedProject'
  | 'userRank'
  | 'teamMember';

/** A row of messages, a studio's activity, the feed or a profile's activity (WIRE.md §11.1-11.2). */
export type ActivityRow = Message | StudioActivity | FeedItem | UserActivity;

/** The record type of each {@link RecordKind}. */
export interface RecordOfKind {
  user: User;
  /** A project record, or a thinner row of a user's own projects (no author username). */
  project: Project | UserProjectRow;
  studio: Studio;
  comment: Comment;
  studioProject: StudioProject;
  logEntry: CloudLogEntry;
  activity: ActivityRow;
  forumTopic: ForumTopic;
  forumPost: ForumPost;
  /** A class (WIRE.md §12.2). */
  classroom: Classroom;
  /** A row of an educator's class list. */
  classroomRow: ClassroomListRow;
  /** An item of a backpack (WIRE.md §12.3). */
  backpackItem: BackpackItem;
  /** What `analyzeProject` and `projects.analyze` give. */
  projectAnalysis: ProjectAnalysis & { id?: number };
  /** A profile's totals (`users.totals`). */
  profileTotals: ProfileTotals;
  /** A project a user loves, as the loves page lists it (`users.loves`). */
  lovedProject: LovedProject;
  /** Where a user stands (`users.rank`). */
  userRank: UserRank;
  /** A member of the Scratch Team (`users.scratchTeam`). */
  teamMember: ScratchTeamMember;
}

type Obj = Record<string, unknown>;

function isObject(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

const isNum = (x: unknown): x is number => typeof x === 'number';
const isStr = (x: unknown): x is string => typeof x === 'string';
const isNumOrNull = (x: unknown): boolean => x === null || isNum(x);

function isUser(x: Obj): boolean {
  return (
    isNum(x.id) &&
    isStr(x.username) &&
    typeof x.scratchteam === 'boolean' &&
    isObject(x.history) &&
    isStr(x.history.joined) &&
    isObject(x.profile) &&
    // `profile.status` tells a user from a project's author block (which has no status).
    isStr(x.profile.status)
  );
}

function isProject(x: Obj): boolean {
  return (
    isNum(x.id) &&
    isStr(x.title) &&
    isObject(x.author) &&
    // Rows of a user's own projects carry an author without `username` (WIRE.md §10).
    (isStr(x.author.username) || isNum(x.author.id)) &&
    isObject(x.stats) &&
    isNum(x.stats.views) &&
    isObject(x.history)
  );
}

function isStudio(x: Obj): boolean {
  return (
    isNum(x.id) &&
    isStr(x.title) &&
    isNum(x.host) &&
    isObject(x.stats) &&
    isNum(x.stats.followers) &&
    isObject(x.history)
  );
}

function isComment(x: Obj): boolean {
  return (
    isNum(x.id) &&
    isStr(x.content) &&
    isStr(x.datetime_created) &&
    isNumOrNull(x.parent_id) &&
    isNum(x.reply_count) &&
    isObject(x.author) &&
    (isStr(x.author.username) || isNum(x.author.id))
  );
}

function isStudioProject(x: Obj): boolean {
  return isNum(x.id) && isStr(x.title) && isNum(x.creator_id) && isStr(x.username) && isNum(x.actor_id);
}

const LOG_VERBS = new Set(['set', 'create', 'delete', 'rename']);

function isLogEntry(x: Obj): boolean {
  return (
    isStr(x.user) &&
    isStr(x.verb) &&
    LOG_VERBS.has(x.verb) &&
    isStr(x.name) &&
    isStr(x.value) &&
    isNum(x.timestamp)
  );
}

/** Someone did something at some time: `type`, `actor_username`, `datetime_created`, and no comment text. */
function isActivity(x: Obj): boolean {
  return isStr(x.type) && isStr(x.actor_username) && isStr(x.datetime_created) && x.content === undefined;
}

/** A row of a category's topic list (`session.forums.topics()`). */
function isForumTopic(x: Obj): boolean {
  return isNum(x.id) && isStr(x.title) && isNum(x.replies) && isNum(x.views) && isObject(x.lastPost);
}

/** A post of a topic (`session.forums.posts()`). */
function isForumPost(x: Obj): boolean {
  return (
    isNum(x.id) && isNum(x.topicId) && isNum(x.index) && isStr(x.author) && isStr(x.text) && isStr(x.html)
  );
}

function isClassroom(x: Obj): boolean {
  return (
    isNum(x.id) &&
    isStr(x.title) &&
    isStr(x.status) &&
    typeof x.closed === 'boolean' &&
    isObject(x.educator) &&
    isStr(x.educator.username)
  );
}

function isClassroomRow(x: Obj): boolean {
  return (
    isNum(x.pk) &&
    isObject(x.fields) &&
    isStr(x.fields.title) &&
    isStr(x.fields.token) &&
    isObject(x.fields.educator_profile)
  );
}

function isProjectAnalysis(x: Obj): boolean {
  return (
    isObject(x.summary) && isObject(x.ct) && isObject(x.metrics) && isObject(x.smells) && isNum(x.ct.total)
  );
}

function isProfileTotals(x: Obj): boolean {
  return (
    isStr(x.username) &&
    ['followers', 'following', 'projects', 'studios', 'favorites', 'loves'].every((key) => isNum(x[key]))
  );
}

/** Exactly `{id, title, author}`: a richer record with these fields is a project of its own kind. */
function isLovedProject(x: Obj): boolean {
  return isNum(x.id) && isStr(x.title) && isStr(x.author) && Object.keys(x).length === 3;
}

const RANKS = new Set(['new-scratcher', 'scratcher', 'scratch-team']);

function isUserRank(x: Obj): boolean {
  return (
    isStr(x.username) &&
    isStr(x.rank) &&
    RANKS.has(x.rank) &&
    (x.membership === null || typeof x.membership === 'boolean')
  );
}

/** Exactly `{username, id, name}`, as the credits list them. */
function isTeamMember(x: Obj): boolean {
  return (
    (x.username === null || isStr(x.username)) &&
    (x.id === null || isNum(x.id)) &&
    isStr(x.name) &&
    Object.keys(x).length === 3
  );
}

function isBackpackItem(x: Obj): boolean {
  return ['id', 'type', 'mime', 'name', 'body', 'thumbnail'].every((key) => isStr(x[key]));
}

// Order matters only where shapes could overlap; none of these checks accept another kind's
// required fields, but the most specific ones go first anyway.
const CHECKS: ReadonlyArray<readonly [RecordKind, (x: Obj) => boolean]> = [
  ['logEntry', isLogEntry],
  ['comment', isComment],
  ['activity', isActivity],
  ['studioProject', isStudioProject],
  ['project', isProject],
  ['studio', isStudio],
  ['user', isUser],
  ['forumTopic', isForumTopic],
  ['forumPost', isForumPost],
  ['classroom', isClassroom],
  ['classroomRow', isClassroomRow],
  ['backpackItem', isBackpackItem],
  ['projectAnalysis', isProjectAnalysis],
  ['profileTotals', isProfileTotals],
  ['lovedProject', isLovedProject],
  ['userRank', isUserRank],
  ['teamMember', isTeamMember],
];

function kindOfOne(x: unknown): RecordKind | null {
  if (!isObject(x)) return null;
  for (const [kind, check] of CHECKS) if (check(x)) return kind;
  return null;
}

/**
 * The kind of record `x` is, or `null` if it is none of them.
 *
 * For an array, the kind all its elements share (search results are arrays of projects or
 * studios); `null` for an empty array or one that mixes kinds or holds anything else.
 */
export function recordKind(x: unknown): RecordKind | null {
  if (!Array.isArray(x)) return kindOfOne(x);
  if (x.length === 0) return null;
  const first = kindOfOne(x[0]);
  if (first === null) return null;
  for (let i = 1; i < x.length; i++) if (kindOfOne(x[i]) !== first) return null;
  return first;
}

/** Whether `x` is a record of the given kind (a type guard). */
export function isRecordOfKind<K extends RecordKind>(x: unknown, kind: K): x is RecordOfKind[K] {
  return !Array.isArray(x) && kindOfOne(x) === kind;
}
