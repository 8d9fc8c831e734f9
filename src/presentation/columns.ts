/**
 * Which columns each kind of record gets: the platform semantics of the tables.
 *
 * Hand-written per kind, because what a person wants to see (a project's author and loves, not its
 * image URLs) is a judgement no generic key walk makes.
 */
import { describeActivity } from './activity-rows.js';
import { type Cell, cell, count, date, idTitleColumns, linkTo, userPath } from './cells.js';
import { CLASS_AND_BACKPACK_COLUMNS } from './class-columns.js';
import type { RecordKind, RecordOfKind } from './detect.js';
import { formatTimestamp } from './format.js';
import { userLabel } from './known-users.js';

export type { Cell } from './cells.js';

/** What a table knows besides its records. */
export interface ColumnContext {
  /**
   * Whose list the records are, when it is one user's own (`users.projects(u)`): rows of such a
   * list name no author (WIRE.md §10), so the author column shows this username.
   */
  readonly owner?: string;
}

/** What renderers need to know about a column (everything but how to read a record). */
export interface ColumnSpec {
  /** Stable identifier, e.g. `"views"`. */
  readonly key: string;
  /** Header text. */
  readonly header: string;
  /** Numbers are right-aligned; text defaults to left. */
  readonly align?: 'left' | 'right';
  /** Longest a cell may be shown (in terminal columns); longer text is cut with `…`. */
  readonly maxWidth?: number;
  /** Narrowest the column may shrink to before it is dropped instead (text columns only). */
  readonly minWidth?: number;
  /**
   * How much the column matters: when the terminal is too narrow, the columns with the lowest
   * priority are dropped first.
   */
  readonly priority: number;
}

/** A column of a table of records of type `R`. */
export interface Column<R> extends ColumnSpec {
  /**
   * The raw value of this column for a record. Never throws on the shapes real answers have:
   * fields WIRE.md §10 says may be missing or null give `null`.
   */
  get(record: R, context: ColumnContext): Cell;
  /** Cell text for a raw value; the default shows numbers as-is, booleans as `yes`/`no`. */
  format?(value: Cell): string;
  /** A site-relative link for the cell (e.g. `/users/alice/`), used by the HTML renderer. */
  href?(record: R, context: ColumnContext): string | null;
  /**
   * A flag column left out of a table of several records that all share one value (every row of
   * a search is public): it would say nothing.
   */
  readonly dropIfUniform?: boolean;
}

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
    {
      key: 'username',
      header: 'username',
      priority: 100,
      maxWidth: 20,
      get: (u) => cell(u.username),
      href: (u) => linkTo(userPath, cell(u.username)),
    },
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
    ...idTitleColumns<RecordOfKind['project']>({ id: (p) => p.id, title: (p) => p.title, path: projectPath }),
    {
      key: 'author',
      header: 'author',
      priority: 90,
      maxWidth: 20,
      get: projectAuthor,
      href: (p, context) => linkTo(userPath, projectAuthor(p, context)),
    },
    {
      key: 'views',
      header: 'views',
      align: 'right',
      priority: 70,
      get: (p) => cell(p.stats?.views),
      format: count,
    },
    {
      key: 'loves',
      header: 'loves',
      align: 'right',
      priority: 60,
      get: (p) => cell(p.stats?.loves),
      format: count,
    },
    {
      key: 'favorites',
      header: 'favorites',
      align: 'right',
      priority: 40,
      get: (p) => cell(p.stats?.favorites),
      format: count,
    },
    {
      key: 'remixes',
      header: 'remixes',
      align: 'right',
      priority: 30,
      get: (p) => cell(p.stats?.remixes),
      format: count,
    },
    // `null` while unshared: shown as an empty cell.
    { key: 'shared', header: 'shared', minWidth: 10, priority: 50, get: (p) => date(p.history?.shared) },
    { key: 'public', header: 'public', priority: 20, dropIfUniform: true, get: (p) => cell(p.public) },
  ],
  studio: [
    ...idTitleColumns<RecordOfKind['studio']>({ id: (s) => s.id, title: (s) => s.title, path: studioPath }),
    // The record only carries the host's user id: a username where one was seen, else `#id`.
    {
      key: 'host',
      header: 'host',
      priority: 50,
      maxWidth: 20,
      get: (s) => userLabel(s.host) || null,
      href: (s) => linkTo(userPath, userLabel(s.host)),
    },
    {
      key: 'projects',
      header: 'projects',
      align: 'right',
      priority: 70,
      get: (s) => cell(s.stats?.projects),
      format: count,
    },
    {
      key: 'followers',
      header: 'followers',
      align: 'right',
      priority: 60,
      get: (s) => cell(s.stats?.followers),
      format: count,
    },
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
    {
      key: 'replies',
      header: 'replies',
      align: 'right',
      priority: 60,
      get: (c) => cell(c.reply_count),
      format: count,
    },
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
    ...idTitleColumns<RecordOfKind['studioProject']>({
      id: (p) => p.id,
      title: (p) => p.title,
      path: projectPath,
    }),
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
    {
      key: 'actor',
      header: 'actor',
      priority: 90,
      maxWidth: 20,
      get: (a) => cell(a.actor_username),
      href: (a) => linkTo(userPath, cell(a.actor_username)),
    },
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
    {
      key: 'user',
      header: 'user',
      priority: 80,
      maxWidth: 20,
      get: (e) => cell(e.user),
      href: (e) => linkTo(userPath, cell(e.user)),
    },
    { key: 'verb', header: 'verb', priority: 50, get: (e) => cell(e.verb) },
    { key: 'name', header: 'name', priority: 90, maxWidth: 24, get: (e) => cell(e.name) },
    // Values are often long digit strings (text encoded for cloud variables): cut, not wrapped.
    { key: 'value', header: 'value', priority: 70, maxWidth: 30, get: (e) => cell(e.value) },
  ],
  ...CLASS_AND_BACKPACK_COLUMNS,
};

/** The columns shown for records of `kind`, in display order. */
export function columnsFor<K extends RecordKind>(kind: K): ReadonlyArray<Column<RecordOfKind[K]>> {
  return COLUMNS[kind];
}
