import type { ClientCore } from '../http/client-core.js';
import { PagedList, type PageOptions, type WalkOptions } from '../http/paging.js';

/** Page options of a list, plus the walk options its iteration uses. */
export type ListOptions = PageOptions & WalkOptions;

/** A paged list over `{api}{path}`; `query` is sent with every page. */
export function apiList<T>(
  session: ClientCore,
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
      session.apiGet<T[]>(await pathOf(), { ...query, limit: pageLimit, offset: pageOffset }, signal),
    { limit, offset },
    walk,
    { ...settings, watchRateLimits: (listener) => session.http.watchRateLimits(listener) },
  );
}

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
    return apiList<T>(this.session, path, options, query, settings);
  }
}
