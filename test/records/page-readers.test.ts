import { describe, expect, it } from 'vitest';
import { normalizeRecord, parseAnswer, quoteUnsafeIntegers } from '../../src/records/answers.js';
import { parseClassPage, parseClassStudents, parseClassStudios } from '../../src/records/classroom-html.js';
import { classActivityName } from '../../src/records/classroom-records.js';
import { parseCreditsBundle } from '../../src/records/credits-bundle.js';
import { parseMyStuffCounts } from '../../src/records/my-stuff-html.js';
import {
  MAX_LOVES_PER_PAGE,
  parseLovesPage,
  parseProfileCount,
  parseProfileGroup,
} from '../../src/records/profile-pages-html.js';
import { formatTimeSince, parseTimeSince } from '../../src/records/time-since.js';
import { missingPart } from '../support/refusals.js';

// The readers of the site's pages and answers, on small pages written here in the site's markup
// (the sandbox's pages and the captured ones are read by the client tests): what each reads, and
// the exact refusal of a page that is not what it expects.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('relative times (Django timesince)', () => {
  it('writes the largest unit and the next one when it is not zero', () => {
    expect(formatTimeSince(0)).toBe('0\u00a0minutes ago');
    expect(formatTimeSince(MINUTE - 1)).toBe('0\u00a0minutes ago');
    expect(formatTimeSince(-5 * DAY)).toBe('0\u00a0minutes ago');
    expect(formatTimeSince(Number.NaN)).toBe('0\u00a0minutes ago');
    expect(formatTimeSince(MINUTE)).toBe('1\u00a0minute ago');
    expect(formatTimeSince(2 * DAY + 3 * HOUR + 59 * MINUTE)).toBe('2\u00a0days, 3\u00a0hours ago');
    expect(formatTimeSince(DAY + 30 * MINUTE)).toBe('1\u00a0day ago');
    expect(formatTimeSince(7 * DAY)).toBe('1\u00a0week ago');
    expect(formatTimeSince(30 * DAY + 14 * DAY)).toBe('1\u00a0month, 2\u00a0weeks ago');
    expect(formatTimeSince(365 * DAY + 60 * DAY)).toBe('1\u00a0year, 2\u00a0months ago');
    expect(formatTimeSince(HOUR + MINUTE)).toBe('1\u00a0hour, 1\u00a0minute ago');
    expect(formatTimeSince(59 * MINUTE + 59_999)).toBe('59\u00a0minutes ago');
  });

  it('reads any spacing and case back to milliseconds, null without a unit', () => {
    expect(parseTimeSince('2\u00a0days, 3\u00a0hours ago')).toBe(2 * DAY + 3 * HOUR);
    expect(parseTimeSince('1 Minute ago')).toBe(MINUTE);
    expect(parseTimeSince('  1  year,2 months ago')).toBe(365 * DAY + 60 * DAY);
    expect(parseTimeSince('0 minutes ago')).toBe(0);
    expect(parseTimeSince('3 weeks')).toBe(21 * DAY);
    expect(parseTimeSince('a day ago')).toBeNull();
    expect(parseTimeSince('2.5 hours ago')).toBeNull();
    expect(parseTimeSince('2 fortnights ago')).toBeNull();
    expect(parseTimeSince('')).toBeNull();
    // A count is taken with the word after it only: "5 2 hours" is 2 hours.
    expect(parseTimeSince('5 2 hours')).toBe(2 * HOUR);
  });
});

describe('private class activity codes (WIRE.md §12.2.3)', () => {
  it('names every code as the wire notes list them, anything else performaction', () => {
    const names = new Map<number, string>([
      [0, 'followuser'],
      [1, 'followstudio'],
      [2, 'loveproject'],
      [3, 'favoriteproject'],
      [7, 'addprojecttostudio'],
      [8, 'shareproject'],
      [9, 'shareproject'],
      [10, 'shareproject'],
      [11, 'remixproject'],
      [13, 'createstudio'],
      [15, 'updatestudio'],
      [16, 'removeprojectfromstudio'],
      [17, 'removeprojectfromstudio'],
      [18, 'removeprojectfromstudio'],
      [19, 'removeprojectfromstudio'],
      [20, 'becomeownerstudio'],
      [21, 'becomeownerstudio'],
      [22, 'becomeownerstudio'],
      [23, 'updateprofile'],
      [24, 'updateprofile'],
      [25, 'updateprofile'],
      [26, 'addcomment'],
      [27, 'addcomment'],
    ]);
    for (let code = -1; code <= 30; code++) {
      expect([code, classActivityName(code as never)]).toEqual([code, names.get(code) ?? 'performaction']);
    }
  });
});

describe('API answers as the service sends them', () => {
  it('keeps integers past 2^53 as their digits, outside strings only', () => {
    expect(quoteUnsafeIntegers('[9007199254740993, 9007199254740991, "9007199254740993"]')).toBe(
      '["9007199254740993", 9007199254740991, "9007199254740993"]',
    );
    expect(quoteUnsafeIntegers('{"a":"x\\"1234567890123456789","b":-12345678901234567890}')).toBe(
      '{"a":"x\\"1234567890123456789","b":"-12345678901234567890"}',
    );
    // Fractions and exponents of a number are not integers of their own.
    expect(quoteUnsafeIntegers('[0.12345678901234567890, 1e12345678901234567890]')).toBe(
      '[0.12345678901234567890, 1e12345678901234567890]',
    );
    expect(parseAnswer('{"id": 12345678901234567890, "n": 1}')).toEqual({ id: '12345678901234567890', n: 1 });
  });

  it('gives protocol-relative URLs the answer scheme and zone-less times their Z, under their keys only', () => {
    const text = JSON.stringify({
      image: '//cdn2.scratch.mit.edu/a.png',
      thumbnail_url: '//uploads.scratch.mit.edu:8080/b',
      avatar: '//not a host/x',
      title: '//cdn2.scratch.mit.edu/kept',
      datetime_created: '2019-08-24T10:20:30',
      joined: '2019-08-24T10:20',
      modified: '2019-08-24T10:20:30.5',
      shared: '2019-08-24T10:20:30Z',
      about: '2019-08-24T10:20:30',
      images: { '90x90': '//cdn2.scratch.mit.edu/c' },
      list: ['//cdn2.scratch.mit.edu/d'],
    });
    expect(parseAnswer(text, 'https://api.scratch.mit.edu/x')).toEqual({
      image: 'https://cdn2.scratch.mit.edu/a.png',
      thumbnail_url: 'https://uploads.scratch.mit.edu:8080/b',
      avatar: '//not a host/x',
      title: '//cdn2.scratch.mit.edu/kept',
      datetime_created: '2019-08-24T10:20:30Z',
      joined: '2019-08-24T10:20Z',
      modified: '2019-08-24T10:20:30.5Z',
      shared: '2019-08-24T10:20:30Z',
      about: '2019-08-24T10:20:30',
      images: { '90x90': 'https://cdn2.scratch.mit.edu/c' },
      list: ['//cdn2.scratch.mit.edu/d'],
    });
    expect(parseAnswer(text, 'http://127.0.0.1:1/x')).toMatchObject({
      image: 'http://cdn2.scratch.mit.edu/a.png',
    });
    expect(parseAnswer(text)).toMatchObject({ image: 'https://cdn2.scratch.mit.edu/a.png' });
    expect(normalizeRecord({ icon: '//a.b/c' })).toEqual({ icon: 'https://a.b/c' });
    expect(normalizeRecord({ icon: '//a/c', url: '//a.b.' })).toEqual({ icon: '//a/c', url: '//a.b.' });
  });
});

describe('profile list pages', () => {
  const head = (h2: string) => `<div class="box-head"><h2>${h2}</h2></div>`;
  const item = (id: number, title: string, owner: string) =>
    `<li class="project thumb item"><a href="/projects/${id}/"><img></a><span class="title"><a href="/projects/${id}/">${title}</a></span><span class="owner">by <a href="/users/${owner}/">${owner}</a></span></li>`;

  it('reads the heading count after its label, with thousands separators', () => {
    expect(parseProfileCount(head('Followers (1,234)'), 'Followers')).toBe(1234);
    expect(parseProfileCount(head('Studios I Curate (0) '), 'Studios I Curate')).toBe(0);
    expect(missingPart(() => parseProfileCount(head('Following (3)'), 'Followers'))).toBe(
      '"Followers (N)" heading (it shows "Following (3)")',
    );
    expect(missingPart(() => parseProfileCount(head('Followers (many)'), 'Followers'))).toBe(
      'count in the "Followers (N)" heading',
    );
    expect(missingPart(() => parseProfileCount('<div class="box-head"></div>', 'Followers'))).toBe(
      'heading (div.box-head h2)',
    );
    expect(missingPart(() => parseProfileCount('<h2>Followers (3)</h2>', 'Followers'))).toBe(
      'heading (div.box-head h2)',
    );
  });

  it('reads a loves page and refuses one that misplaces its parts', () => {
    const page = (h2: string, items: string) => `${head(h2)}<div class="media-grid"><ul>${items}</ul></div>`;
    expect(parseLovesPage(page('Loves (2)', item(5, 'One', 'ann') + item(6, 'Two', 'bo')))).toEqual({
      total: 2,
      projects: [
        { id: 5, title: 'One', author: 'ann' },
        { id: 6, title: 'Two', author: 'bo' },
      ],
    });
    expect(parseLovesPage(head('Loves'))).toEqual({ total: 0, projects: [] });
    expect(parseLovesPage(`${head('Loves (0)')}`)).toEqual({ total: 0, projects: [] });
    expect(missingPart(() => parseLovesPage(head('Loves (3)')))).toBe('project list (div.media-grid)');
    expect(missingPart(() => parseLovesPage(page('Loves', item(5, 'One', 'ann'))))).toBe(
      'count "(N)" in the heading',
    );
    const many = Array.from({ length: MAX_LOVES_PER_PAGE + 1 }, (_, i) => item(i + 1, 't', 'u')).join('');
    expect(missingPart(() => parseLovesPage(page('Loves (41)', many)))).toBe(
      'page of at most 40 projects (it holds 41; the site shows 40)',
    );
    const forty = Array.from({ length: MAX_LOVES_PER_PAGE }, (_, i) => item(i + 1, 't', 'u')).join('');
    expect(parseLovesPage(page('Loves (40)', forty)).projects).toHaveLength(40);
    expect(
      missingPart(() =>
        parseLovesPage(
          page('Loves (2)', `${item(5, 'One', 'ann')}<li class="thumb"><a href="/studios/3/">x</a></li>`),
        ),
      ),
    ).toBe('project link, span.title and span.owner in item 2');
    // An owner span without a link names the owner by its text.
    expect(
      parseLovesPage(
        page(
          'Loves (1)',
          '<li class="thumb"><a href="/projects/9"></a><span class="title">T</span><span class="owner">zed</span></li>',
        ),
      ).projects,
    ).toEqual([{ id: 9, title: 'T', author: 'zed' }]);
  });

  it('reads the group of a profile header, its last span.group', () => {
    expect(
      parseProfileGroup(
        '<div class="header-text"><span class="group">Scratcher</span><span class="group">New Scratcher</span></div>',
      ),
    ).toBe('New Scratcher');
    expect(missingPart(() => parseProfileGroup('<div class="header-text"></div>'))).toBe(
      'group (div.header-text span.group)',
    );
    expect(missingPart(() => parseProfileGroup('<span class="group">Scratcher</span>'))).toBe(
      'group (div.header-text span.group)',
    );
  });
});

describe('classroom pages', () => {
  const classPage = (script: string, extra = '') =>
    `<html><head><title>Room 5 on Scratch</title></head><body><p class="overview">About it</p><p class="overview">Working on</p>${extra}<script>${script}</script></body></html>`;

  it('reads a closed class from its page', () => {
    const page = classPage(
      "Scratch.INIT_DATA.PROFILE = { model: { id: 'teach_1', x: 1 } };",
      '<span>Students (1,204)</span><span>Class Studios (3)</span>',
    );
    expect(parseClassPage(page, 7)).toEqual({
      id: 7,
      title: 'Room 5',
      description: 'About it',
      status: 'Working on',
      date_start: null,
      date_end: null,
      closed: true,
      educator: { username: 'teach_1' },
      student_count: 1204,
      studio_count: 3,
    });
    const bare = parseClassPage(
      classPage("Scratch.INIT_DATA.PROFILE = { model: { id: 'a' } }", '<span>Students (x)</span>'),
      1,
    );
    expect(bare).not.toHaveProperty('student_count');
    expect(bare).not.toHaveProperty('studio_count');
    expect(missingPart(() => parseClassPage('<p class="overview">a</p>', 1))).toBe('<title> (a class page)');
    expect(missingPart(() => parseClassPage('<title>t</title><p class="overview">a</p>', 1))).toBe(
      'p.overview about and status (a class page)',
    );
    for (const script of [
      'var x = 1;',
      'Scratch.INIT_DATA.PROFILE = {};',
      "Scratch.INIT_DATA.PROFILE = { model: { id: '' } }",
      "Scratch.INIT_DATA.PROFILE = { model: { id: 'a b' } }",
      "id: 'early'; Scratch.INIT_DATA.PROFILE = {}",
      "var a = { id: 'nomarker' };",
      "x='abcd';Scratch.INIT_DATA.PROFILE={}",
      "Scratch.INIT_DATA.PROFILE = { model: { id: 'abcd",
    ]) {
      expect(missingPart(() => parseClassPage(classPage(script), 1))).toBe(
        'educator (Scratch.INIT_DATA.PROFILE of a class page)',
      );
    }
    // Only a script names the educator; the first script that does wins.
    const inText = `<title>T</title><p class="overview">a</p><p class="overview">b</p><p>Scratch.INIT_DATA.PROFILE = { model: { id: 'fake' } }</p>`;
    expect(missingPart(() => parseClassPage(inText, 1))).toBe(
      'educator (Scratch.INIT_DATA.PROFILE of a class page)',
    );
    const two = classPage(
      "Scratch.INIT_DATA.PROFILE = { model: { id: 'first' } }</script><script>Scratch.INIT_DATA.PROFILE = { model: { id: 'second' } }",
    );
    expect(parseClassPage(two, 1).educator).toEqual({ username: 'first' });
    // Counts: at the very start of the page's text too; only digits (and separators) count.
    const counted = (extra: string) =>
      parseClassPage(
        `${extra}<title>T</title><p class="overview">a</p><p class="overview">b</p><script>Scratch.INIT_DATA.PROFILE = { model: { id: 'ed' } }</script>`,
        1,
      );
    expect(counted('Students (2)').student_count).toBe(2);
    expect(counted('Students (12a) Class Studios (a12)')).not.toHaveProperty('student_count');
    expect(counted('Students (12a) Class Studios (a12)')).not.toHaveProperty('studio_count');
    expect(counted('Students (1234567890)')).not.toHaveProperty('student_count');
  });

  it('reads students and studios by their links, once each, in page order', () => {
    const students = parseClassStudents(
      '<ul><li class="user"><a href="/users/Ann/"><img></a><a href="/users/Ann/">Ann</a></li>' +
        '<li class="user"><a href="/users/ann">again</a><a href="/users/bo%2Dx/">bo-x</a><a href="/users/cy/projects/">no</a><a href="/studios/3/">no</a><a href="http://[bad">no</a></li>' +
        '<li class="user"><a href="/users/">no name</a><a>no link</a></li><li><a href="/users/dee/">not a user item</a></li></ul>',
    );
    expect(students).toEqual([{ username: 'Ann' }, { username: 'bo-x' }]);
    const studios = parseClassStudios(
      '<span class="title"><a href="/studios/12/">Twelve</a></span><span class="title"><a href="/studios/12/">again</a></span>' +
        '<span class="title"><a href="/studios/x/">no</a></span><span class="title"><a href="/studios/4/more/">no</a></span>' +
        '<span class="title"><a href="/users/4/">no</a></span><span class="title">no link</span><span class="title"><a href="https://scratch.mit.edu/studios/9">Nine</a></span>' +
        '<span class="title"><a href="/studios/">no</a></span><span class="title"><a href="/studios/x12/">no</a></span><span class="title"><a href="/studios/12x/">no</a></span>' +
        '<span class="other"><a href="/studios/77/">not a title</a></span><span class="title"><img><a href="/studios/8/">Eight</a></span>',
    );
    expect(studios).toEqual([
      { id: 12, title: 'Twelve' },
      { id: 9, title: 'Nine' },
      { id: 8, title: 'Eight' },
    ]);
  });
});

describe('My Stuff counts and the credits list', () => {
  it('reads the three counts, and names the one a page lacks', () => {
    const span = (name: string, text: string) => `<span data-content="${name}">${text}</span>`;
    expect(
      parseMyStuffCounts(
        span('shared-count', '1,024') + span('unshared-count', '0') + span('gallery-count', '7'),
      ),
    ).toEqual({ shared: 1024, unshared: 0, studios: 7 });
    expect(
      missingPart(() => parseMyStuffCounts(span('shared-count', '1') + span('gallery-count', '7'))),
    ).toBe('number in span[data-content=unshared-count]');
    expect(
      missingPart(() =>
        parseMyStuffCounts(
          span('shared-count', '1') + span('unshared-count', '2') + span('gallery-count', '-7'),
        ),
      ),
    ).toBe('number in span[data-content=gallery-count]');
  });

  it('reads the members of the credits script, and refuses a script that holds no list', () => {
    const script = (list: string) => `var a=1;e.exports=JSON.parse('${list}');`;
    expect(
      parseCreditsBundle(
        script(
          '[{"userName":"ann","userId":5,"name":"Ann"},{"userName":"","userId":0,"name":"Bo"},{"userName":"cy","userId":1.5,"name":"Cy"}]',
        ),
      ),
    ).toEqual([
      { username: 'ann', id: 5, name: 'Ann' },
      { username: null, id: null, name: 'Bo' },
      { username: 'cy', id: null, name: 'Cy' },
    ]);
    expect(missingPart(() => parseCreditsBundle('JSON.parse(\'[{"name":"x"}]\')'))).toBe(
      'team list (JSON.parse(\'[{"userName"…)',
    );
    expect(missingPart(() => parseCreditsBundle(`JSON.parse('[{"userName":"a"`))).toBe(
      'end of the team list string',
    );
    // The JavaScript string's escapes, as a bundler writes them (a JSON escape stays one for JSON).
    expect(
      parseCreditsBundle(
        String.raw`JSON.parse('[{"userName":"\u0061n\x6e","userId":5,"name":"O\'Ne\x69l\q\\n"}]')`,
      ),
    ).toEqual([{ username: 'ann', id: 5, name: "O'Neilq\n" }]);
    // A bad escape ends the list even when the string closes later; a lone backslash at the end too.
    for (const bad of ['\\u00zz', '\\u41', '\\ug041', '\\u004g', '\\x4', '\\xg1', '\\x4g']) {
      expect(missingPart(() => parseCreditsBundle(`JSON.parse('[{"userName":"a${bad}","name":"n"}]')`))).toBe(
        'end of the team list string',
      );
    }
    expect(missingPart(() => parseCreditsBundle(`JSON.parse('[{"userName":"a\\`))).toBe(
      'end of the team list string',
    );
    expect(missingPart(() => parseCreditsBundle(`JSON.parse('[{"userName":5,"name":"n"}]')`))).toBe(
      'name and userName of member 1',
    );
    expect(parseCreditsBundle(script('[{"userName":"a","userId":"5","name":"n"}]'))).toEqual([
      { username: 'a', id: null, name: 'n' },
    ]);
    const members = (n: number) =>
      `[${Array.from({ length: n }, () => '{"userName":"a","name":"n"}').join(',')}]`;
    expect(parseCreditsBundle(script(members(10_000)))).toHaveLength(10_000);
    expect(missingPart(() => parseCreditsBundle(script(members(10_001))))).toBe(
      'team list of at most 10000 members',
    );
    expect(missingPart(() => parseCreditsBundle(script('[{"userName":"a",}]')))).toBe(
      'team list that parses as JSON',
    );
    expect(missingPart(() => parseCreditsBundle(script('[{"userName":"a","name":1}]')))).toBe(
      'name and userName of member 1',
    );
  });
});
