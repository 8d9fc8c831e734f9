/**
 * The contract of WIRE.md §11's reads: its recorded shapes (`activity-shapes.ts`) go through the
 * client (served over loopback as the real service serves them), the tables of both front ends
 * and the charts, and show the right values.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordList, type UserActivity } from '../../src/index.js';
import {
  chartOf,
  countActivity,
  describeActivity,
  JUPYTER_DISPLAY,
  REPL_DISPLAY,
  recordKind,
  renderHtmlTable,
  renderTable,
  toFlatRows,
  toTable,
  VEGA_MIME,
} from '../../src/presentation/index.js';
import { formatTimeSince, parseTimeSince } from '../../src/records/time-since.js';
import { Session } from '../../src/session.js';
import { closeLocal, listenLocal } from '../support/local-server.js';
import * as wire from './activity-shapes.js';

const DAY = 86_400_000;

describe('the §11 shapes through the client', () => {
  let server: Server;
  let base = '';
  const dateLimits: (string | null)[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (body: string, type = 'application/json') => {
        res.setHeader('content-type', type);
        res.end(body);
      };
      if (url.pathname === '/api/studios/7/activity/') {
        // As the service: rows at or before dateLimit, `limit` of them; consecutive pages overlap.
        const dateLimit = url.searchParams.get('dateLimit');
        dateLimits.push(dateLimit);
        const limit = Number(url.searchParams.get('limit'));
        const rows = wire.studioActivity.filter(
          (r) => dateLimit === null || Date.parse(r.datetime_created) <= Date.parse(dateLimit),
        );
        send(JSON.stringify(rows.slice(0, limit)));
      } else if (url.pathname === '/messages/ajax/user-activity/') {
        send(wire.userActivityHtml, 'text/html; charset=utf-8');
      } else if (url.pathname === '/api/users/griffpatch/messages/count') {
        send('{"count": 7}');
      } else if (url.pathname === '/statistics/data/daily/') {
        send(JSON.stringify(wire.daily));
      } else if (url.pathname === '/statistics/data/monthly/') {
        send(JSON.stringify(wire.monthly));
      } else if (url.pathname === '/statistics/data/monthly-ga/') {
        send(JSON.stringify(wire.monthlyGa));
      } else {
        res.statusCode = 404;
        send('{"code":"NotFound","message":""}');
      }
    });
    base = await listenLocal(server);
  });
  afterAll(() => closeLocal(server));
  const session = () => new Session({ hosts: { site: base, api: `${base}/api` }, retries: 0 });

  it('walks studio activity whose rows share an instant, without repeats', async () => {
    const rows = await session().studios.activity(7, { limit: 3 });
    expect(rows.map((r) => r.id)).toEqual(wire.studioActivity.slice(0, 3).map((r) => r.id));
    dateLimits.length = 0;
    const all = await session().studios.activity(7).all();
    expect(all.map((r) => r.id)).toEqual(wire.studioActivity.map((r) => r.id));
    expect(dateLimits[0]).toBeNull();
  });

  it('reads a profile activity page into typed rows with dates', async () => {
    const before = Date.now();
    const rows = await session().users.activity('griffpatch');
    const after = Date.now();
    expect(rows.map((r) => r.type)).toEqual([
      'loveproject',
      'followstudio',
      'followuser',
      'addprojecttostudio',
      'other',
      'userjoin',
    ]);
    expect(rows[0]).toMatchObject({
      actor_username: 'griffpatch',
      verb: 'loved',
      target: { kind: 'project', id: 1076204740, name: 'Paper & Minecraft', href: '/projects/1076204740/' },
      secondTarget: null,
      ago: '2 days, 3 hours ago',
    });
    const age = (r: UserActivity) => Date.parse(r.datetime_created);
    expect(age(rows[0]!)).toBeGreaterThanOrEqual(before - 2 * DAY - 3 * 3_600_000);
    expect(age(rows[0]!)).toBeLessThanOrEqual(after - 2 * DAY - 3 * 3_600_000);
    expect(rows[1]!.target).toMatchObject({ kind: 'studio', id: 30136012 });
    expect(rows[2]!.target).toMatchObject({ kind: 'user', id: 'nocountry' });
    expect(rows[3]!.secondTarget).toMatchObject({ kind: 'studio', name: 'Games Galore' });
    expect(rows[4]).toMatchObject({ verb: 'did something new', target: { kind: 'other' } });
    expect(rows[5]!.target).toBeNull();
  });

  it('reads the statistics with digit strings as numbers, and the public message count', async () => {
    const stats = await session().statistics();
    expect(stats.monthlyGa).toEqual({
      _TS: 1_748_322_956.5,
      pageviews: 561_234_567,
      users: 45_123_456,
      sessions: 120_000_123,
    });
    expect(stats.daily._TS).toBe(wire.daily._TS);
    expect(stats.monthly.country_distribution['0']).toBe(123);
    expect(await session().users.messageCount('griffpatch')).toBe(7);
  });
});

describe('relative times', () => {
  it('reads the units of the page, plural or not, with no-break spaces', () => {
    expect(parseTimeSince('2\u00a0days, 3\u00a0hours ago')).toBe(2 * DAY + 3 * 3_600_000);
    expect(parseTimeSince('1 year, 1 month ago')).toBe(365 * DAY + 30 * DAY);
    expect(parseTimeSince('0 minutes ago')).toBe(0);
    expect(parseTimeSince('yesterday')).toBeNull();
  });

  it('writes them as the site does (one table for the sandbox and the client), and reads back what it writes', () => {
    const nb = '\u00a0';
    expect(formatTimeSince(30_000)).toBe(`0${nb}minutes ago`);
    expect(formatTimeSince(-5_000)).toBe(`0${nb}minutes ago`);
    expect(formatTimeSince(60_000)).toBe(`1${nb}minute ago`);
    expect(formatTimeSince(2 * DAY + 3 * 3_600_000 + 59_000)).toBe(`2${nb}days, 3${nb}hours ago`);
    // Django's timesince: the second unit is the next smaller one only (no "1 year, 2 days").
    expect(formatTimeSince(365 * DAY + 2 * DAY)).toBe(`1${nb}year ago`);
    expect(formatTimeSince(21 * DAY + DAY)).toBe(`3${nb}weeks, 1${nb}day ago`);
    for (const ms of [0, 60_000, 7 * DAY, 60 * DAY, 395 * DAY, 2 * DAY + 3 * 3_600_000])
      expect(parseTimeSince(formatTimeSince(ms))).toBe(ms);
  });
});

describe('tables of messages and activity', () => {
  const kinds = [wire.messages, wire.studioActivity, wire.feed];
  it('every kind is an activity row and reads as actor, what, on, when', () => {
    for (const rows of kinds) {
      expect(recordKind(rows)).toBe('activity');
      const table = toTable(rows, { maxRows: 100 });
      expect(table.columns.map((c) => c.header)).toEqual(['actor', 'what', 'on', 'when (UTC)', 'type']);
      expect(table.rows).toHaveLength(rows.length);
      const text = renderTable(table, { width: 160 });
      expect(text).not.toContain('null');
      expect(text).not.toContain('undefined');
      expect(renderHtmlTable(table, { siteUrl: 'https://scratch.mit.edu' })).toContain('<table');
    }
    const [follow, love, , remix, comment, profileComment] = toTable(wire.messages, { maxRows: 100 }).rows;
    expect(follow!.slice(0, 4)).toEqual(['griffpatch', 'followed', 'nocountry', '2025-05-27 05:15']);
    expect(love!.slice(1, 3)).toEqual(['loved', 'Paper Minecraft']);
    expect(remix!.slice(1, 3)).toEqual(['remixed as "Paper Minecraft remix"', 'Paper Minecraft']);
    // The fragment is HTML-escaped on the wire: the table shows its text.
    expect(comment![1]).toBe('commented: "I <3 this & that"');
    expect(profileComment![2]).toBe('nocountry');
    const studio = toTable(wire.studioActivity).rows;
    expect(studio.map((r) => r[1])).toEqual([
      'added project',
      'removed project',
      'updated the studio',
      'became a curator',
      'removed curator',
      'made manager',
      'made host',
    ]);
  });

  it('links the actor in HTML on the real site, and knows where what a row is about lives', () => {
    const table = toTable(wire.messages, { maxRows: 100 });
    const html = renderHtmlTable(table, { siteUrl: 'https://scratch.mit.edu' });
    expect(html).toContain('<a href="https://scratch.mit.edu/users/griffpatch/">griffpatch</a>');
    expect(html).toContain('I &lt;3 this &amp; that');
    const on = table.columns.findIndex((c) => c.key === 'on');
    expect(table.links.map((row) => row[on])).toEqual([
      '/users/nocountry/',
      '/projects/1076204740/',
      '/projects/1076204740/',
      '/projects/1076204740/',
      '/projects/1076204740/',
      '/users/nocountry/',
      '/studios/30136012/',
      '/studios/30136012/',
      '/studios/30136012/',
      '/studios/30136012/',
      '/discuss/topic/600001/',
      null,
    ]);
  });

  it('parsed profile activity is a table too, and lists show themselves in both front ends', async () => {
    const list = RecordList.fromWindow(wire.feed);
    expect(list[REPL_DISPLAY]({ width: 120, height: 40, color: false })).toContain('followed studio');
    expect(list[JUPYTER_DISPLAY]()['text/html']).toContain('became a curator of');
    const parsed = (await import('../../src/records/user-activity-html.js')).parseUserActivity(
      wire.userActivityHtml,
    );
    const rows = toTable(parsed).rows;
    expect(rows[3]!.slice(1, 3)).toEqual(['added', 'Paper Minecraft → Games Galore']);
    expect(describeActivity({ type: 'mystery', actor_username: 'x', datetime_created: 'bad' })).toMatchObject(
      {
        what: 'mystery',
        on: null,
        when: 'bad',
      },
    );
    expect(toFlatRows(wire.messages)[0]).toMatchObject({ type: 'followuser', actor_username: 'griffpatch' });
  });
});

describe('charts of activity and remix trees', () => {
  it('plots counts per day by type', async () => {
    const counts = countActivity(wire.messages);
    expect(counts.find((c) => c.day === '2025-05-25')).toEqual({
      day: '2025-05-25',
      type: 'addcomment',
      count: 2,
    });
    const chart = chartOf([...wire.messages, ...wire.feed]);
    expect(chart.summary).toMatch(/^Activity per day: 20 items over \d+ days/);
    expect(chart.render({ width: 80, height: 24, color: false })).toContain('2025-05-27');
    const svg = await chart.toSVG();
    expect(svg).toContain('<svg');
    expect(svg).toContain('loveproject');
    expect(chartOf(wire.studioActivity).spec).toMatchObject({ mark: { type: 'bar' } });
  });

  it('plots a remix tree with Vega, sized by loves; its outline in a terminal', async () => {
    const tree = {
      id: 1,
      title: 'Root',
      author: 'griffpatch',
      loves: 900,
      children: [
        {
          id: 2,
          title: 'Remix A',
          author: 'a',
          loves: 10,
          children: [{ id: 4, title: 'Deep', author: 'c', loves: 0, children: [], truncated: true }],
        },
        { id: 3, title: 'Remix B', author: 'b', loves: 3, children: [] },
      ],
    };
    const chart = chartOf(tree);
    expect(chart.grammar).toBe('vega');
    expect(chart.render({ width: 80, height: 24, color: false })).toBe(
      ['Root (griffpatch) ♥ 900', '├─ Remix A (a) ♥ 10', '│  └─ Deep (c) ♥ 0 …', '└─ Remix B (b) ♥ 3'].join(
        '\n',
      ),
    );
    const bundle = chart[JUPYTER_DISPLAY]();
    expect(Object.keys(bundle)).toContain(VEGA_MIME);
    const svg = await chart.toSVG();
    expect(svg).toContain('Remix A (a)');
    expect((svg.match(/<path/g) ?? []).length).toBeGreaterThanOrEqual(3);
  });
});
