/** Cell values of the tables and the column builders every kind's columns share. */
import type { Cell, Column } from './column.js';
import { formatCount, formatDate } from './format.js';

export const userPath = (username: string): string => `/users/${encodeURIComponent(username)}/`;

export const count = (v: Cell): string =>
  typeof v === 'number' ? formatCount(v) : v === null || v === undefined ? '' : String(v);
/** A field that may be missing on the wire, as a cell. */
export const cell = (v: unknown): Cell =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
export const date = (v: unknown): Cell => (typeof v === 'string' ? formatDate(v) : null);
export const linkTo = (path: (x: string) => string, name: Cell): string | null =>
  typeof name === 'string' && name !== '' && !name.startsWith('#') ? path(name) : null;

/** How the `id` and `title` of a record are read, where they are not its own `id` and `title`. */
interface IdTitleReader<R> {
  id(record: R): number;
  title(record: R): unknown;
}

/**
 * The `id` and `title` columns of a record with a page at `path(id)`, both linked to it; `read`
 * says where they are when the record names them otherwise (a class list row's `pk`).
 */
export function idAndTitle<R extends { id: number; title?: unknown }>(
  path: (id: number) => string,
): Column<R>[];
export function idAndTitle<R>(path: (id: number) => string, read: IdTitleReader<R>): Column<R>[];
export function idAndTitle<R>(
  path: (id: number) => string,
  read: IdTitleReader<R> = {
    id: (r) => (r as { id: number }).id,
    title: (r) => (r as { title?: unknown }).title,
  },
): Column<R>[] {
  return [
    {
      key: 'id',
      header: 'id',
      align: 'right',
      priority: 80,
      get: (r) => cell(read.id(r)),
      href: (r) => path(read.id(r)),
    },
    {
      key: 'title',
      header: 'title',
      priority: 100,
      maxWidth: 40,
      minWidth: 16,
      get: (r) => cell(read.title(r)),
      href: (r) => path(read.id(r)),
    },
  ];
}

/** A column of usernames (at most 20 wide), each linked to its profile. */
export function userColumn<R>(key: string, priority: number, get: (record: R) => unknown): Column<R> {
  return {
    key,
    header: key,
    priority,
    maxWidth: 20,
    get: (r) => cell(get(r)),
    href: (r) => linkTo(userPath, cell(get(r))),
  };
}

/** A right-aligned count column (`1,234`), the header being its key. */
export function countColumn<R>(key: string, priority: number, get: (record: R) => unknown): Column<R> {
  return { key, header: key, align: 'right', priority, get: (r) => cell(get(r)), format: count };
}
