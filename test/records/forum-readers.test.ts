import { describe, expect, it } from 'vitest';
import {
  type ForumClock,
  MAX_ROWS_PER_PAGE,
  pagePosition,
  parseCategories,
  parseCount,
  parsePostPage,
  parseTopicFeed,
  parseTopicList,
} from '../../src/records/forum-html.js';
import { parseHtml } from '../../src/records/html.js';
import { missingPart } from '../support/refusals.js';

// The forum readers on small pages in the site's markup (WIRE.md §12.1; the captured pages are
// read in live-markup.test.ts): ids only from well-formed links, counts in any grouping, the
// refusal of a page in another language, and the limits.
const CLOCK: ForumClock = { timeZone: 'UTC', now: Date.parse('2024-06-05T12:00:00Z') };

const topicRow = (href: string, extra = '', last = '') =>
  `<tr><td class="tcl"><div class="intd"><div class="icon ${extra}"></div><div class="tclcon"><h3><a href="${href}">T</a></h3><span class="byuser">by ann</span></div></div></td><td class="tc2">1</td><td class="tc3">2</td><td class="tcr">${last}</td></tr>`;
const topicPage = (rows: string, lang = '') =>
  `<html${lang}><h4><span>Cat</span></h4><table><tbody>${rows}</tbody></table></html>`;

describe('forum pages', () => {
  it('reads counts in any grouping, and nothing else as one', () => {
    expect(parseCount('1,234')).toBe(1234);
    expect(parseCount("12 345\u00a0678\u202f9'0.1")).toBe(12345678901);
    expect(parseCount('')).toBeNull();
    expect(parseCount('12a')).toBeNull();
    expect(parseCount('a12')).toBeNull();
    expect(parseCount('1'.repeat(16))).toBeNull();
  });

  it('takes topic ids only from /discuss/topic/<positive id>/ links', () => {
    for (const href of [
      '/discuss/topic/0/',
      '/discuss/topic/12a/',
      '/discuss/topic/a12/',
      '/discuss/post/5/',
      '/forum/topic/5/',
      '/discuss/topic/',
      'http://[x/',
    ]) {
      expect([href, missingPart(() => parseTopicList(topicPage(topicRow(href)), 1, CLOCK))]).toEqual([
        href,
        'topic link (/discuss/topic/<id>/) in row 1',
      ]);
    }
    const page = parseTopicList(
      topicPage(
        topicRow(
          '/discuss/topic/7/',
          'isticky',
          '<a href="/discuss/post/0/">Today 10:00:00</a> <span class="byuser">von bo</span>',
        ) +
          topicRow(
            'https://scratch.mit.edu/discuss/topic/8',
            'iclosed',
            '<a href="/discuss/post/99/">Yesterday 09:00:00</a>',
          ) +
          '<tr><td colspan="4">not a topic</td></tr>',
      ),
      3,
      CLOCK,
    );
    expect(page).toEqual({
      category: 'Cat',
      page: null,
      pages: null,
      topics: [
        {
          id: 7,
          title: 'T',
          category: 'Cat',
          categoryId: 3,
          author: 'ann',
          replies: 1,
          views: 2,
          sticky: true,
          closed: false,
          lastPost: { id: null, time: null, author: 'bo' },
        },
        {
          id: 8,
          title: 'T',
          category: 'Cat',
          categoryId: 3,
          author: 'ann',
          replies: 1,
          views: 2,
          sticky: false,
          closed: true,
          lastPost: { id: 99, time: new Date('2024-06-04T09:00:00Z'), author: null },
        },
      ],
    });
  });

  it('refuses a time it cannot read, naming the page language when it is not English', () => {
    const row = topicRow('/discuss/topic/7/', '', '<a href="/discuss/post/9/">Heute 10:00:00</a>');
    expect(missingPart(() => parseTopicList(topicPage(row, ' lang="de"'), 1, CLOCK))).toBe(
      `English text: it is in German (de) (its topic 7's last-post time shows "Heute 10:00:00"); the forums answer in the language of the account's forum profile, so set that to English or read without logging in`,
    );
    expect(
      missingPart(() => parseTopicList(topicPage(row), 1, { ...CLOCK, language: 'fr-CA, en;q=0.5' })),
    ).toMatch(
      /^English text: it is in Canadian French \(fr-CA\) \(its topic 7's last-post time shows "Heute 10:00:00"\)/,
    );
    // A tag the runtime cannot name (not even well-formed) is shown as it came.
    expect(missingPart(() => parseTopicList(topicPage(row), 1, { ...CLOCK, language: 'e' }))).toMatch(
      /^English text: it is in e \(its/,
    );
    for (const english of [' lang="en"', ' lang="EN-gb"', '']) {
      expect(missingPart(() => parseTopicList(topicPage(row, english), 1, CLOCK))).toBe(
        `readable topic 7's last-post time (it shows "Heute 10:00:00")`,
      );
    }
    // "enx" is not English.
    expect(missingPart(() => parseTopicList(topicPage(row, ' lang="enx"'), 1, CLOCK))).toMatch(
      /^English text: it is in enx/,
    );
  });

  it('refuses a list page without its parts, and one of more rows than any page holds', () => {
    expect(missingPart(() => parseTopicList('<table></table>', 1, CLOCK))).toBe(
      'category heading (h4 > span)',
    );
    expect(missingPart(() => parseTopicList('<h4><span>C</span></h4>', 1, CLOCK))).toBe('topic table');
    expect(missingPart(() => parseTopicList(topicPage(''), 1, CLOCK))).toBe(
      'topic rows, nor the empty-forum marker (td.djangobbcon1)',
    );
    expect(
      parseTopicList(topicPage('<tr><td class="djangobbcon1">Forum is empty.</td></tr>'), 1, CLOCK).topics,
    ).toEqual([]);
    const many = topicRow('/discuss/topic/7/').repeat(MAX_ROWS_PER_PAGE + 1);
    expect(missingPart(() => parseTopicList(topicPage(many), 1, CLOCK))).toBe(
      'more than 1000 topic rows (refused: a page holds a few dozen)',
    );
    expect(
      parseTopicList(topicPage(topicRow('/discuss/topic/7/').repeat(MAX_ROWS_PER_PAGE)), 1, CLOCK).topics,
    ).toHaveLength(1000);
    expect(
      missingPart(() =>
        parseTopicList(
          topicPage(
            topicRow('/discuss/topic/7/').replace('<td class="tc2">1</td>', '<td class="tc2">x</td>'),
          ),
          1,
          CLOCK,
        ),
      ),
    ).toBe('reply count of topic 7');
  });

  it('reads where a page stands from its pagination bar', () => {
    const at = (bar: string) => pagePosition(parseHtml(`<div class="pagination">${bar}</div>`));
    expect(
      at(
        '<a href="?page=1">1</a> <span class="current">2</span> <a href="?page=3">3</a> <a href="?page=3">Next</a>',
      ),
    ).toEqual({
      page: 2,
      pages: 3,
    });
    expect(at('<span class="current">5</span>')).toEqual({ page: 5, pages: 5 });
    expect(at('<span>9</span><a>x</a>')).toEqual({ page: null, pages: null });
    expect(pagePosition(parseHtml('<p>no bar</p>'))).toEqual({ page: null, pages: null });
  });

  it('reads categories with their group name and refuses rows without a category link', () => {
    const index = (rows: string) =>
      `<div class="box"><h4><a href="#">Toggle shoutbox</a>Welcome to Scratch</h4><table>${rows}</table></div><div class="box"><p>no table</p></div>`;
    const row = (href: string) =>
      `<tr><td class="tcl"><div class="tclcon"><h3><a href="${href}">Announcements</a></h3>Updates from the <b>Scratch</b> Team</div></td><td class="tc2">1,002</td><td class="tc3">3</td><td class="tcr"><a href="/discuss/post/9/">Today 10:11:12</a> <span class="byuser">by bo</span></td></tr>`;
    expect(parseCategories(index(`<tr><td>one cell</td></tr>${row('/discuss/5/')}`), CLOCK)).toEqual([
      {
        id: 5,
        name: 'Announcements',
        group: 'Welcome to Scratch',
        description: 'Updates from the Scratch Team',
        topics: 1002,
        posts: 3,
        lastPost: { id: 9, time: new Date('2024-06-05T10:11:12Z'), author: 'bo' },
      },
    ]);
    for (const href of ['/discuss/topic/5/', '/discuss/0/', '/discuss/5/x/']) {
      expect(missingPart(() => parseCategories(index(row(href)), CLOCK))).toBe(
        'category link (/discuss/<id>/) in row 1',
      );
    }
    expect(missingPart(() => parseCategories('<div class="box"><table></table></div>', CLOCK))).toBe(
      'category rows (div.box table tr with a /discuss/<id>/ link)',
    );
  });

  it('reads a topic page: title from the trail, else the first post, and each post', () => {
    const post = (id: string, index: string, extra = '') =>
      `<div id="${id}" class="blockpost"><div class="box-head"><span class="conr">${index}</span><a href="/discuss/post/1/">Today 10:00:00</a></div><h3>Re: First title</h3><div class="postleft"><dl><dt><a href="/users/ann/">ann</a></dt></dl></div><div class="post_body_html">Hello<br>world<pre>  a\n\n  b  \n\n</pre><blockquote>q</blockquote></div>${extra}</div>`;
    const page = (trail: string, posts: string) =>
      `<div class="djangobb"><div class="linkst"><ul>${trail}</ul></div><div class="pagination"><span class="current">1</span></div>${posts}</div>`;
    const read = parsePostPage(
      page(
        '<li><a href="/discuss/">Discussion Home</a></li><li>» <a href="/discuss/5/">Announcements</a></li><li>» The title <a href="/discuss/feeds/topic/3/">RSS</a></li>',
        post('p11', '#1', '<em class="posteditmessage">Last edited by bo (Jun 3, 2024 10:11:12)</em>'),
      ),
      3,
      CLOCK,
    );
    expect(read).toMatchObject({
      title: 'The title',
      category: 'Announcements',
      categoryId: 5,
      page: 1,
      pages: 1,
    });
    expect(read.posts[0]).toMatchObject({
      id: 11,
      topicId: 3,
      topicTitle: 'The title',
      index: 1,
      author: 'ann',
      time: new Date('2024-06-05T10:00:00Z'),
      text: 'Hello\nworld\n  a\n\n  b\nq',
      editNote: 'Last edited by bo (Jun 3, 2024 10:11:12)',
      editedBy: 'bo',
      editedAt: new Date('2024-06-03T10:11:12Z'),
    });
    expect(
      parsePostPage(page('', post('p12', '#2', '<em class="posteditmessage">edited</em>')), 3, CLOCK),
    ).toMatchObject({
      title: 'First title',
      category: '',
      categoryId: null,
      posts: [{ id: 12, index: 2, editNote: 'edited', editedBy: null, editedAt: null }],
    });
    expect(missingPart(() => parsePostPage('<div>no wrapper</div>', 3, CLOCK))).toBe(
      'forum wrapper (div.djangobb)',
    );
    expect(missingPart(() => parsePostPage(page('', post('x12', '#2')), 3, CLOCK))).toBe(
      'post id (div.blockpost id="p<digits>")',
    );
    expect(missingPart(() => parsePostPage(page('', post('p0', '#2')), 3, CLOCK))).toBe(
      'post id (div.blockpost id="p<digits>")',
    );
    expect(missingPart(() => parsePostPage(page('', post('p12', 'two')), 3, CLOCK))).toBe(
      'index (span.conr "#N") of post 12',
    );
    expect(
      missingPart(() =>
        parsePostPage(page('', post('p12', '#2').replace('<a href="/users/ann/">ann</a>', '')), 3, CLOCK),
      ),
    ).toBe('author (dl dt a) of post 12');
    expect(
      missingPart(() =>
        parsePostPage(page('', post('p12', '#2').replace('post_body_html', 'other')), 3, CLOCK),
      ),
    ).toBe('body (div.post_body_html) of post 12');
  });

  it('reads a topic feed and refuses one that is not Atom or has no entries', () => {
    const entry = (link: string, id: string) =>
      `<entry><title>Forums :: Help :: Topic</title><link href="${link}"/><author><name>ann</name></author><published>2024-06-01T10:00:00Z</published><id>${id}</id><summary type="html">&lt;b&gt;hi&lt;/b&gt;</summary></entry>`;
    const feed = (entries: string, title = 'Latest posts on My topic') =>
      `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>${title}</title><updated>2024-06-02T00:00:00Z</updated>${entries}</feed>`;
    expect(
      parseTopicFeed(
        feed(
          entry('https://scratch.mit.edu/discuss/post/77/', 'x') +
            entry('https://scratch.mit.edu/other/', '88') +
            entry('', 'https://scratch.mit.edu/discuss/post/99/'),
        ),
        3,
      ),
    ).toEqual({
      id: 3,
      title: 'My topic',
      category: 'Help',
      updated: new Date('2024-06-02T00:00:00Z'),
      posts: [
        {
          id: 77,
          title: 'Forums :: Help :: Topic',
          author: 'ann',
          time: new Date('2024-06-01T10:00:00Z'),
          link: 'https://scratch.mit.edu/discuss/post/77/',
          html: '<b>hi</b>',
        },
        {
          id: 88,
          title: 'Forums :: Help :: Topic',
          author: 'ann',
          time: new Date('2024-06-01T10:00:00Z'),
          link: 'https://scratch.mit.edu/other/',
          html: '<b>hi</b>',
        },
        {
          id: 99,
          title: 'Forums :: Help :: Topic',
          author: 'ann',
          time: new Date('2024-06-01T10:00:00Z'),
          link: null,
          html: '<b>hi</b>',
        },
      ],
    });
    expect(missingPart(() => parseTopicFeed('<rss><channel></channel></rss>', 3))).toBe(
      'Atom feed (<feed> element)',
    );
    expect(missingPart(() => parseTopicFeed(feed(''), 3))).toBe('feed entries (<entry>)');
    expect(missingPart(() => parseTopicFeed(feed(entry('/discuss/post/1/', '1'), '  '), 3))).toBe(
      'feed title',
    );
  });
});
