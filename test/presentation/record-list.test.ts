import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PagedList, RecordList } from '../../src/index.js';
import {
  JUPYTER_DISPLAY,
  kListWindow,
  REPL_DISPLAY,
  renderTable,
  toCsv,
  toTable,
  windowNote,
} from '../../src/presentation/index.js';
import { project, user } from './records.js';

const dir = mkdtempSync(join(tmpdir(), 'scratchlab-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const terminal = { width: 160, height: 40, color: false };

/** A list of `size` projects served by pages, as the platform does. */
function listOf(size: number, page: { limit?: number; offset?: number } = {}) {
  const all = Array.from({ length: size }, (_, i) =>
    project(i + 1, `Project ${i + 1}`, 'maker', { views: i * 1000 }),
  );
  return new PagedList(async (limit, offset) => all.slice(offset, offset + limit), page);
}

describe('RecordList', () => {
  it('is an array of the rows; map and slice give plain arrays', async () => {
    const list = await listOf(3);
    expect(list).toBeInstanceOf(RecordList);
    expect(Array.isArray(list)).toBe(true);
    expect(list).toEqual([project(1, 'Project 1', 'maker', { views: 0 }), ...list.slice(1)]);
    expect(list.map((p) => p.id)).toEqual([1, 2, 3]);
    expect(list.slice(1)).not.toBeInstanceOf(RecordList);
    expect(JSON.parse(JSON.stringify(list))).toHaveLength(3);
    expect(list.more).toBe(false);
  });

  it('says when it is a window of a longer list, and "no results" when empty', async () => {
    const window = await listOf(100);
    expect(window).toHaveLength(40);
    expect(window.more).toBe(true);
    expect(window[REPL_DISPLAY](terminal).split('\n').at(-1)).toBe('first 40 — .all() fetches all');
    const later = await listOf(100, { limit: 20, offset: 40 });
    expect(later[REPL_DISPLAY](terminal).split('\n').at(-1)).toBe('rows 41–60 — .all() fetches all');
    // Fewer rows shown than the window holds.
    const shown = toTable(window, { maxRows: 5 });
    expect(renderTable(shown, { width: 160 }).split('\n').at(-1)).toBe(
      '5 shown of the first 40 — .all() fetches all',
    );
    expect(windowNote({ offset: 0, more: true, total: 2144 }, 40, 40)).toBe(
      'first 40 of 2,144 — .all() fetches all',
    );
    // The whole list: no note; an empty one: "no results".
    expect((await listOf(100).all())[REPL_DISPLAY](terminal)).not.toContain('.all()');
    const empty = await listOf(0);
    expect(empty[REPL_DISPLAY](terminal)).toBe('no results');
    expect(empty[JUPYTER_DISPLAY]()).toEqual({ 'text/plain': 'no results' });
    expect(empty[kListWindow]).toEqual({ offset: 0, more: false });
  });

  it('shows numbers right-aligned, in both front ends', async () => {
    const list = await listOf(12);
    const lines = list[REPL_DISPLAY](terminal).split('\n');
    const header = lines[0]!;
    const viewsEnd = header.indexOf('views') + 'views'.length;
    expect(lines[2]!.slice(0, viewsEnd)).toMatch(/ 0$/);
    expect(lines[13]!.slice(0, viewsEnd)).toMatch(/ 11,000$/);
    const html = list[JUPYTER_DISPLAY]()['text/html']!;
    expect(html).toMatch(/td:nth-child\(4\),\.sl-t\w+ th:nth-child\(4\)\{text-align:right\}/);
  });

  it('exports flat rows and CSV', async () => {
    const list = RecordList.fromWindow([
      user(1, 'alice', { country: 'Japan' }),
      user(2, 'bob, "the builder"'),
    ]);
    const rows = list.toRows();
    expect(rows[0]).toMatchObject({
      id: 1,
      username: 'alice',
      'profile.country': 'Japan',
      'history.joined': '2019-03-14T09:26:53.000Z',
    });
    const csv = list.toCSV();
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'id,username,scratchteam,history.joined,profile.id,profile.status,profile.bio,profile.country,profile.images.90x90',
    );
    expect(lines[1]).toBe(
      '1,alice,false,2019-03-14T09:26:53.000Z,1001,I make games and animations!,Hi,Japan,https://cdn2.scratch.mit.edu/get_image/user/1_90x90.png',
    );
    expect(lines[2]).toMatch(/^2,"bob, ""the builder""",false,/);
    expect(lines.at(-1)).toBe('');
    expect(toCsv([{ a: 'x\ny', b: null }, { c: ' padded' }])).toBe('a,b,c\r\n"x\ny",,\r\n,," padded"\r\n');
  });

  it('saves .csv and .json whole, and refuses other formats', async () => {
    const list = await listOf(3);
    const csv = await list.save(join(dir, 'projects.csv'));
    expect(csv.format).toBe('CSV');
    expect(readFileSync(csv.path, 'utf8')).toBe(list.toCSV());
    expect(String(csv)).toMatch(/^saved .*projects\.csv \([\d,.]+ k?B CSV\)$/);
    const json = await list.save(join(dir, 'projects.json'));
    expect(JSON.parse(readFileSync(json.path, 'utf8'))).toEqual(JSON.parse(JSON.stringify(list)));
    const secret = RecordList.fromWindow([{ ...project(9, 'Mine'), project_token: '1732500000_abc' }]);
    const saved = await secret.save(join(dir, 'secret.json'));
    expect(readFileSync(saved.path, 'utf8')).not.toContain('1732500000_abc');
    await expect(list.save(join(dir, 'projects.xlsx'))).rejects.toThrow(/\.csv or \.json/);
  });
});
