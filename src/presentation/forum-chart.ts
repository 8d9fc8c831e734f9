/**
 * `plot()` of forum posts: posts per day, stacked by author (the most active ones by name, the
 * rest as "others"), so who carries a topic or a category, and when, shows at a glance.
 */
import type { ForumPost } from '../records/forum-records.js';
import type { Chart } from './chart.js';
import { countPerDay, type DayChartOptions, type DayCount, dayChart, dayChartSpec } from './day-chart.js';
import type { VegaLiteSpec } from './vega-lite-spec.js';

/** Authors drawn by name; the others share one colour. */
export const CHARTED_AUTHORS = 8;
const OTHERS = 'others';

/** When a post was made, in ms; a JSON copy's date string is read too. */
function timeOf(post: ForumPost): number {
  const time = post.time as unknown;
  return time instanceof Date ? time.getTime() : typeof time === 'string' ? Date.parse(time) : Number.NaN;
}

/**
 * Posts per UTC day and author, oldest day first: the {@link CHARTED_AUTHORS} most active
 * authors by name, the rest as "others"; posts without a time are left out.
 */
export function countPosts(posts: readonly ForumPost[]): DayCount[] {
  const perAuthor = new Map<string, number>();
  for (const post of posts) perAuthor.set(post.author, (perAuthor.get(post.author) ?? 0) + 1);
  const named = new Set(
    [...perAuthor]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, CHARTED_AUTHORS)
      .map(([author]) => author),
  );
  return countPerDay(posts, timeOf, (post) => (named.has(post.author) ? post.author : OTHERS));
}

const labels = (title?: string): DayChartOptions => ({
  title: title ?? 'Posts per day by author',
  series: 'author',
  unit: 'posts',
});

/** A Vega-Lite spec: bars per day, stacked and coloured by author. */
export function forumPostsChartSpec(
  posts: readonly ForumPost[],
  options: { title?: string } = {},
): VegaLiteSpec {
  return dayChartSpec(countPosts(posts), labels(options.title));
}

/** The chart of forum posts: the spec, a terminal drawing of the last days, and a summary. */
export function forumPostsChart(posts: readonly ForumPost[], options: { title?: string } = {}): Chart {
  return dayChart(countPosts(posts), labels(options.title));
}
