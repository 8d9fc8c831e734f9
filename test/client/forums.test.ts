/**
 * The forums (WIRE.md §12.1) through the real client against the sandbox: the index, a
 * category's topics (pages, stickies, counts over a thousand, the three time forms), a topic's
 * posts on every page, its Atom feed, and the refusals of bad arguments and unknown ids.
 */
import { fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiError, type ForumPost, type ForumTopic } from '../../src/index.js';
import { parseHtml, textOf } from '../../src/records/html.js';
import { startSandbox } from '../../src/sandbox/index.js';
import {
  type ForumData,
  type ForumPostRow,
  type ForumTopicRow,
  forumStates,
} from '../../src/sandbox/state/forum-state.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();
const truth = () => forumStates.of(ctx.sandbox).data;
/** Times on the pages are written to the second. */
const second = (ms: number) => Math.floor(ms / 1000) * 1000;
/**
 * A page's time as its wall clock in the site's zone: the page writes no offset, so the hour a
 * clock goes back in autumn happens twice and the page cannot say which; the clock is what it says.
 */
const SITE_CLOCK = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/New_York',
  dateStyle: 'short',
  timeStyle: 'medium',
  hourCycle: 'h23',
});
const wall = (time: Date | number | null) => (time === null ? null : SITE_CLOCK.format(second(+time)));

function expectTopic(row: ForumTopic, topic: ForumTopicRow) {
  expect(row.id).toBe(topic.id);
  expect(row.title).toBe(topic.title);
  expect(row.author).toBe(topic.posts[0]!.author);
  expect(row.replies).toBe(topic.posts.length - 1);
  expect(row.views).toBe(topic.views);
  expect(row.sticky).toBe(topic.sticky);
  const last = topic.posts.at(-1)!;
  expect({ ...row.lastPost, time: wall(row.lastPost.time) }).toEqual({
    id: last.id,
    time: wall(last.time),
    author: last.author,
  });
}

function expectPost(row: ForumPost, post: ForumPostRow, index: number) {
  expect(row.id).toBe(post.id);
  expect(row.index).toBe(index);
  expect(row.author).toBe(post.author);
  expect(wall(row.time)).toBe(wall(post.time));
  // The HTML is read back as the page carries it: the same text, the same markup.
  expect(textOf(parseHtml(row.html))).toBe(textOf(parseHtml(post.html)));
  expect(row.editedBy).toBe(post.edited?.by ?? null);
  expect(wall(row.editedAt)).toBe(post.edited ? wall(post.edited.time) : null);
  expect(row.editNote === null).toBe(post.edited === undefined);
}

describe('forums: categories', () => {
  it('are generated on the first forum request, not at start-up, the same for one seed', async () => {
    expect(forumStates.of(ctx.sandbox).generated).toBe(false);
    const twin = await startSandbox({ rateLimit: false });
    try {
      await fetch(`${twin.url}/discuss/`).then((r) => r.text());
      expect(forumStates.of(twin).generated).toBe(true);
      expect(forumStates.of(ctx.sandbox).generated).toBe(false);
      const content = (data: ForumData) =>
        [...data.topics.values()].map((t) => [
          t.id,
          t.title,
          t.views,
          t.posts.map((p) => [p.id, p.author, p.html]),
        ]);
      expect(content(truth())).toEqual(content(forumStates.of(twin).data));
    } finally {
      await twin.close();
    }
  });

  it('reads every category of the index with its group, counts and last post', async () => {
    const session = ctx.anonymous();
    const categories = await session.forums.categories();
    const data = truth();
    expect(categories.map((c) => c.id)).toEqual(data.categories.map((c) => c.id));
    for (const category of categories) {
      const row = data.categories.find((c) => c.id === category.id)!;
      const topics = data.topicsByCategory.get(category.id)!;
      expect(category.name).toBe(row.name);
      expect(category.group).toBe(row.group);
      // The description's text, its inline markup's words kept.
      expect(category.description).toBe(row.description.replace(/<[^>]+>/g, ''));
      expect(category.topics).toBe(topics.length);
      expect(category.posts).toBe(topics.reduce((n, t) => n + t.posts.length, 0));
      const last = topics.map((t) => t.posts.at(-1)!).sort((a, b) => b.time - a.time)[0]!;
      expect(category.lastPost.id).toBe(last.id);
      expect(wall(category.lastPost.time)).toBe(wall(last.time));
    }
    // Thousands of posts by dozens of authors: worth a crawl.
    expect(categories.reduce((n, c) => n + c.posts, 0)).toBeGreaterThan(5_000);
    expect(categories.some((c) => c.posts > 1_000)).toBe(true);
  });
});

describe('forums: topics', () => {
  it('awaits the first page: 25 topics, stickies first and marked', async () => {
    const session = ctx.anonymous();
    const id = ctx.sandbox.samples.forumCategory;
    const rows = await session.forums.topics(id);
    const topics = truth().topicsByCategory.get(id)!;
    expect(rows).toHaveLength(25);
    expect(rows[0]!.sticky).toBe(true);
    expect(rows.filter((r) => r.sticky).length).toBe(topics.filter((t) => t.sticky).length);
    rows.forEach((row, i) => {
      expectTopic(row, topics[i]!);
      expect(row.category).toBe('Advanced Topics');
      expect(row.categoryId).toBe(id);
    });
  });

  it('walks every page to the end, and reads windows that straddle pages', async () => {
    const session = ctx.anonymous();
    const topics = truth().topicsByCategory.get(1)!;
    const pages: number[] = [];
    const all = await session.forums.topics(1).all({ onProgress: (p) => pages.push(p.pages) });
    expect(all.map((t) => t.id)).toEqual(topics.map((t) => t.id));
    all.forEach((row, i) => {
      expectTopic(row, topics[i]!);
    });
    expect(Math.max(...pages)).toBe(Math.ceil(topics.length / 25));
    const window = await session.forums.topics(1, { offset: 10, limit: 30 });
    expect(window.map((t) => t.id)).toEqual(topics.slice(10, 40).map((t) => t.id));
  });

  it('reads counts the site writes in plain digits ("1249", WIRE.md §12.7)', async () => {
    const session = ctx.anonymous();
    const busy = ctx.sandbox.samples.busyTopic;
    const page = await fetch(`${ctx.sandbox.url}/discuss/1/`).then((r) => r.text());
    expect(page).toContain('>1249<');
    const row = (await session.forums.topics(1).all()).find((t) => t.id === busy)!;
    expect(row.replies).toBe(1_249);
    expect(row.views).toBeGreaterThan(1_000);
  });
});

describe('forums: posts', () => {
  it('reads every page of a busy topic: ids, indexes, authors, times, text, HTML, edit notes', async () => {
    const session = ctx.anonymous();
    const busy = ctx.sandbox.samples.busyTopic;
    const topic = truth().topics.get(busy)!;
    const posts = await session.forums.posts(busy).all();
    expect(posts).toHaveLength(1_250);
    posts.forEach((row, i) => {
      expectPost(row, topic.posts[i]!, i + 1);
      expect(row.topicId).toBe(busy);
      expect(row.topicTitle).toBe(topic.title);
    });
    expect(new Set(posts.map((p) => p.author)).size).toBeGreaterThan(24);
    const edited = posts.filter((p) => p.editNote !== null);
    expect(edited.length).toBeGreaterThan(10);
    expect(edited[0]!.editNote).toMatch(
      /^Last edited by \S+ \((Today|Yesterday|[A-Z][a-z]{2} \d{1,2}, \d{4}) /,
    );
  });

  it('sends no request past the last page, whatever the prefetch', async () => {
    const session = ctx.anonymous();
    const topics = truth().topicsByCategory.get(ctx.sandbox.samples.forumCategory)!;
    const short = topics.find((t) => t.posts.length <= 20)!;
    const long = topics.find((t) => t.posts.length > 40 && t.posts.length <= 60)!;
    for (const topic of [short, long]) {
      const posts = await session.forums.posts(topic.id).all({ prefetch: 10 });
      expect(posts.map((p) => p.id)).toEqual(topic.posts.map((p) => p.id));
      const sent = ctx.sandbox.traffic.log().filter((e) => e.path === `/discuss/topic/${topic.id}/`);
      expect(sent).toHaveLength(Math.ceil(topic.posts.length / 20));
    }
  });

  it('reads the three time forms: Today, Yesterday and a date', async () => {
    const busy = ctx.sandbox.samples.busyTopic;
    const topic = truth().topics.get(busy)!;
    const pages = Math.ceil(topic.posts.length / 20);
    const first = await fetch(`${ctx.sandbox.url}/discuss/topic/${busy}/`).then((r) => r.text());
    const last = await fetch(`${ctx.sandbox.url}/discuss/topic/${busy}/?page=${pages}`).then((r) => r.text());
    expect(first).toMatch(/>[A-Z][a-z]{2} \d{1,2}, \d{4} \d{2}:\d{2}:\d{2}</);
    expect(last).toContain('>Today ');
    const session = ctx.anonymous();
    const posts = await session.forums.posts(busy, { offset: (pages - 3) * 20, limit: 60 });
    const html = await Promise.all(
      [pages - 2, pages - 1].map((p) =>
        fetch(`${ctx.sandbox.url}/discuss/topic/${busy}/?page=${p}`).then((r) => r.text()),
      ),
    );
    const yesterday = [...html, last].some((page) => page.includes('>Yesterday '));
    expect(yesterday).toBe(true);
    const from = (pages - 3) * 20;
    posts.forEach((row, i) => {
      expectPost(row, topic.posts[from + i]!, from + i + 1);
    });
  });
});

describe('forums: topic feed', () => {
  it("reads a topic's Atom feed: title, category, last update, newest posts", async () => {
    const session = ctx.anonymous();
    const busy = ctx.sandbox.samples.busyTopic;
    const topic = truth().topics.get(busy)!;
    const feed = await session.forums.topic(busy);
    expect(feed.id).toBe(busy);
    expect(feed.title).toBe(topic.title);
    expect(feed.category).toBe('Suggestions');
    const newest = topic.posts.slice(-15).reverse();
    expect(feed.posts.map((p) => p.id)).toEqual(newest.map((p) => p.id));
    expect(feed.posts.map((p) => p.author)).toEqual(newest.map((p) => p.author));
    expect(feed.posts[0]!.time).toEqual(new Date(second(newest[0]!.time)));
    expect(feed.posts[0]!.html).toBe(newest[0]!.html);
    expect(feed.updated!.getTime()).toBe(second(Math.max(...newest.map((p) => p.time))));
  });
});

describe('forums: refusals', () => {
  it('answers unknown categories and topics with a 404 ApiError', async () => {
    const session = ctx.anonymous();
    for (const read of [
      () => session.forums.topics(999_999).then((r) => r),
      () => session.forums.posts(1).then((r) => r),
      () => session.forums.topic(1),
    ]) {
      const error = await caught(read());
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(404);
    }
  });

  it('refuses bad arguments before any request', async () => {
    const session = ctx.anonymous();
    expect(() => session.forums.topics(0)).toThrow(RangeError);
    expect(() => session.forums.topics('five')).toThrow(TypeError);
    expect(() => session.forums.posts(1.5)).toThrow(TypeError);
    expect(() => session.forums.topics(5, { limit: 0 })).toThrow(RangeError);
    await expect(session.forums.topic(-1)).rejects.toThrow(RangeError);
    expect(() => {
      session.forums.timeZone = 'Mars/Olympus_Mons';
    }).toThrow(RangeError);
    expect(session.forums.timeZone).toBe('America/New_York');
  });

  it("sends a post's link to the page of its topic that holds it", async () => {
    const busy = truth().topics.get(ctx.sandbox.samples.busyTopic)!;
    const post = busy.posts[45]!;
    const answer = await fetch(`${ctx.sandbox.url}/discuss/post/${post.id}/`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`/discuss/topic/${busy.id}/?page=3#post-${post.id}`);
    await answer.text();
    expect((await fetch(`${ctx.sandbox.url}/discuss/post/1/`)).status).toBe(404);
  });

  it('reads one post by its id, and its BBCode source', async () => {
    const session = ctx.anonymous();
    const busy = truth().topics.get(ctx.sandbox.samples.busyTopic)!;
    const row = busy.posts[45]!;
    const post = await session.forums.post(row.id);
    expect(post).toMatchObject({
      id: row.id,
      index: 46,
      topicId: busy.id,
      author: row.author,
      html: row.html,
    });
    const source = await session.forums.postSource(row.id);
    expect(source).toBe(row.source);
    // A quoted post's source holds its quote as BBCode; its page shows the quote's author.
    const quoting = [...truth().topics.values()]
      .flatMap((t) => t.posts)
      .find((p) => p.source.startsWith('[quote='))!;
    expect(await session.forums.postSource(quoting.id)).toMatch(/^\[quote=[^\]]+\]/);
    expect((await session.forums.post(quoting.id)).html).toContain('<p class="bb-quote-author">');
    expect((await caught(session.forums.post(1))).status).toBe(404);
    expect((await caught(session.forums.postSource(1))).status).toBe(404);
    await expect(session.forums.post('x')).rejects.toThrow(TypeError);
  });

  it('answers pages out of range and junk page numbers with the 404 page', async () => {
    for (const query of ['?page=0', '?page=999', '?page=abc', '?page=-1', '?page=1e3']) {
      const answer = await fetch(`${ctx.sandbox.url}/discuss/31/${query}`);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toContain('text/html');
      await answer.text();
    }
  });
});
