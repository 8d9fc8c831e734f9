/** The answers of the site's statistics (WIRE.md §11.7), built at request time from the seed. */
import type { StatisticsSeed } from '../state/site-statistics.js';
import type { Store } from '../state/store.js';

/** `GET {site}/statistics/data/daily/`: the seeded totals plus what the sandbox holds. */
export function dailyAnswer(seed: StatisticsSeed, store: Store, now = Date.now()): Record<string, number> {
  const count = (lists: Map<number, readonly unknown[]>) => {
    let n = 0;
    for (const list of lists.values()) n += list.length;
    return n;
  };
  const projectComments = seed.base.projectComments + count(store.projectComments);
  const studioComments = seed.base.studioComments + count(store.studioComments);
  const profileComments = seed.base.profileComments;
  return {
    PROJECT_COUNT: seed.base.projects + store.projects.size,
    USER_COUNT: seed.base.users + store.users.size,
    STUDIO_COUNT: seed.base.studios + store.studios.size,
    COMMENT_COUNT: projectComments + studioComments + profileComments,
    PROJECT_COMMENT_COUNT: projectComments,
    PROFILE_COMMENT_COUNT: profileComments,
    STUDIO_COMMENT_COUNT: studioComments,
    _TS: now / 1000,
  };
}

/** `GET {site}/statistics/data/monthly/`. */
export function monthlyAnswer(seed: StatisticsSeed): Record<string, unknown> {
  return { _TS: seed.computedAt / 1000, ...seed.monthly };
}

/** `GET {site}/statistics/data/monthly-ga/`: the three counts as digit strings, as the real one. */
export function monthlyGaAnswer(seed: StatisticsSeed): Record<string, string | number> {
  return {
    _TS: seed.computedAt / 1000,
    pageviews: String(seed.monthlyGa.pageviews),
    users: String(seed.monthlyGa.users),
    sessions: String(seed.monthlyGa.sessions),
  };
}
