/**
 * Which columns each kind of record gets: the platform semantics of the tables.
 *
 * Hand-written per kind, because what a person wants to see (a project's author and loves, not its
 * image URLs) is a judgement no generic key walk makes.
 */
import type { RecordKind, RecordOfKind } from './detect.js';
import { formatCount, formatDate, formatTimestamp } from './format.js';

/** A raw cell value, before formatting. */
export type Cell = string | number | boolean | null;

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
  /** The raw value of this column for a record. */
  get(record: R): Cell;
  /** Cell text for a raw value; the default shows numbers as-is, booleans as `yes`/`no`. */
  format?(value: Cell): string;
  /** A site-relative link for the cell (e.g. `/users/alice/`), used by the HTML renderer. */
  href?(record: R): string | null;
}

const userPath = (username: string): string => `/users/${encodeURIComponent(username)}/`;
const projectPath = (id: number): string => `/projects/${id}/`;
const studioPath = (id: number): string => `/studios/${id}/`;

const count = (v: Cell): string => (typeof v === 'number' ? formatCount(v) : v === null ? '' : String(v));

type Columns = { readonly [K in RecordKind]: ReadonlyArray<Column<RecordOfKind[K]>> };

const COLUMNS: Columns = {
  user: [
    {
      key: 'username',
      header: 'username',
      priority: 100,
      maxWidth: 20,
      get: (u) => u.username,
      href: (u) => userPath(u.username),
    },
    { key: 'id', header: 'id', align: 'right', priority: 50, get: (u) => u.id },
    { key: 'country', header: 'country', priority: 60, maxWidth: 20, get: (u) => u.profile.country },
    { key: 'joined', header: 'joined', minWidth: 10, priority: 40, get: (u) => formatDate(u.history.joined) },
    { key: 'status', header: 'status', priority: 20, maxWidth: 30, get: (u) => u.profile.status },
    { key: 'scratchteam', header: 'scratchteam', priority: 10, get: (u) => u.scratchteam },
  ],
  project: [
    {
      key: 'id',
      header: 'id',
      align: 'right',
      priority: 80,
      get: (p) => p.id,
      href: (p) => projectPath(p.id),
    },
    {
      key: 'title',
      header: 'title',
      priority: 100,
      maxWidth: 40,
      minWidth: 16,
      get: (p) => p.title,
      href: (p) => projectPath(p.id),
    },
    {
      key: 'author',
      header: 'author',
      priority: 90,
      maxWidth: 20,
      get: (p) => p.author.username,
      href: (p) => userPath(p.author.username),
    },
    { key: 'views', header: 'views', align: 'right', priority: 70, get: (p) => p.stats.views, format: count },
    { key: 'loves', header: 'loves', align: 'right', priority: 60, get: (p) => p.stats.loves, format: count },
    {
      key: 'favorites',
      header: 'favorites',
      align: 'right',
      priority: 40,
      get: (p) => p.stats.favorites,
      format: count,
    },
    {
      key: 'remixes',
      header: 'remixes',
      align: 'right',
      priority: 30,
      get: (p) => p.stats.remixes,
      format: count,
    },
    // `null` while unshared: shown as an empty cell.
    { key: 'shared', header: 'shared', minWidth: 10, priority: 50, get: (p) => formatDate(p.history.shared) },
    { key: 'public', header: 'public', priority: 20, get: (p) => p.public },
  ],
  studio: [
    {
      key: 'id',
      header: 'id',
      align: 'right',
      priority: 80,
      get: (s) => s.id,
      href: (s) => studioPath(s.id),
    },
    {
      key: 'title',
      header: 'title',
      priority: 100,
      maxWidth: 40,
      minWidth: 16,
      get: (s) => s.title,
      href: (s) => studioPath(s.id),
    },
    // The record only carries the host's user id, not a username.
    { key: 'host', header: 'host id', align: 'right', priority: 50, get: (s) => s.host },
    {
      key: 'projects',
      header: 'projects',
      align: 'right',
      priority: 70,
      get: (s) => s.stats.projects,
      format: count,
    },
    {
      key: 'followers',
      header: 'followers',
      align: 'right',
      priority: 60,
      get: (s) => s.stats.followers,
      format: count,
    },
    {
      key: 'created',
      header: 'created',
      minWidth: 10,
      priority: 40,
      get: (s) => formatDate(s.history.created),
    },
  ],
  comment: [
    { key: 'id', header: 'id', align: 'right', priority: 50, get: (c) => c.id },
    {
      key: 'author',
      header: 'author',
      priority: 90,
      maxWidth: 20,
      get: (c) => c.author.username,
      href: (c) => userPath(c.author.username),
    },
    { key: 'content', header: 'content', priority: 100, maxWidth: 60, minWidth: 20, get: (c) => c.content },
    {
      key: 'replies',
      header: 'replies',
      align: 'right',
      priority: 60,
      get: (c) => c.reply_count,
      format: count,
    },
    {
      key: 'created',
      header: 'created',
      minWidth: 10,
      priority: 70,
      get: (c) => formatDate(c.datetime_created),
    },
    { key: 'parent', header: 'parent', align: 'right', priority: 30, get: (c) => c.parent_id },
  ],
  studioProject: [
    {
      key: 'id',
      header: 'id',
      align: 'right',
      priority: 80,
      get: (p) => p.id,
      href: (p) => projectPath(p.id),
    },
    {
      key: 'title',
      header: 'title',
      priority: 100,
      maxWidth: 40,
      minWidth: 16,
      get: (p) => p.title,
      href: (p) => projectPath(p.id),
    },
    {
      key: 'author',
      header: 'author',
      priority: 90,
      maxWidth: 20,
      get: (p) => p.username,
      href: (p) => userPath(p.username),
    },
    { key: 'authorId', header: 'author id', align: 'right', priority: 30, get: (p) => p.creator_id },
    // `actor_id` is the user who added the project to the studio.
    { key: 'addedBy', header: 'added by', align: 'right', priority: 20, get: (p) => p.actor_id },
  ],
  logEntry: [
    {
      key: 'time',
      header: 'time (UTC)',
      minWidth: 19,
      priority: 100,
      get: (e) => e.timestamp,
      format: (v) => (typeof v === 'number' ? formatTimestamp(v) : ''),
    },
    {
      key: 'user',
      header: 'user',
      priority: 80,
      maxWidth: 20,
      get: (e) => e.user,
      href: (e) => userPath(e.user),
    },
    { key: 'verb', header: 'verb', priority: 50, get: (e) => e.verb },
    { key: 'name', header: 'name', priority: 90, maxWidth: 24, get: (e) => e.name },
    // Values are often long digit strings (text encoded for cloud variables): cut, not wrapped.
    { key: 'value', header: 'value', priority: 70, maxWidth: 30, get: (e) => e.value },
  ],
};

/** The columns shown for records of `kind`, in display order. */
export function columnsFor<K extends RecordKind>(kind: K): ReadonlyArray<Column<RecordOfKind[K]>> {
  return COLUMNS[kind];
}
