import type { ClientCore } from '../client-core.js';
import { PagedList, type PageOptions, type WalkOptions } from '../paging.js';

/** Page options of a list, plus the walk options its iteration uses. */
export type ListOptions = PageOptions & WalkOptions;

/** Base of every resource group: a thin view over its client's HTTP helpers ({@link ClientCore}). */
export abstract class Resource {
  /** The client (a `Session`), seen through the narrow interface resources need. */
  protected readonly session: ClientCore;

  constructor(session: ClientCore) {
    this.session = session;
  }

  /** A paged list over `{api}{path}`; `query` is sent with every page. */
  protected list<T>(
    path: string | (() => Promise<string>),
    options: ListOptions = {},
    query: Record<string, string | undefined> = {},
    settings: { owner?: string } = {},
  ): PagedList<T> {
    const { limit, offset, ...walk } = options ?? {};
    let resolved: Promise<string> | undefined;
    const pathOf = () => {
      if (typeof path === 'string') return Promise.resolve(path);
      resolved ??= path();
      return resolved;
    };
    return new PagedList<T>(
      async (pageLimit, pageOffset, signal) =>
        this.session.apiGet<T[]>(await pathOf(), { ...query, limit: pageLimit, offset: pageOffset }, signal),
      { limit, offset },
      walk,
      { ...settings, watchRateLimits: (listener) => this.session.http.watchRateLimits(listener) },
    );
  }
}
