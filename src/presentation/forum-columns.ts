/**
 * The columns of forum topics and posts (`session.forums.topics()`, `.posts()`): what a person
 * reading a forum wants to see, with links back to the site's pages.
 */
import type { ForumPost, ForumTopic } from '../records/forum-records.js';
import { countColumn, userColumn } from './cells.js';
import type { Cell, Column } from './column.js';
import { formatTimestamp, oneLine } from './format.js';

const topicPath = (id: number): string => `/discuss/topic/${id}/`;
const postPath = (id: number): string => `/discuss/post/${id}/`;
/** A `Date` (or one a JSON copy made a string) as milliseconds, for a time column. */
const ms = (v: unknown): Cell => {
  const time = v instanceof Date ? v.getTime() : typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isNaN(time) ? null : time;
};
const time = (v: Cell): string => (typeof v === 'number' ? formatTimestamp(v).slice(0, 16) : '');

/** A category's topics. */
export const FORUM_TOPIC_COLUMNS: ReadonlyArray<Column<ForumTopic>> = [
  { key: 'id', header: 'id', align: 'right', priority: 60, get: (t) => t.id, href: (t) => topicPath(t.id) },
  {
    key: 'title',
    header: 'title',
    priority: 100,
    maxWidth: 44,
    minWidth: 16,
    get: (t) => t.title,
    href: (t) => topicPath(t.id),
  },
  userColumn('author', 80, (t) => t.author),
  countColumn('replies', 90, (t) => t.replies),
  countColumn('views', 70, (t) => t.views),
  {
    key: 'lastPost',
    header: 'last post (UTC)',
    minWidth: 16,
    priority: 75,
    get: (t) => ms(t.lastPost?.time),
    format: time,
  },
  { key: 'sticky', header: 'sticky', priority: 20, dropIfUniform: true, get: (t) => t.sticky },
];

/** A topic's posts. */
export const FORUM_POST_COLUMNS: ReadonlyArray<Column<ForumPost>> = [
  {
    key: 'index',
    header: '#',
    align: 'right',
    priority: 90,
    get: (p) => p.index,
    href: (p) => postPath(p.id),
  },
  userColumn('author', 95, (p) => p.author),
  { key: 'time', header: 'time (UTC)', minWidth: 16, priority: 80, get: (p) => ms(p.time), format: time },
  {
    key: 'text',
    header: 'text',
    priority: 100,
    maxWidth: 60,
    minWidth: 20,
    get: (p) => (typeof p.text === 'string' ? oneLine(p.text) : null),
  },
  {
    key: 'edited',
    header: 'edited by',
    priority: 20,
    maxWidth: 20,
    dropIfUniform: true,
    get: (p) => p.editedBy,
  },
  { key: 'id', header: 'id', align: 'right', priority: 30, get: (p) => p.id, href: (p) => postPath(p.id) },
];
