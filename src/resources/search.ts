import type { PagedList } from '../http/paging.js';
import type { Project, Studio } from '../records/records.js';
import { assertLanguage, assertString } from '../records/validate.js';
import { type ListOptions, Resource } from './resource.js';

/** How results are ordered: by all-time popularity, or by recent activity. */
export type SearchMode = 'popular' | 'trending';

/** Options of search and explore. */
export interface SearchOptions extends ListOptions {
  /** `popular` (default) or `trending`. */
  mode?: SearchMode;
  /** A language code such as `en` or `de`. */
  language?: string;
}

const MODES: readonly SearchMode[] = ['popular', 'trending'];

/** Search (`{api}/search/…`) and explore (`{api}/explore/…`). */
export class Search extends Resource {
  /** Projects matching a query. */
  projects(query: string, options?: SearchOptions): PagedList<Project> {
    return this.#list<Project>('search', 'projects', query, options);
  }

  /** Studios matching a query. */
  studios(query: string, options?: SearchOptions): PagedList<Studio> {
    return this.#list<Studio>('search', 'studios', query, options);
  }

  /** Projects of a category (`games`, `animations`, … or `*` for everything, the default). */
  exploreProjects(query = '*', options?: SearchOptions): PagedList<Project> {
    return this.#list<Project>('explore', 'projects', query, options);
  }

  /** Studios of a category (`*` for everything, the default). */
  exploreStudios(query = '*', options?: SearchOptions): PagedList<Studio> {
    return this.#list<Studio>('explore', 'studios', query, options);
  }

  #list<T>(
    kind: 'search' | 'explore',
    what: string,
    query: string,
    options: SearchOptions = {},
  ): PagedList<T> {
    assertString(query, 'query');
    const { mode, language, ...rest } = options ?? {};
    if (mode !== undefined && !MODES.includes(mode)) {
      throw new RangeError(`mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(mode)}`);
    }
    if (language !== undefined) assertLanguage(language);
    return this.list<T>(`/${kind}/${what}`, rest, { q: query, mode: mode ?? 'popular', language });
  }
}
