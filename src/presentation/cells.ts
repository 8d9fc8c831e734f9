/** Cell values of the tables and the small readers every kind's columns share. */
import { formatCount, formatDate } from './format.js';

/** A raw cell value, before formatting. */
export type Cell = string | number | boolean | null;

export const userPath = (username: string): string => `/users/${encodeURIComponent(username)}/`;

export const count = (v: Cell): string =>
  typeof v === 'number' ? formatCount(v) : v === null || v === undefined ? '' : String(v);
/** A field that may be missing on the wire, as a cell. */
export const cell = (v: unknown): Cell =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : null;
export const date = (v: unknown): Cell => (typeof v === 'string' ? formatDate(v) : null);
export const linkTo = (path: (x: string) => string, name: Cell): string | null =>
  typeof name === 'string' && name !== '' && !name.startsWith('#') ? path(name) : null;

/** What the id and title columns of a kind need: each record's id, title, and page path. */
export interface IdTitle<R> {
  id: (record: R) => number;
  title: (record: R) => unknown;
  path: (id: number) => string;
}

/** The `id` and `title` columns of a kind whose records have a page: both link to it. */
export function idTitleColumns<R>({ id, title, path }: IdTitle<R>) {
  return [
    {
      key: 'id',
      header: 'id',
      align: 'right',
      priority: 80,
      get: (r: R) => cell(id(r)),
      href: (r: R) => path(id(r)),
    },
    {
      key: 'title',
      header: 'title',
      priority: 100,
      maxWidth: 40,
      minWidth: 16,
      get: (r: R) => cell(title(r)),
      href: (r: R) => path(id(r)),
    },
  ] as const;
}
