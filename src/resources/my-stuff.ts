/**
 * "My Stuff" (WIRE.md §12.4): the logged-in user's projects (shared, unshared, trashed) and
 * studios, sorted as the site sorts them, and the page's counts.
 */
import type { ClientCore } from '../http/client-core.js';
import { readHtmlAnswer } from '../http/html-answer.js';
import { parseMyStuffCounts } from '../records/my-stuff-html.js';
import type { MyStuffCounts, MyStuffProject, MyStuffStudio } from '../records/my-stuff-records.js';
import { assertBoolean, assertObject } from '../records/validate.js';
import type { RecordList } from '../rows/record-list.js';
import { readSitePages, type SitePageOptions } from './site-pages.js';

/** Options of `myStuff.projects`. */
export interface MyStuffProjectOptions extends SitePageOptions {
  /** Which projects (default `all`). */
  filter?: 'all' | 'shared' | 'unshared' | 'trashed';
  /** Order (default `modified`: last modified first). */
  sort?: 'modified' | 'views' | 'loves' | 'remixes' | 'title';
  /** Largest first (default true; for `title`, Z-A). */
  descending?: boolean;
}

/** Options of `myStuff.studios`. */
export interface MyStuffStudioOptions extends SitePageOptions {
  /** Which studios (default `all`). */
  filter?: 'all' | 'owned' | 'curated';
}

const PROJECT_FILTERS = ['all', 'shared', 'unshared', 'trashed'];
/** The site's name of each filter in the URL: unshared projects are `notshared` (WIRE.md §12.7). */
const PROJECT_FILTER_PATHS: Readonly<Record<string, string>> = { unshared: 'notshared' };
const STUDIO_FILTERS = ['all', 'owned', 'curated'];
const SORT_KEYS = new Map([
  ['modified', ''],
  ['views', 'view_count'],
  ['loves', 'love_count'],
  ['remixes', 'remixers_count'],
  ['title', 'title'],
]);

/** "My Stuff" of the logged-in user. */
export class MyStuff {
  /** The client, seen through the narrow interface resources need. */
  protected readonly session: ClientCore;

  constructor(session: ClientCore) {
    this.session = session;
  }

  /** Your projects, every page. */
  async projects(options: MyStuffProjectOptions = {}): Promise<RecordList<MyStuffProject>> {
    assertObject(options, 'options');
    const filter = oneOf(options.filter ?? 'all', 'filter', PROJECT_FILTERS);
    const key = SORT_KEYS.get(oneOf(options.sort ?? 'modified', 'sort', [...SORT_KEYS.keys()]))!;
    const descending =
      options.descending === undefined ? true : assertBoolean(options.descending, 'descending');
    this.session.requireAuth('myStuff.projects');
    const sort = descending ? { descsort: key, ascsort: '' } : { ascsort: key, descsort: '' };
    const path = PROJECT_FILTER_PATHS[filter] ?? filter;
    return this.#pages<MyStuffProject>(`/site-api/projects/${path}/`, sort, options);
  }

  /** Your studios, every page. */
  async studios(options: MyStuffStudioOptions = {}): Promise<RecordList<MyStuffStudio>> {
    assertObject(options, 'options');
    const filter = oneOf(options.filter ?? 'all', 'filter', STUDIO_FILTERS);
    this.session.requireAuth('myStuff.studios');
    return this.#pages<MyStuffStudio>(`/site-api/galleries/${filter}/`, {}, options);
  }

  /** The counts the page shows: shared and unshared projects, studios. */
  async counts(options: { signal?: AbortSignal } = {}): Promise<MyStuffCounts> {
    assertObject(options, 'options');
    this.session.requireAuth('myStuff.counts');
    const answer = await this.session.authedFetch(`${this.session.hosts.site}/mystuff/`, {
      signal: options.signal,
    });
    return readHtmlAnswer(this.session, answer, 'GET', parseMyStuffCounts);
  }

  #pages<T>(path: string, query: Record<string, string>, options: SitePageOptions): Promise<RecordList<T>> {
    const url = `${this.session.hosts.site}${path}`;
    return readSitePages(
      (page, signal) => this.session.authedJson<T[]>(url, { query: { page, ...query }, signal }),
      options,
    );
  }
}

function oneOf(value: unknown, name: string, allowed: readonly string[]): string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string`);
  if (!allowed.includes(value))
    throw new RangeError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value;
}
