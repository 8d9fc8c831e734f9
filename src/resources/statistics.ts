/**
 * The site's statistics (WIRE.md §11.7, `{site}/statistics/data/…`, no login): daily totals,
 * monthly series and monthly visits, typed, with the digit strings of `monthly-ga` made numbers.
 */

import { ApiError } from '../errors.js';
import type { ClientCore } from '../http/client-core.js';

/** `GET {site}/statistics/data/daily/`: running totals of the whole site. */
export interface DailyStatistics {
  PROJECT_COUNT: number;
  USER_COUNT: number;
  STUDIO_COUNT: number;
  COMMENT_COUNT: number;
  PROJECT_COMMENT_COUNT: number;
  PROFILE_COMMENT_COUNT: number;
  STUDIO_COMMENT_COUNT: number;
  /** When they were computed, unix seconds (with a fraction). */
  _TS: number;
}

/** A point of a monthly series: `x` a time in ms since the epoch (for ages, the age). */
export interface StatisticsPoint {
  x: number;
  y: number;
}

/** One series of the monthly answer. Its `key` is a label the service chooses. */
export interface StatisticsSeries {
  key: string;
  color?: string;
  values: StatisticsPoint[];
}

/** `GET {site}/statistics/data/monthly/`. Series come in a fixed order, given per field. */
export interface MonthlyStatistics {
  _TS: number;
  /** New comments per month: on projects, studios, profiles. */
  comment_data: StatisticsSeries[];
  /** Per month: new projects, new users, new comments. */
  activity_data: StatisticsSeries[];
  /** Active users per month: project creators, commenters. */
  active_user_data: StatisticsSeries[];
  /** Per month: new projects, of which remixes. */
  project_data: StatisticsSeries[];
  /** Users by age at sign-up (`x` is the age). */
  age_distribution_data: StatisticsSeries[];
  /** Users by country name; the key `"0"` counts those without one. */
  country_distribution: Record<string, number>;
}

/** `GET {site}/statistics/data/monthly-ga/`, with its counts as numbers (the wire sends digit strings). */
export interface MonthlyGaStatistics {
  _TS: number;
  pageviews: number;
  users: number;
  sessions: number;
}

/** All three answers. */
export interface SiteStatistics {
  daily: DailyStatistics;
  monthly: MonthlyStatistics;
  monthlyGa: MonthlyGaStatistics;
}

/** A count as the wire may send it (a number, or a string of digits) made a number. */
function toCount(value: unknown, field: string, url: string): number {
  const number = typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    throw new ApiError({ status: 200, url, method: 'GET', reason: `${field} is not a number` });
  }
  return number;
}

/** Reads the three statistics answers (three requests, at once). */
export async function readStatistics(session: ClientCore, signal?: AbortSignal): Promise<SiteStatistics> {
  const url = (name: string) => `${session.hosts.site}/statistics/data/${name}/`;
  const [daily, monthly, ga] = await Promise.all([
    session.http.json<Record<string, unknown>>(url('daily'), { signal }),
    session.http.json<MonthlyStatistics>(url('monthly'), { signal }),
    session.http.json<Record<string, unknown>>(url('monthly-ga'), { signal }),
  ]);
  const numbers = <K extends string>(record: Record<string, unknown>, keys: readonly K[], from: string) =>
    Object.fromEntries(keys.map((key) => [key, toCount(record?.[key], key, from)])) as Record<K, number>;
  return {
    daily: numbers(
      daily,
      [
        'PROJECT_COUNT',
        'USER_COUNT',
        'STUDIO_COUNT',
        'COMMENT_COUNT',
        'PROJECT_COMMENT_COUNT',
        'PROFILE_COMMENT_COUNT',
        'STUDIO_COMMENT_COUNT',
        '_TS',
      ],
      url('daily'),
    ),
    monthly,
    monthlyGa: numbers(ga, ['_TS', 'pageviews', 'users', 'sessions'], url('monthly-ga')),
  };
}
