/**
 * The site's statistics (WIRE.md §11.7), seeded: monthly series from the site's opening to the
 * seed's "now", and daily totals that start from the seeded history and count what the sandbox
 * holds on top of it (a new comment raises COMMENT_COUNT). Shapes as the real answers: `_TS` in
 * float unix seconds, the monthly-ga counts as digit strings, series of `{key, color, values}`.
 */
import type { Random } from '../seed/random.js';

/** One series of the monthly answer: `x` in ms since the epoch (the age, for ages). */
interface WireSeries {
  key: string;
  color?: string;
  values: { x: number; y: number }[];
}

/** What the seed fixes; the answers are built from it at request time. */
export interface StatisticsSeed {
  /** Totals of the whole site before the sandbox's own rows are counted. */
  base: {
    projects: number;
    users: number;
    studios: number;
    projectComments: number;
    profileComments: number;
    studioComments: number;
  };
  monthly: {
    comment_data: WireSeries[];
    activity_data: WireSeries[];
    active_user_data: WireSeries[];
    project_data: WireSeries[];
    age_distribution_data: WireSeries[];
    country_distribution: Record<string, number>;
  };
  monthlyGa: { pageviews: number; users: number; sessions: number };
  /** When the monthly numbers were computed (ms). */
  computedAt: number;
}

const OPENED = Date.UTC(2007, 2, 1);
const COLORS = ['#FF9F00', '#4D97FF', '#9966FF'];

/** Month starts from the site's opening to `until`. */
function months(until: number): number[] {
  const out: number[] = [];
  const date = new Date(OPENED);
  while (date.getTime() <= until) {
    out.push(date.getTime());
    date.setUTCMonth(date.getUTCMonth() + 1);
  }
  return out;
}

/** Draws the statistics of a seed. */
export function seedStatistics(rng: Random, now: number): StatisticsSeed {
  const starts = months(now);
  // Growth: slow at first, then the site's usual curve; a little noise each month.
  const curve = (i: number, peak: number) => {
    const t = i / (starts.length - 1);
    return Math.round(peak * (0.02 + 0.98 * t ** 1.6) * (0.85 + rng.next() * 0.3));
  };
  const series = (keys: string[], peaks: number[]): WireSeries[] =>
    keys.map((key, k) => ({
      key,
      color: COLORS[k % COLORS.length]!,
      values: starts.map((x, i) => ({ x, y: curve(i, peaks[k]!) })),
    }));
  const ages: WireSeries = {
    key: 'Registration age',
    color: COLORS[0]!,
    values: Array.from({ length: 50 }, (_, i) => {
      const age = i + 4;
      const weight = Math.exp(-(((age - 12) / 4) ** 2)) + 0.02;
      return { x: age, y: Math.round(weight * 900_000 * (0.9 + rng.next() * 0.2)) };
    }),
  };
  const countries = [
    'United States',
    'United Kingdom',
    'Canada',
    'India',
    'Australia',
    'Germany',
    'Japan',
    'France',
    'Brazil',
    'Korea, Republic of',
  ];
  const country_distribution: Record<string, number> = { '0': rng.int(100_000, 200_000) };
  countries.forEach((name, i) => {
    country_distribution[name] = Math.round(40_000_000 / (i + 1) ** 1.3) + rng.int(0, 9_999);
  });
  return {
    base: {
      projects: 160_000_000 + rng.int(0, 9_999_999),
      users: 130_000_000 + rng.int(0, 9_999_999),
      studios: 40_000_000 + rng.int(0, 999_999),
      projectComments: 610_000_000 + rng.int(0, 9_999_999),
      profileComments: 300_000_000 + rng.int(0, 9_999_999),
      studioComments: 190_000_000 + rng.int(0, 9_999_999),
    },
    monthly: {
      comment_data: series(['Project Comments', 'Studio Comments', 'Profile Comments'], [6e6, 2.2e6, 2.8e6]),
      activity_data: series(['New Projects', 'New Users', 'Comments'], [3.2e6, 1.8e6, 11e6]),
      active_user_data: series(['Project Creators', 'Comment Creators'], [1.1e6, 0.9e6]),
      project_data: series(['New Projects', 'Remix Projects'], [3.2e6, 0.7e6]),
      age_distribution_data: [ages],
      country_distribution,
    },
    monthlyGa: {
      pageviews: 500_000_000 + rng.int(0, 99_999_999),
      users: 40_000_000 + rng.int(0, 9_999_999),
      sessions: 110_000_000 + rng.int(0, 19_999_999),
    },
    computedAt: now,
  };
}
