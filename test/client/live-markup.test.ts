/**
 * The forum readers on the live site's markup: pages rendered from the forum's own templates and
 * answers shaped after other clients' captures (`test/fixtures/live/`, sources in SOURCES.md),
 * served by a server of the test's own over loopback and read through the real client.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, Session } from '../../src/index.js';
import { childElements, findElements, parseHtml } from '../../src/records/html.js';
import { caught } from '../support/caught.js';
import { closeLocal, listenLocal } from '../support/local-server.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/live/${name}`, import.meta.url), 'utf8');

interface Page {
  status?: number;
  body: string;
  type?: string;
  headers?: Record<string, string>;
}
/** What the server answers, by path (the query is ignored). */
const pages = new Map<string, Page>();
/** The headers of each request that reached the server, by path. */
const seen = new Map<string, IncomingHttpHeaders>();
const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  seen.set(path, req.headers);
  const page = pages.get(path);
  if (!page) {
    res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Page not found</h1>');
    return;
  }
  res
    .writeHead(page.status ?? 200, {
      'Content-Type': page.type ?? 'text/html; charset=utf-8',
      ...page.headers,
    })
    .end(page.body);
});
let base = '';
beforeAll(async () => {
  base = await listenLocal(server);
});
afterAll(() => closeLocal(server));

const session = () => new Session({ hosts: { site: base, api: base }, rateLimit: Infinity, retries: 0 });
/** 11:00 on 2024-09-03 in New York: "Today", "Yesterday" and "Tomorrow" are read against it. */
const NOW = Date.UTC(2024, 8, 3, 15, 0, 0);

async function refusal(promise: PromiseLike<unknown>): Promise<ApiError> {
  const error = await caught(Promise.resolve(promise));
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** Runs `body` with `Date.now()` at {@link NOW}, so the pages' relative days are fixed. */
async function at<T>(body: () => PromiseLike<T>): Promise<T> {
  const real = Date.now;
  Date.now = () => NOW;
  try {
    return await body();
  } finally {
    Date.now = real;
  }
}

describe('a live category page (forum.html)', () => {
  it('reads every row despite the stray </div>, with sticky, closed, plain counts and every kind of time', async () => {
    pages.set('/discuss/5/', { body: fixture('forum-category.html') });
    const topics = await at(() => session().forums.topics(5));
    expect(topics.map((t) => [t.id, t.title, t.author, t.replies, t.views, t.sticky, t.closed])).toEqual([
      [1001, 'Read this before posting', 'mod_alice', 12, 98765, true, false],
      [1002, 'Old rules', 'mod_bob', 3, 4321, true, true],
      [1003, 'Add a "repeat until" & more', 'carol', 1234, 56789, false, false],
      [1004, 'A closed idea', 'erin', 0, 7, false, true],
      [1005, 'Across midnight', 'frank', 2, 40, false, false],
    ]);
    expect(topics.map((t) => [t.lastPost.id, t.lastPost.author, t.lastPost.time?.toISOString()])).toEqual([
      [5001, 'mod_alice', '2024-09-03T14:11:12.000Z'],
      [5002, 'mod_bob', '2024-03-05T13:00:00.000Z'],
      [5003, 'dave', '2024-09-03T14:11:12.000Z'],
      [5004, 'erin', '2024-09-03T03:59:59.000Z'],
      [5005, 'grace', '2024-09-04T04:05:00.000Z'],
    ]);
    expect(topics[0]!.category).toBe('Suggestions');
  });

  it("reads a table nested in a row's cell as part of that row, not as rows of the list", async () => {
    // Before, the nested table's row was taken for a topic row and the page refused ("no topic
    // link in row 4").
    const nested = '<table><tr><td>a</td><td>b</td></tr></table>';
    pages.set('/discuss/8/', {
      body: fixture('forum-category.html').replace(
        '<span class="byuser">by carol</span>',
        `${nested}<span class="byuser">by carol</span>`,
      ),
    });
    const topics = await at(() => session().forums.topics(8));
    expect(topics.map((t) => [t.id, t.author, t.replies])).toEqual([
      [1001, 'mod_alice', 12],
      [1002, 'mod_bob', 3],
      [1003, 'carol', 1234],
      [1004, 'erin', 0],
      [1005, 'frank', 2],
    ]);
  });

  it('reads the page count from the live pagination (‹‹ previous, page links, next ››)', async () => {
    pages.set('/discuss/5/', { body: fixture('forum-category.html') });
    seen.clear();
    // Pages 2 and 3 answer 404 here: the walk asks for them because page 1 says there are 3.
    expect(await at(() => session().forums.topics(5).all())).toHaveLength(5);
    expect([...seen.keys()]).toEqual(['/discuss/5/']);
  });

  it('answers [] for the site\'s "Forum is empty." page, and refuses a page with no topic table or rows', async () => {
    pages.set('/discuss/77/', { body: fixture('forum-category-empty.html') });
    expect(await session().forums.topics(77)).toEqual([]);
    const login =
      '<html><body><div class="box"><div class="box-head"><h4><span>Log in</span></h4></div><form action="/login/"></form></div></body></html>';
    pages.set('/discuss/78/', { body: login });
    expect((await refusal(session().forums.topics(78))).reason).toMatch(/no topic table/);
    pages.set('/discuss/79/', {
      body: fixture('forum-category-empty.html').replace(
        '<tr><td class="djangobbcon1" colspan="4">Forum is empty.</td></tr>',
        '<tr><td colspan="4">Down for maintenance</td></tr>',
      ),
    });
    expect((await refusal(session().forums.topics(79))).reason).toMatch(
      /topic rows, nor the empty-forum marker/,
    );
  });

  it('asks for English, and refuses a page in another language naming it', async () => {
    pages.set('/discuss/6/', {
      body: fixture('forum-category-de.html'),
      headers: { 'Content-Language': 'de' },
    });
    const error = await refusal(session().forums.topics(6));
    expect(error.reason).toMatch(
      /it is in German \(de\) \(its topic 1003's last-post time shows "Heute 10:11:12"\)/,
    );
    expect(seen.get('/discuss/6/')!['accept-language']).toBe('en');
    // Without the header, the page's own `lang` names the language.
    pages.set('/discuss/6/', { body: fixture('forum-category-de.html') });
    expect((await refusal(session().forums.topics(6))).reason).toMatch(/it is in German \(de\)/);
    // Everything but the times reads in any language: the author is the name after "von".
    pages.set('/discuss/6/', {
      body: fixture('forum-category-de.html').replace('Heute 10:11:12', 'Sept. 3, 2024 10:11:12'),
    });
    expect((await session().forums.topics(6)).map((t) => [t.author, t.lastPost.author])).toEqual([
      ['carol', 'dave'],
    ]);
  });
});

describe('end tags inside a table cell, as browsers read them', () => {
  it('ignores an end tag whose element is open only outside the cell; cell and table tags still close', () => {
    const doc = parseHtml(
      '<div id="outer"><table><tr><td><div class="intd"></div></div><span>x</span></b></td><td>2</td></tr>' +
        '<tr><td>3</td></table><p>after</p></div>',
    );
    const rows = findElements(doc, { tag: 'tr' });
    expect(rows.map((r) => childElements(r).length)).toEqual([2, 1]);
    expect(findElements(doc, { tag: 'span' })[0]!.parent).toBe(findElements(doc, { tag: 'td' })[0]);
    // `</table>` closed the open cell; the paragraph is the outer div's, after the table.
    const outer = findElements(doc, { tag: 'div' }).find((d) => d.attribs.id === 'outer')!;
    expect(childElements(outer).map((e) => e.name)).toEqual(['table', 'p']);
  });
});

describe('the live forum index (index.html, forum_row.html)', () => {
  it("reads each group's name without the toggle link, and descriptions with their inline markup's text", async () => {
    pages.set('/discuss/', { body: fixture('forum-index.html') });
    const categories = await at(() => session().forums.categories());
    expect(categories.map((c) => [c.id, c.name, c.group, c.description, c.topics, c.posts])).toEqual([
      [5, 'Announcements', 'Welcome to Scratch', 'Updates from the Scratch Team.', 123, 45678],
      [
        6,
        'New Scratchers',
        'Welcome to Scratch',
        'A place for new Scratchers to ask questions & say hi.',
        98765,
        1234567,
      ],
      [
        7,
        'Help with Scripts',
        'Making Scratch Projects',
        'Need help? Post your scripts here.',
        54321,
        654321,
      ],
    ]);
    expect(categories[2]!.lastPost).toEqual({
      id: 9003,
      author: 'helper',
      time: new Date('2024-09-03T14:11:12Z'),
    });
  });
});

describe('a live topic page (topic.html)', () => {
  it('reads the title, posts, code with its indentation, edit notes and the page count', async () => {
    pages.set('/discuss/topic/2001/', { body: fixture('forum-topic.html') });
    const posts = await at(() => session().forums.posts(2001));
    expect(posts.map((p) => [p.id, p.index, p.author, p.topicTitle, p.time?.toISOString()])).toEqual([
      [7001, 1, 'alice', 'My topic', '2024-09-03T14:00:00.000Z'],
      [7002, 2, 'bob', 'My topic', '2024-09-03T14:11:12.000Z'],
      [7003, 3, 'carol', 'My topic', '2024-09-04T04:05:00.000Z'],
    ]);
    expect(posts[0]!.text).toBe(
      'Try this:\nwhen flag clicked\n    forever\n        move (10) steps\n    end\nIt works & loops.',
    );
    expect(posts[0]).toMatchObject({
      editNote: 'Last edited by alice (Yesterday 09:30:00)',
      editedBy: 'alice',
      editedAt: new Date('2024-09-02T13:30:00Z'),
    });
    expect(posts[1]!.text).toBe('alice wrote:\nTry this\nThanks!');
    expect(posts[2]!.text).toBe('say [Hello!] for (2) seconds');
  });

  it("reads one post through its link's redirect to its topic's page, and its BBCode as plain text", async () => {
    pages.set('/discuss/topic/2001/', { body: fixture('forum-topic.html') });
    // `show_post` of the forum's views: a redirect to `?page=N#post-<id>`; `get_post_source`: text/plain.
    pages.set('/discuss/post/7002/', {
      status: 302,
      body: '',
      headers: { Location: '/discuss/topic/2001/?page=1#post-7002' },
    });
    const post = await at(() => session().forums.post(7002));
    expect(post).toMatchObject({ id: 7002, index: 2, author: 'bob', topicId: 2001, topicTitle: 'My topic' });
    const bbcode = '[quote=alice]Try this[/quote]\nThanks!';
    pages.set('/discuss/post/7002/source/', { body: bbcode, type: 'text/plain; charset=utf-8' });
    expect(await session().forums.postSource(7002)).toBe(bbcode);
    // A login page where the source was due, a link to a page without the post: refused.
    pages.set('/discuss/post/7003/source/', { body: '<html><body>Log in</body></html>' });
    expect((await refusal(session().forums.postSource(7003))).reason).toMatch(
      /plain text \(it is text\/html\)/,
    );
    pages.set('/discuss/post/7999/', {
      status: 302,
      body: '',
      headers: { Location: '/discuss/topic/2001/?page=1#post-7999' },
    });
    expect((await refusal(at(() => session().forums.post(7999)))).reason).toMatch(/post 7999 \(div#p7999\)/);
    pages.set('/discuss/post/7998/', { status: 302, body: '', headers: { Location: '/accounts/login/' } });
    pages.set('/accounts/login/', { body: '<html><body>Log in</body></html>' });
    expect((await refusal(session().forums.post(7998))).reason).toMatch(/led to \/accounts\/login\//);
  });

  it("reads the live feed: bare ids, the group's name first in an entry's title", async () => {
    pages.set('/discuss/feeds/topic/2001/', {
      body: fixture('forum-topic-feed.xml'),
      type: 'application/atom+xml; charset=utf-8',
    });
    const topic = await session().forums.topic(2001);
    expect(topic).toMatchObject({ id: 2001, title: 'My topic', category: 'Suggestions' });
    expect(topic.posts.map((p) => [p.id, p.author, p.time?.toISOString()])).toEqual([
      [7003, 'carol', '2024-09-04T04:05:00.000Z'],
      [7002, 'bob', '2024-09-03T14:11:12.000Z'],
    ]);
  });
});

describe('profile pages that are not what the readers expect', () => {
  const heading = (text: string) => `<div class="box"><div class="box-head"><h2>${text}</h2></div></div>`;
  const item = (id: number) =>
    `<li class="project thumb item"><a href="/projects/${id}/"></a><span class="title"><a href="/projects/${id}/">P${id}</a></span><span class="owner">by <a href="/users/bob/">bob</a></span></li>`;
  it('refuses a heading without its count, a page of another list, and a loves page of more than 40', async () => {
    const user = 'alice';
    // The API's record gives the name as the site spells it.
    pages.set(`/users/${user}`, {
      type: 'application/json',
      body: JSON.stringify({ id: 1, username: user, scratchteam: false, profile: {} }),
    });
    for (const [path, text] of [
      ['followers', 'Followers (12)'],
      ['following', 'Following (3)'],
      ['projects', 'Shared Projects (1234)'],
      ['studios', 'Studios I Curate (0)'],
      ['favorites', 'Favorites (7)'],
    ] as const) {
      pages.set(`/users/${user}/${path}/`, { body: heading(text) });
    }
    pages.set(`/projects/all/${user}/loves/`, {
      body: `${heading('Projects alice Loves &raquo;\n\n (2)')}<div class="media-grid"><ul>${item(1)}${item(2)}</ul></div>`,
    });
    expect(await session().users.totals(user)).toEqual({
      username: user,
      followers: 12,
      following: 3,
      projects: 1234,
      studios: 0,
      favorites: 7,
      loves: 2,
    });
    expect(await session().users.loves(user)).toEqual([
      { id: 1, title: 'P1', author: 'bob' },
      { id: 2, title: 'P2', author: 'bob' },
    ]);
    pages.set(`/users/${user}/following/`, { body: heading('Following (many)') });
    expect((await refusal(session().users.totals(user))).reason).toMatch(
      /count in the "Following \(N\)" heading/,
    );
    pages.set(`/users/${user}/following/`, { body: heading('Log in to Scratch') });
    expect((await refusal(session().users.totals(user))).reason).toMatch(/"Following \(N\)" heading/);
    const many = Array.from({ length: 41 }, (_, i) => item(i + 1)).join('');
    pages.set(`/projects/all/${user}/loves/`, {
      body: `${heading('Loves (41)')}<div class="media-grid"><ul>${many}</ul></div>`,
    });
    expect((await refusal(session().users.loves(user))).reason).toMatch(/at most 40 projects \(it holds 41/);
  });
});

describe("the credits page's script (scratch-www people.json, bundled)", () => {
  it("reads the team from JSON.parse('…') with the string's escapes, and refuses a script without it", async () => {
    const js = (literal: string) =>
      `!function(e){var a=1;var people=JSON.parse('${literal}');e.x=people}(window);`;
    pages.set('/js/credits.bundle.js', {
      type: 'application/javascript',
      // The JSON's own escapes are doubled in the single-quoted string, as a bundler writes them.
      body: js(
        String.raw`[{"userName":"ceebee","userId":2755634,"name":"Christan"},{"userName":"","userId":"","name":"Abisola"},{"userName":"o\'neil","userId":7,"name":"Zo\u00eb \\\\ back"}]`,
      ),
    });
    expect(await session().users.scratchTeam()).toEqual([
      { username: 'ceebee', id: 2755634, name: 'Christan' },
      { username: null, id: null, name: 'Abisola' },
      { username: "o'neil", id: 7, name: 'Zoë \\ back' },
    ]);
    for (const [body, reason] of [
      ['console.log(1)', /team list \(JSON\.parse/],
      [js('[{"userName"').replace("');", ''), /end of the team list string/],
      [js('[{"userName":1}]'), /name and userName of member 1/],
      [js('[{"userName":"a","name":"b"}'), /parses as JSON/],
    ] as const) {
      pages.set('/js/credits.bundle.js', { type: 'application/javascript', body });
      expect((await refusal(session().users.scratchTeam())).reason).toMatch(reason);
    }
  });
});
