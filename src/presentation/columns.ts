/**
 * Which columns each kind of record gets: the platform semantics of the tables.
 *
 * Hand-written per kind, because what a person wants to see (a project's author and loves, not its
 * image URLs) is a judgement no generic key walk makes.
 */
import { describeActivity } from './activity-rows.js';
import { ANALYSIS_COLUMNS } from './analysis-columns.js';
import { cell, countColumn, date, idAndTitle, linkTo, userColumn, userPath } from './cells.js';
import { CLASS_AND_BACKPACK_COLUMNS } from './class-columns.js';
import type { Cell, Column, ColumnContext } from './column.js';
import type { RecordKind, RecordOfKind } from './detect.js';
import { formatTimestamp } from './format.js';
import { FORUM_POST_COLUMNS, FORUM_TOPIC_COLUMNS } from './forum-columns.js';
import { userLabel } from './known-users.js';
import { PROFILE_COLUMNS } from './profile-columns.js';

export type { Cell, Column, ColumnContext, ColumnSpec } from './column.js';

const projectPath = (id: number): string => `/projects/${id}/`;
const studioPath = (id: number): string => `/studios/${id}/`;

/** The 1900 placeholder of real answers (WIRE.md §10) says nothing: shown empty. */
function joined(v: unknown): Cell {
  return typeof v === 'string' && v.startsWith('1900-') ? null : date(v);
}

/** A project's author: its username, else the list owner's, else a known name or `#id`. */
function projectAuthor(p: RecordOfKind['project'], context: ColumnContext): Cell {
  const author = p.author as Partial<RecordOfKind['project']['author']> | undefined;
  if (typeof author?.username === 'string') return author.username;
  if (context.owner) return context.owner;
  return userLabel(author?.id) || null;
}

type Columns = { readonly [K in RecordKind]: ReadonlyArray<Column<RecordOfKind[K]>> };

const COLUMNS: Columns = {
  user: [
    userColumn('username', 100, (u) => u.username),
    { key: 'id', header: 'id', align: 'right', priority: 50, get: (u) => cell(u.id) },
    { key: 'country', header: 'country', priority: 60, maxWidth: 20, get: (u) => cell(u.profile?.country) },
    { key: 'joined', header: 'joined', minWidth: 10, priority: 40, get: (u) => joined(u.history?.joined) },
    { key: 'status', header: 'status', priority: 20, maxWidth: 30, get: (u) => cell(u.profile?.status) },
    {
      key: 'scratchteam',
      header: 'scratchteam',
      priority: 10,
      dropIfUniform: true,
      get: (u) => cell(u.scratchteam),
    },
  ],
  project: [
    ...idAndTitle(projectPath),
    {
      key: 'author',
      header: 'author',
      priority: 90,
      maxWidth: 20,
      get: projectAuthor,
      href: (p, context) => linkTo(userPath, projectAuthor(p, context)),
    },
    countColumn('views', 70, (p) => p.stats?.views),
    countColumn('loves', 60, (p) => p.stats?.loves),
    countColumn('favorites', 40, (p) => p.stats?.favorites),
    countColumn('remixes', 30, (p) => p.stats?.remixes),
    // `null` while unshared: shown as an empty cell.
    { key: 'shared', header: 'shared', minWidth: 10, priority: 50, get: (p) => date(p.history?.shared) },
    { key: 'public', header: 'public', priority: 20, dropIfUniform: true, get: (p) => cell(p.public) },
  ],
  studio: [
    ...idAndTitle(studioPath),
    // The record only carries the host's user id: a username where one was seen, else `#id`.
    {
      key: 'host',
      header: 'host',
      priority: 50,
      maxWidth: 20,
      get: (s) => userLabel(s.host) || null,
      href: (s) => linkTo(userPath, userLabel(s.host)),
    },
    countColumn('projects', 70, (s) => s.stats?.projects),
    countColumn('followers', 60, (s) => s.stats?.followers),
    {
      key: 'created',
      header: 'created',
      minWidth: 10,
      priority: 40,
      get: (s) => date(s.history?.created),
    },
  ],
  comment: [
    { key: 'id', header: 'id', align: 'right', priority: 50, get: (c) => cell(c.id) },
    {
      key: 'author',
      header: 'author',
      priority: 90,
      maxWidth: 20,
      get: (c) => userLabel(c.author?.id, c.author?.username) || null,
      href: (c) => linkTo(userPath, cell(c.author?.username)),
    },
    {
      key: 'content',
      header: 'content',
      priority: 100,
      maxWidth: 60,
      minWidth: 20,
      get: (c) => cell(c.content),
    },
    countColumn('replies', 60, (c) => c.reply_count),
    {
      key: 'created',
      header: 'created',
      minWidth: 10,
      priority: 70,
      get: (c) => date(c.datetime_created),
    },
    { key: 'parent', header: 'parent', align: 'right', priority: 30, get: (c) => cell(c.parent_id) },
  ],
  studioProject: [
    ...idAndTitle(projectPath),
    {
      key: 'author',
      header: 'author',
      priority: 90,
      maxWidth: 20,
      get: (p) => userLabel(p.creator_id, p.username) || null,
      href: (p) => linkTo(userPath, cell(p.username)),
    },
    // `actor_id` is the user who added the project to the studio: a name where one was seen.
    {
      key: 'addedBy',
      header: 'added by',
      priority: 20,
      maxWidth: 20,
      get: (p) =>
        (p.actor_id === p.creator_id ? userLabel(p.creator_id, p.username) : userLabel(p.actor_id)) || null,
    },
  ],
  // Messages, studio activity, the feed and a profile's activity: who did what on what, when.
  activity: [
    userColumn('actor', 90, (a) => a.actor_username),
    {
      key: 'what',
      header: 'what',
      priority: 100,
      maxWidth: 40,
      minWidth: 12,
      get: (a) => describeActivity(a as unknown as Record<string, unknown>).what,
    },
    {
      key: 'on',
      header: 'on',
      priority: 80,
      maxWidth: 36,
      minWidth: 12,
      get: (a) => describeActivity(a as unknown as Record<string, unknown>).on,
      href: (a) => describeActivity(a as unknown as Record<string, unknown>).onPath,
    },
    {
      key: 'when',
      header: 'when (UTC)',
      minWidth: 16,
      priority: 70,
      get: (a) => cell(a.datetime_created),
      format: (v) =>
        typeof v === 'string' && !Number.isNaN(Date.parse(v))
          ? formatTimestamp(Date.parse(v)).slice(0, 16)
          : '',
    },
    { key: 'type', header: 'type', priority: 10, maxWidth: 20, get: (a) => cell(a.type) },
  ],
  logEntry: [
    {
      key: 'time',
      header: 'time (UTC)',
      minWidth: 19,
      priority: 100,
      get: (e) => cell(e.timestamp),
      format: (v) => (typeof v === 'number' ? formatTimestamp(v) : ''),
    },
    userColumn('user', 80, (e) => e.user),
    { key: 'verb', header: 'verb', priority: 50, get: (e) => cell(e.verb) },
    { key: 'name', header: 'name', priority: 90, maxWidth: 24, get: (e) => cell(e.name) },
    // Values are often long digit strings (text encoded for cloud variables): cut, not wrapped.
    { key: 'value', header: 'value', priority: 70, maxWidth: 30, get: (e) => cell(e.value) },
  ],
  forumTopic: FORUM_TOPIC_COLUMNS,
  forumPost: FORUM_POST_COLUMNS,
  ...CLASS_AND_BACKPACK_COLUMNS,
  projectAnalysis: ANALYSIS_COLUMNS,
  ...PROFILE_COLUMNS,
};

/** The columns shown for records of `kind`, in display order. */
export function columnsFor<K extends RecordKind>(kind: K): ReadonlyArray<Column<RecordOfKind[K]>> {
  return COLUMNS[kind];
}
