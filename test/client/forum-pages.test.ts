/**
 * The forum readers against hostile and odd pages, served over loopback by a server of the
 * test's own and read through the real client: missing fields, nested junk, huge pages, wrong
 * encodings, feeds that are not feeds, and sites that answer every page with the same one. A page
 * that cannot be read is an `ApiError` naming what was missing, never a crash or a silent `[]`.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, Session } from '../../src/index.js';
import { parseForumTime, zonedTime } from '../../src/records/forum-time.js';
import { caught } from '../support/caught.js';
import { closeLocal, listenLocal } from '../support/local-server.js';

interface Page {
  status?: number;
  type?: string;
  body: string | Buffer;
}
/** What the server answers, by path and `?page=` (`/discuss/5/?page=2`); `*` for any page. */
const pages = new Map<string, Page>();
/** The requests that reached the server, as paths with their query. */
const seen: string[] = [];
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push(url.pathname + url.search);
  const page = pages.get(url.pathname + url.search) ?? pages.get(`${url.pathname}*`);
  if (!page) {
    res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Page not found</h1>');
    return;
  }
  res
    .writeHead(page.status ?? 200, { 'Content-Type': page.type ?? 'text/html; charset=utf-8' })
    .end(page.body);
});
let base = '';
beforeAll(async () => {
  base = await listenLocal(server);
});
afterAll(() => closeLocal(server));

const session = (options = {}) =>
  new Session({ hosts: { site: base }, rateLimit: Infinity, retries: 0, ...options });

const row = (id: number, replies = '5', views = '100', last = 'Today 10:11:12') =>
  `<tr><td class="tcl"><div class="tclcon"><h3><a href="/discuss/topic/${id}/">Topic ${id}</a></h3> <span class="byuser">by alice</span></div></td><td class="tc2">${replies}</td><td class="tc3">${views}</td><td class="tcr"><a href="/discuss/post/9${id}/">${last}</a> <span class="byuser">by bob</span></td></tr>`;
const list = (rows: string[], { heading = '<h4><span>Suggestions</span></h4>', bar = '' } = {}) =>
  `<div class="djangobb">${bar}<div class="box-head">${heading}</div><table><thead><tr><th>Topic</th><th>Replies</th><th>Views</th><th>Last post</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
const post = (id: number, index: number, body = 'Hello <b>world</b>', extra = '') =>
  `<div id="p${id}" class="blockpost"><a name="post-${id}"></a><div class="box"><div class="box-head"><span class="conr">#${index}</span><a href="/discuss/post/${id}/">Jun 3, 2024 10:11:12</a></div><div class="box-content"><div class="postleft"><dl><dt><a class="black username" href="/users/alice/">alice</a></dt></dl></div><div class="postright"><h3>My topic</h3><div class="postmsg"><div class="post_body_html">${body}</div>${extra}</div></div></div></div></div>`;
const topicPage = (
  posts: string[],
  bar = '<div class="pagination"><span class="current page">1</span></div>',
) =>
  `<div class="djangobb"><div class="linkst">${bar}<ul><li><a href="/discuss/">Discussion Forums</a></li><li>&raquo; <a href="/discuss/5/">Suggestions</a></li><li>&raquo; My topic</li></ul></div>${posts.join('')}</div>`;

async function refusal(promise: PromiseLike<unknown>): Promise<ApiError> {
  const error = await caught(Promise.resolve(promise));
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('forum times', () => {
  const june = Date.UTC(2024, 5, 3, 15, 0, 0); // 11:00 in New York (EDT, UTC-4)
  it('reads Today, Yesterday and dates in the site zone, across daylight saving', () => {
    expect(parseForumTime('Today 10:11:12', 'America/New_York', june)).toEqual(
      new Date('2024-06-03T14:11:12Z'),
    );
    expect(parseForumTime('Yesterday 23:59:59', 'America/New_York', june)).toEqual(
      new Date('2024-06-03T03:59:59Z'),
    );
    expect(parseForumTime('Jun 3, 2024 10:11:12')).toEqual(new Date('2024-06-03T14:11:12Z'));
    expect(parseForumTime('Jan 15, 2024 10:11:12')).toEqual(new Date('2024-01-15T15:11:12Z'));
    expect(parseForumTime('Jan 15, 2024 10:11:12', 'UTC')).toEqual(new Date('2024-01-15T10:11:12Z'));
    // "Today" just after midnight in New York is still the day before in UTC's terms.
    const early = Date.UTC(2024, 5, 4, 4, 30); // 00:30 on June 4 in New York
    expect(parseForumTime('Today 00:10:00', 'America/New_York', early)).toEqual(
      new Date('2024-06-04T04:10:00Z'),
    );
    // 01:30 on the night clocks go back happens twice: the first is taken.
    expect(zonedTime('America/New_York', 2024, 10, 3, 1, 30, 0)).toEqual(new Date('2024-11-03T05:30:00Z'));
  });

  it('reads "Tomorrow" (naturalday across midnight) and Django\'s AP month names', () => {
    const june = Date.UTC(2024, 5, 3, 15, 0, 0);
    expect(parseForumTime('Tomorrow 00:05:00', 'America/New_York', june)).toEqual(
      new Date('2024-06-04T04:05:00Z'),
    );
    expect(parseForumTime('Sept. 3, 2024 10:11:12')).toEqual(new Date('2024-09-03T14:11:12Z'));
    expect(parseForumTime('March 5, 2024 08:00:00')).toEqual(new Date('2024-03-05T13:00:00Z'));
  });

  it('answers null for text that is none of the forms', () => {
    for (const text of [
      '',
      'Heute 10:00:00',
      'Today',
      'Jun 3, 2024',
      'Foo 3, 2024 10:11:12',
      'Today 25:00:00',
      'Jun 32, 2024 10:11:12',
    ]) {
      expect(parseForumTime(text)).toBeNull();
    }
  });
});

describe('odd topic lists', () => {
  it('reads rows wrapped in junk, separator rows, comments and scripts that look like rows', async () => {
    pages.set('/discuss/7/*', {
      body: list([
        '<tr><td colspan="4">Sticky topics end here</td></tr>',
        `<!-- ${row(1)} -->`,
        `<script>document.write('${row(2)}')</script>`,
        row(3, '1,234', '12,345,678')
          .replace('<h3>', '<h3><span><em><font>')
          .replace('</h3>', '</font></em></span></h3>'),
        row(4, '0', '1\u00a0000', 'Yesterday 23:59:59').replace(
          '<div class="tclcon">',
          '<div class="isticky"></div><div class="tclcon">',
        ),
      ]),
    });
    const topics = await session().forums.topics(7);
    expect(topics.map((t) => t.id)).toEqual([3, 4]);
    expect(topics[0]).toMatchObject({
      title: 'Topic 3',
      replies: 1_234,
      views: 12_345_678,
      sticky: false,
      author: 'alice',
    });
    expect(topics[1]).toMatchObject({ replies: 0, views: 1_000, sticky: true, category: 'Suggestions' });
    expect(topics[1]!.lastPost.author).toBe('bob');
    expect(topics[1]!.lastPost.id).toBe(94);
  });

  it('names what is missing: the heading, the table, a link, a count, a time', async () => {
    const cases: [string, string, RegExp][] = [
      ['/discuss/11/*', list([row(1)], { heading: '<h4>no span</h4>' }), /category heading/],
      ['/discuss/12/*', '<div class="djangobb"><h4><span>X</span></h4><p>No table</p></div>', /topic table/],
      ['/discuss/13/*', list([row(1).replace('/discuss/topic/1/', '/elsewhere/')]), /topic link .* row 1/],
      ['/discuss/14/*', list([row(1, 'many')]), /reply count of topic 1/],
      ['/discuss/15/*', list([row(1, '5', '-3')]), /view count of topic 1/],
      ['/discuss/16/*', list([row(1, '5', '5', 'last Tuesday')]), /last-post time .*last Tuesday/],
      ['/discuss/17/*', '', /category heading/],
    ];
    for (const [path, body, reason] of cases) {
      pages.set(path, { body });
      const id = Number(path.split('/')[2]);
      const error = await refusal(session().forums.topics(id));
      expect(error.reason).toMatch(reason);
      expect(error.status).toBe(200);
    }
  });

  it('refuses a huge page, a page nested too deep, and an answer past the size cap', async () => {
    pages.set('/discuss/21/*', { body: list(Array.from({ length: 1_500 }, (_, i) => row(i + 1))) });
    expect((await refusal(session().forums.topics(21))).reason).toMatch(/more than 1000 topic rows/);
    pages.set('/discuss/22/*', { body: list([`${'<div>'.repeat(5_000)}${row(1)}`]) });
    expect((await refusal(session().forums.topics(22))).reason).toMatch(/nests deeper/);
    pages.set('/discuss/23/*', { body: list([row(1)]) + 'x'.repeat(200_000) });
    expect((await refusal(session({ maxResponseBytes: 100_000 }).forums.topics(23))).limit).toBe(
      'maxResponseBytes',
    );
    // A page of more rows than the site's 25 would misplace every later window.
    pages.set('/discuss/24/*', { body: list(Array.from({ length: 40 }, (_, i) => row(i + 1))) });
    expect((await refusal(session().forums.topics(24))).reason).toMatch(/at most 25 topics \(it holds 40\)/);
  });

  it('reads the charset the answer names; bytes wrong for it become U+FFFD, not an error', async () => {
    const latin1 = Buffer.from(list([row(1)]).replace('Topic 1', 'Caf\u00e9 1'), 'latin1');
    pages.set('/discuss/31/*', { body: latin1, type: 'text/html; charset=ISO-8859-1' });
    expect((await session().forums.topics(31))[0]!.title).toBe('Café 1');
    pages.set('/discuss/32/*', { body: latin1, type: 'text/html; charset=utf-8' });
    expect((await session().forums.topics(32))[0]!.title).toBe('Caf\ufffd 1');
    pages.set('/discuss/33/*', { body: latin1, type: 'text/html; charset=klingon' });
    expect((await session().forums.topics(33))[0]!.title).toBe('Caf\ufffd 1');
  });

  it('ends a walk when the site answers every page with the same one', async () => {
    const full = Array.from({ length: 25 }, (_, i) => row(i + 1));
    pages.set('/discuss/41/*', { body: list(full) }); // no page numbers at all
    seen.length = 0;
    const all = await session().forums.topics(41).all({ prefetch: 1 });
    expect(all).toHaveLength(25);
    expect(seen.filter((p) => p.startsWith('/discuss/41/'))).toEqual([
      '/discuss/41/?page=1',
      '/discuss/41/?page=2',
    ]);
    const bar =
      '<div class="pagination"><span class="current page">1</span> <a class="page" href="?page=2">2</a></div>';
    pages.set('/discuss/42/*', { body: list(full, { bar }) }); // always says it is page 1
    expect(await session().forums.topics(42).all({ prefetch: 1 })).toHaveLength(25);
  });
});

describe('odd topic pages', () => {
  it('reads posts with edit notes, quotes, code and odd characters', async () => {
    const note =
      '<p class="postedit"><em class="posteditmessage">Last edited by bob (Jun 4, 2024 09:00:00)</em></p>';
    pages.set('/discuss/topic/51/*', {
      body: topicPage([
        post(
          501,
          1,
          '<blockquote><p>alice wrote:</p>hi</blockquote>Sure &amp; <b>thanks</b> 🎉<br>line two<pre>when flag clicked\n  move (10) steps</pre>',
          note,
        ),
        post(502, 2),
      ]),
    });
    const posts = await session().forums.posts(51).all();
    expect(posts).toHaveLength(2);
    expect(posts[0]).toMatchObject({
      id: 501,
      index: 1,
      author: 'alice',
      topicTitle: 'My topic',
      text: 'alice wrote:\nhi\nSure & thanks 🎉\nline two\nwhen flag clicked\n  move (10) steps',
      editNote: 'Last edited by bob (Jun 4, 2024 09:00:00)',
      editedBy: 'bob',
      editedAt: new Date('2024-06-04T13:00:00Z'),
      time: new Date('2024-06-03T14:11:12Z'),
    });
    expect(posts[0]!.html).toContain('Sure &amp; <b>thanks</b> 🎉<br>');
    expect(posts[1]).toMatchObject({ editNote: null, editedBy: null, editedAt: null, text: 'Hello world' });
  });

  it('names what is missing: the wrapper, a post id, an index, an author, a body', async () => {
    const cases: [string, RegExp][] = [
      ['<div class="blockpost" id="p1"></div>', /forum wrapper/],
      [topicPage([post(1, 1).replace('id="p1"', 'id="post1"')]), /post id/],
      [topicPage([post(1, 1).replace('#1', 'first')]), /index .* of post 1/],
      [topicPage([post(1, 1).replace('>alice</a>', '></a>')]), /author .* of post 1/],
      [topicPage([post(1, 1).replace('post_body_html', 'post_body')]), /body .* of post 1/],
      [topicPage([]), /posts \(div\.blockpost\) on the first page/],
    ];
    let id = 60;
    for (const [body, reason] of cases) {
      pages.set(`/discuss/topic/${++id}/*`, { body });
      expect((await refusal(session().forums.posts(id))).reason).toMatch(reason);
    }
  });

  it("ends at a page whose first post is not that page's first (the site ignoring ?page)", async () => {
    const twenty = Array.from({ length: 20 }, (_, i) => post(700 + i, i + 1));
    const bar =
      '<div class="pagination"><span class="current page">1</span> <a class="page" href="?page=2">2</a></div>';
    pages.set('/discuss/topic/71/*', {
      body: topicPage(twenty, bar.replace('current page">1', 'current page">2')),
    });
    pages.set('/discuss/topic/71/?page=1', { body: topicPage(twenty, bar) });
    expect(await session().forums.posts(71).all()).toHaveLength(20);
  });
});

describe('odd feeds', () => {
  const entry = (id: number) =>
    `<entry><title>Discussion Forums :: Suggestions :: My topic</title><link href="${base}/discuss/post/${id}/"/><published>2024-06-03T14:11:12Z</published><updated>2024-06-03T14:11:12Z</updated><author><name>alice</name></author><id>${base}/discuss/post/${id}/</id><summary type="html">Hello &lt;b&gt;world&lt;/b&gt;</summary></entry>`;
  const feed = (entries: string[], title = 'Latest posts on My topic') =>
    `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>${title}</title><updated>2024-06-03T14:11:12Z</updated>${entries.join('')}</feed>`;

  it('reads a feed, and names what a feed that is not one lacks', async () => {
    pages.set('/discuss/feeds/topic/81/*', {
      body: feed([entry(9), entry(8)]),
      type: 'application/atom+xml',
    });
    const topic = await session().forums.topic(81);
    expect(topic).toMatchObject({ id: 81, title: 'My topic', category: 'Suggestions' });
    expect(topic.updated).toEqual(new Date('2024-06-03T14:11:12Z'));
    expect(topic.posts.map((p) => [p.id, p.author, p.html])).toEqual([
      [9, 'alice', 'Hello <b>world</b>'],
      [8, 'alice', 'Hello <b>world</b>'],
    ]);
    const cases: [string, RegExp][] = [
      ['<html><body><h1>Forum</h1></body></html>', /Atom feed/],
      [
        '<rss version="2.0"><channel><title>x</title><item><title>a</title></item></channel></rss>',
        /Atom feed/,
      ],
      [feed([]), /feed entries/],
      [feed([entry(1)], ''), /feed title/],
      [`${'<x>'.repeat(3_000)}`, /nests deeper/],
    ];
    let id = 90;
    for (const [body, reason] of cases) {
      pages.set(`/discuss/feeds/topic/${++id}/*`, { body, type: 'application/atom+xml' });
      expect((await refusal(session().forums.topic(id))).reason).toMatch(reason);
    }
  });
});
