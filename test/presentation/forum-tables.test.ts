/**
 * Forum topics and posts in the front ends' presentation layer, read from the sandbox through
 * the real client: tables with the columns a reader wants, and `plot()` of posts drawing posts
 * per day stacked by author.
 */
import { describe, expect, it } from 'vitest';
import { chartOf, recordKind, renderHtmlTable, renderTable, toTable } from '../../src/presentation/index.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('forum tables', () => {
  it('shows topics and posts as tables with counts, times and links to the site', async () => {
    const session = ctx.anonymous();
    const topics = await session.forums.topics(1);
    expect(recordKind(topics)).toBe('forumTopic');
    const table = toTable(topics);
    expect(table.columns.map((c) => c.key)).toEqual([
      'id',
      'title',
      'author',
      'replies',
      'views',
      'lastPost',
      'sticky',
    ]);
    const text = renderTable(table, { width: 160 });
    expect(text).toContain('1,249'); // the busy topic's replies
    expect(text).toContain('last post (UTC)');
    // Links are drawn to the platform's own pages only.
    const html = renderHtmlTable(table, { siteUrl: 'https://scratch.mit.edu' });
    expect(html).toContain(`href="https://scratch.mit.edu/discuss/topic/${ctx.sandbox.samples.busyTopic}/"`);

    const posts = await session.forums.posts(ctx.sandbox.samples.busyTopic);
    expect(recordKind(posts)).toBe('forumPost');
    const postTable = toTable(posts);
    expect(postTable.columns.map((c) => c.key).slice(0, 4)).toEqual(['index', 'author', 'time', 'text']);
    const postText = renderTable(postTable, { width: 160 });
    expect(postText).toContain(posts[0]!.author);
    expect(postText).toContain(posts[0]!.time!.toISOString().slice(0, 16).replace('T', ' '));
  });
});

describe('plot() of posts', () => {
  it('draws posts per day stacked by author, the eight busiest by name', async () => {
    const session = ctx.anonymous();
    const posts = await session.forums.posts(ctx.sandbox.samples.busyTopic).all();
    const chart = chartOf(posts);
    const values = (chart.spec.data as { values: { day: string; author: string; count: number }[] }).values;
    expect(values.reduce((n, v) => n + v.count, 0)).toBe(posts.length);
    const authors = new Set(values.map((v) => v.author));
    expect(authors.size).toBe(9);
    expect(authors.has('others')).toBe(true);
    const perDay = new Map<string, number>();
    for (const post of posts) {
      const day = post.time!.toISOString().slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    for (const [day, n] of perDay) {
      expect(values.filter((v) => v.day === day).reduce((sum, v) => sum + v.count, 0)).toBe(n);
    }
    expect(chart.summary.split('\n')[0]).toBe(
      `Posts per day by author: 1,250 posts over ${perDay.size} days`,
    );
    expect(chart.render({ width: 80, height: 20, color: false })).toContain('Posts per day by author');
    expect(await chart.toSVG()).toContain('<svg');
  });
});
