import { describe, expect, it } from 'vitest';
import {
  parseProfileComment,
  parseProfileComments,
  profileCommentRefusal,
} from '../../src/records/profile-comments.js';
import { parseUserActivity } from '../../src/records/user-activity-html.js';

// A profile's activity page and its comments as the site writes them (WIRE.md §11.2, §11.4), read
// into exact records: every verb, link kind and refusal.
const NOW = Date.parse('2025-05-27T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const item = (verb: string, links: string, ago = '1\u00a0hour ago') =>
  `<li><div><span class="actor">ann</span> ${verb} ${links} <span class="time">${ago}</span></div></li>`;

describe('a profile activity page', () => {
  it('reads each verb the site writes as its type, the longest verb first', () => {
    const cases: [string, string][] = [
      ['is now following the studio', 'followstudio'],
      ['is now following', 'followuser'],
      ['shared the project', 'shareproject'],
      ['became a curator of', 'becomecurator'],
      ['was promoted to manager of', 'becomeownerstudio'],
      ['joined Scratch', 'userjoin'],
      ['favorited', 'favoriteproject'],
      ['remixed', 'remixproject'],
      ['Loved', 'loveproject'],
      ['added', 'addprojecttostudio'],
      ['waved at', 'other'],
    ];
    const html = `<ul>${cases.map(([verb]) => item(verb, '<a href="/projects/5/">P</a>')).join('')}</ul>`;
    expect(parseUserActivity(html, NOW).map((a) => [a.verb, a.type])).toEqual(cases);
  });

  it('reads the links as project, studio, user or other, and the time back from now', () => {
    const html = `<ul>${item(
      'added',
      '<a href="/projects/12/">Game</a> to <a href="https://scratch.mit.edu/studios/34/">Studio</a>',
      '2\u00a0days, 3\u00a0hours ago',
    )}${item('is now following', '<a href="/users/bo%2Dx/">bo-x</a>', 'just now')}${item(
      'loved',
      '<a href="/projects/x1/">odd</a><a href="/about/">about</a>',
    )}${item('loved', '<a href="http://[bad/">bad</a>')}${item('joined Scratch', '')}</ul>`;
    const items = parseUserActivity(html, NOW);
    expect(items[0]).toEqual({
      type: 'addprojecttostudio',
      actor_username: 'ann',
      verb: 'added',
      target: { kind: 'project', id: 12, name: 'Game', href: '/projects/12/' },
      secondTarget: { kind: 'studio', id: 34, name: 'Studio', href: 'https://scratch.mit.edu/studios/34/' },
      datetime_created: new Date(NOW - 2 * DAY - 3 * HOUR).toISOString(),
      // Text is read with its spaces made plain.
      ago: '2 days, 3 hours ago',
    });
    expect(items[1]).toMatchObject({
      target: { kind: 'user', id: 'bo-x', name: 'bo-x', href: '/users/bo%2Dx/' },
      secondTarget: null,
      datetime_created: new Date(NOW).toISOString(),
      ago: 'just now',
    });
    expect(items[2]!.target).toEqual({ kind: 'project', id: null, name: 'odd', href: '/projects/x1/' });
    expect(items[2]!.secondTarget).toEqual({ kind: 'other', id: null, name: 'about', href: '/about/' });
    expect(items[3]!.target).toEqual({ kind: 'other', id: null, name: 'bad', href: 'http://[bad/' });
    expect(items[4]).toMatchObject({ type: 'userjoin', target: null, secondTarget: null });
    expect(items).toHaveLength(5);
  });

  it('reads a class activity list of bare spans, and skips items without an actor', () => {
    const html =
      '<ul><li><div><span>stud1</span> loved <a href="/projects/555/">Proj</a> <span>2&nbsp;days ago</span></div></li>' +
      '<li>no actor here</li><li><div><span>only one span</span> loved</div></li>' +
      '<li><span>bare</span> shared the project <a href="/projects/7/">S</a> <span>1 minute ago</span></li>' +
      '<li><a href="/users/x/">x</a><users/users/></li></ul>';
    const items = parseUserActivity(html, NOW);
    expect(items).toEqual([
      {
        type: 'loveproject',
        actor_username: 'stud1',
        verb: 'loved',
        target: { kind: 'project', id: 555, name: 'Proj', href: '/projects/555/' },
        secondTarget: null,
        datetime_created: new Date(NOW - 2 * DAY).toISOString(),
        ago: '2 days ago',
      },
      {
        type: 'shareproject',
        actor_username: 'bare',
        verb: 'shared the project',
        target: { kind: 'project', id: 7, name: 'S', href: '/projects/7/' },
        secondTarget: null,
        datetime_created: new Date(NOW - 60_000).toISOString(),
        ago: '1 minute ago',
      },
    ]);
    // A classed actor with no time span: no elapsed time.
    expect(parseUserActivity('<li><div><span class="actor">a</span> loved</div></li>', NOW)[0]).toMatchObject(
      {
        actor_username: 'a',
        ago: '',
        datetime_created: new Date(NOW).toISOString(),
      },
    );
  });
});

const comment = (id: number, user: string, thread: number, extra = '') =>
  `<div class="comment" data-comment-id="${id}"><a href="/users/${user}" data-comment-user="${user}"><img class="avatar" src="//cdn2.scratch.mit.edu/get_image/user/${id}_60x60.png"></a>` +
  `<div class="info"><div class="name"><a href="/users/${user}">${user}</a></div><div class="content">Hi  from\n ${user}</div>` +
  `<span class="time" title="2025-05-27T10:00:00Z">1 hour ago</span>` +
  `<a class="reply" data-comment-id="${id}" data-parent-thread="${thread}" data-commentee-id="${id + 1000}">reply</a>${extra}</div></div>`;

describe('profile comments', () => {
  it('nests replies under their thread, in page order, with the answer scheme', () => {
    const html = `<ul>${comment(10, 'ann', 10)}${comment(11, 'bo', 10)}${comment(12, 'cy', 99)}${comment(13, 'dee', 10)}</ul>`;
    const comments = parseProfileComments(html, 'http://127.0.0.1:1/site-api/comments/user/x/');
    expect(comments.map((c) => [c.id, c.parent_id, c.reply_count, c.replies?.map((r) => r.id)])).toEqual([
      [10, null, 2, [11, 13]],
      [12, 99, 0, []],
    ]);
    expect(comments[0]).toMatchObject({
      content: 'Hi from ann',
      datetime_created: '2025-05-27T10:00:00Z',
      author: { username: 'ann', id: 1010, image: 'http://cdn2.scratch.mit.edu/get_image/user/10_60x60.png' },
    });
    expect(parseProfileComments(html)[0]!.author.image).toBe(
      'https://cdn2.scratch.mit.edu/get_image/user/10_60x60.png',
    );
  });

  it('takes the author from the name when there is no data-comment-user, and skips comments without one', () => {
    const bare =
      '<div class="comment" data-comment-id="0"><div class="name">zero</div></div>' +
      '<div class="comment" data-comment-id="5"><div class="content">no author</div></div>' +
      '<div class="comment" data-comment-id="x7"><div class="name">bad id</div></div>' +
      '<div class="comment" data-comment-id="6"><div class="name">named</div></div>';
    expect(parseProfileComments(bare)).toEqual([
      {
        id: 6,
        parent_id: null,
        content: '',
        datetime_created: '',
        author: { username: 'named' },
        reply_count: 0,
        replies: [],
      },
    ]);
    expect(parseProfileComment(bare)).toEqual({
      id: 6,
      parent_id: null,
      content: '',
      datetime_created: '',
      author: { username: 'named' },
      reply_count: 0,
    });
    expect(parseProfileComment('<div class="comment">no id</div>')).toBeUndefined();
    expect(parseProfileComment(comment(20, 'ann', 20), 'http://127.0.0.1/')).toMatchObject({
      id: 20,
      parent_id: null,
      author: { username: 'ann', id: 1020, image: 'http://cdn2.scratch.mit.edu/get_image/user/20_60x60.png' },
    });
  });

  it('reads the refusal an answer carries, and nothing else as one', () => {
    const refusal = (json: string) =>
      `<div><script id="error-data" type="application/json">${json}</script></div>`;
    expect(profileCommentRefusal(refusal('{"error":"isMuted","mute_status":{"offenses":[]}}'))).toEqual({
      error: 'isMuted',
      mute_status: { offenses: [] },
    });
    for (const html of [
      comment(1, 'a', 1),
      '<p>error-data</p>',
      refusal('{"error":""}'),
      refusal('{"error":5}'),
      refusal('["error"]'),
      refusal('null'),
      refusal('not json'),
      '<script id="other">{"error":"x"}</script> error-data',
    ]) {
      expect(profileCommentRefusal(html)).toBeUndefined();
    }
  });
});
