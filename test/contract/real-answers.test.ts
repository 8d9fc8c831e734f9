/**
 * The contract: real answers' shapes (WIRE.md §10, recorded in `wire-shapes.ts`) go through the
 * types, the client, tables (terminal and HTML), value tables, charts, exports and formatters
 * without a throw, and show the right values.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordList } from '../../src/index.js';
import {
  chartOf,
  JUPYTER_DISPLAY,
  projectBars,
  REPL_DISPLAY,
  recordKind,
  renderHtmlTable,
  renderSvg,
  renderTable,
  summarizeBars,
  toFlatRows,
  toTable,
  toValueTable,
} from '../../src/presentation/index.js';
import type { SessionUser, UserProjectRow } from '../../src/records/records.js';
import { Session } from '../../src/session.js';
import * as wire from './wire-shapes.js';

const rows = [wire.userProjectRow, wire.userProjectRow2];
const everyTable = (value: unknown, options?: Parameters<typeof toTable>[1]) => {
  const table = toTable(value, options);
  return {
    table,
    text: renderTable(table, { width: 160 }),
    html: renderHtmlTable(table, { siteUrl: 'https://scratch.mit.edu' }),
  };
};

describe('types say what the wire says', () => {
  it('makes readers of optional and nullable fields check them', () => {
    const row: UserProjectRow = wire.userProjectRow;
    // @ts-expect-error: rows of a user's own projects have no author username
    const name: string = row.author.username;
    // @ts-expect-error: profile.country may be null
    const country: string = wire.userWithoutCountry.profile.country;
    // @ts-expect-error: logged out, /session/ has no user
    const user: SessionUser = wire.sessionLoggedOut.user;
    // @ts-expect-error: login answers may lack num_tries
    const tries: number = wire.loginAnswer.num_tries;
    expect([name, country, user, tries]).toEqual([undefined, null, undefined, undefined]);
  });
});

describe('tables of real answers', () => {
  it('shows a user-projects row by its author id, or the owner the list remembers', () => {
    expect(recordKind(rows)).toBe('project');
    const plain = everyTable(rows);
    expect(plain.table.rows[0]!.slice(0, 4)).toEqual(['1076204740', 'Paper Minecraft', '#1882674', '59,660']);
    expect(plain.text).toContain('#1882674');

    const owned = RecordList.fromWindow(rows, { offset: 0, more: true, owner: 'griffpatch' });
    const { table, text, html } = everyTable(owned);
    expect(table.rows.map((r) => r[2])).toEqual(['griffpatch', 'griffpatch']);
    expect(text.split('\n').at(-1)).toBe('first 2 — .all() fetches all');
    expect(html).toContain('<caption>projects: first 2 — .all() fetches all</caption>');
    // An unshared row's date is an empty cell; numbers keep their grouping.
    expect(table.rows[1]![7]).toBe('');
    expect(table.rows[1]![3]).toBe('120');
    // Both front ends show it through the list itself.
    expect(owned[REPL_DISPLAY]({ width: 120, height: 40, color: false })).toContain('griffpatch');
    expect(owned[JUPYTER_DISPLAY]()['text/html']).toContain('griffpatch');
  });

  it('shows nulls and placeholders as empty cells, never "null" or 1900', () => {
    const { table, text } = everyTable(wire.userWithoutCountry);
    expect(table.rows[0]).toEqual(['nocountry', '5000001', '', '2019-08-24', 'hi', 'no']);
    expect(text).not.toContain('null');
    const author = { ...wire.userWithoutCountry, history: { joined: '1900-01-01T00:00:00.000Z' } };
    expect(toTable(author).rows[0]![3]).toBe('');
  });

  it('shows a studio host and a studio project adder by name where known, else by id', () => {
    const studio = everyTable(wire.studioUnknownHost);
    expect(studio.table.rows[0]![2]).toBe('#987654321');
    expect(studio.table.columns.map((c) => c.header)).toEqual([
      'id',
      'title',
      'host',
      'projects',
      'followers',
      'created',
    ]);
    everyTable(wire.userWithoutCountry); // seen: 5000001 is nocountry
    const added = everyTable(wire.studioProject);
    expect(added.table.rows[0]).toEqual(['1076204740', 'Paper Minecraft', 'griffpatch', 'nocountry']);
    expect(everyTable(wire.comment).table.rows[0]![1]).toBe('nocountry');
  });

  it('never throws on what a row lacks: missing stats, history, author', () => {
    const bare = { id: 1, title: 'T', author: { id: 2 }, stats: { views: 1 }, history: {} };
    expect(toTable(bare, { kind: 'project' }).rows[0]!.slice(0, 4)).toEqual(['1', 'T', '#2', '1']);
    expect(() => toTable([{ id: 3 }], { kind: 'project' })).not.toThrow();
    expect(() => toTable([{}], { kind: 'comment' })).not.toThrow();
    expect(() => toTable([{}], { kind: 'studioProject' })).not.toThrow();
    expect(() => renderHtmlTable(toTable([{}], { kind: 'user' }))).not.toThrow();
  });

  it('shows health, featured rows, sessions, login answers and news as value tables, secrets redacted', () => {
    const cases: unknown[] = [
      wire.health,
      wire.featured.community_featured_projects,
      wire.featured.community_featured_studios,
      wire.sessionLoggedIn,
      wire.sessionLoggedOut,
      wire.sessionFlagsOnly,
      wire.loginAnswer,
      [wire.newsRow],
      wire.fullProject,
    ];
    for (const value of cases) {
      const table = recordKind(value) ? toTable(value) : toValueTable(value);
      if (value === wire.sessionLoggedOut) {
        expect(table === null || table.rows[0]!.length === 0).toBe(true);
        continue;
      }
      const text = renderTable(table!, { width: 200 });
      const html = renderHtmlTable(table!);
      for (const out of [text, html]) {
        expect(out).not.toContain(wire.X_TOKEN);
        expect(out).not.toContain(wire.PROJECT_TOKEN);
      }
    }
    const health = toValueTable(wire.health)!;
    expect(health.rows[0]![0]).toBe('scratch-api-f205902826'); // one line, trimmed
    expect(health.rows[0]!.join(' ')).toContain('"numUsed":4');
    const news = toValueTable([wire.newsRow])!;
    expect(news.rows[0]![0]).toBe('9007199254740993');
    const login = toValueTable(wire.loginAnswer)!;
    expect(login.rows[0]![login.columns.findIndex((c) => c.key === 'token')]).toBe('[redacted]');
  });
});

describe('charts and exports of real answers', () => {
  it('draws user-project rows as bars and as SVG', async () => {
    const chart = chartOf(rows);
    expect(chart.summary).toBe(summarizeBars(projectBars(rows)));
    expect(chart.summary.split('\n')[0]).toBe('Paper Minecraft: views 59,660, loves 7,912');
    const svg = await renderSvg(chart.spec);
    expect(svg).toContain('>Paper Minecraft</text>');
  });

  it('exports rows flat, with the owner as author and no secrets', () => {
    const owned = RecordList.fromWindow([...rows, wire.fullProject as unknown as UserProjectRow], {
      offset: 0,
      more: false,
      owner: 'griffpatch',
    });
    const flat = owned.toRows();
    expect(Object.keys(flat[0]!).slice(0, 10)).toEqual([
      'id',
      'title',
      'description',
      'instructions',
      'visibility',
      'public',
      'comments_allowed',
      'is_published',
      'author.id',
      'author.username',
    ]);
    expect(flat.map((r) => r['author.username'])).toEqual(['griffpatch', 'griffpatch', 'griffpatch']);
    expect(flat[0]!['remix.parent']).toBeNull();
    expect(flat[2]!['remix.parent']).toBe(10_128_407);
    expect(flat[2]).not.toHaveProperty('project_token');
    const csv = owned.toCSV();
    expect(csv).not.toContain(wire.PROJECT_TOKEN);
    expect(csv.split('\r\n')[2]).toContain('"Geometry Dash, but ""quoted"", with commas"');
    expect(toFlatRows([wire.sessionLoggedIn])[0]).not.toHaveProperty('user.token');
  });
});

describe('through the real client', () => {
  // A loopback server answering the recorded shapes: what the real service sends, not our sandbox.
  let server: Server;
  let api: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/users/griffpatch/projects') {
        const offset = Number(url.searchParams.get('offset') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 40);
        const all = Array.from({ length: 45 }, (_, i) => ({
          ...wire.userProjectRow,
          id: 1000 + i,
          title: `P${i}`,
        }));
        res.end(JSON.stringify(all.slice(offset, offset + limit)));
      } else if (url.pathname === '/search/projects') {
        res.end('[]');
      } else {
        res.statusCode = 404;
        res.end('{"code":"NotFound","message":""}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('remembers whose projects a list is, says it is a window, and says "no results"', async () => {
    const session = new Session({ hosts: { api, site: api } });
    const list = await session.users.projects('griffpatch');
    expect(list).toBeInstanceOf(RecordList);
    expect(list).toHaveLength(40);
    expect(list.more).toBe(true);
    const text = list[REPL_DISPLAY]({ width: 150, height: 50, color: false });
    expect(text).toMatch(/^ *1000 +P0 +griffpatch +59,660 /m);
    expect(text.split('\n').at(-1)).toBe('first 40 — .all() fetches all');
    const all = await session.users.projects('griffpatch').all();
    expect(all).toHaveLength(45);
    expect(all.more).toBe(false);
    expect(all[REPL_DISPLAY]({ width: 150, height: 50, color: false })).not.toContain('.all()');
    const none = await session.search.projects('zzz');
    expect(none[REPL_DISPLAY]({ width: 80, height: 20, color: false })).toBe('no results');
    expect(none[JUPYTER_DISPLAY]()).toEqual({ 'text/plain': 'no results' });
  });
});
