import { describe, expect, it } from 'vitest';
import { columnsFor, renderTable, toTable } from '../../src/presentation/index.js';
import { comment, logEntry, project, studio, studioProject, user } from './records.js';

const keys = (records: unknown): string[] => toTable(records).columns.map((c) => c.key);

describe('columns', () => {
  it('chooses the columns a person wants per kind', () => {
    expect(keys(user(1, 'alice'))).toEqual(['username', 'id', 'country', 'joined', 'status', 'scratchteam']);
    expect(keys(project(1, 'x'))).toEqual([
      'id',
      'title',
      'author',
      'views',
      'loves',
      'favorites',
      'remixes',
      'shared',
      'public',
    ]);
    expect(keys(studio(1, 'x'))).toEqual(['id', 'title', 'host', 'projects', 'followers', 'created']);
    expect(keys(comment(1, 'x'))).toEqual(['id', 'author', 'content', 'replies', 'created', 'parent']);
    expect(keys(studioProject(1, 'x'))).toEqual(['id', 'title', 'author', 'addedBy']);
    expect(keys(logEntry(0, 'a', 'n', '1'))).toEqual(['time', 'user', 'verb', 'name', 'value']);
  });

  it('right-aligns numbers and gives every column a priority', () => {
    const cols = columnsFor('project');
    expect(cols.filter((c) => c.align === 'right').map((c) => c.key)).toEqual([
      'id',
      'views',
      'loves',
      'favorites',
      'remixes',
    ]);
    for (const c of cols) expect(typeof c.priority).toBe('number');
  });
});

describe('toTable', () => {
  it('formats cells: dates only, grouped counts, yes/no, empty for null', () => {
    const p = project(7, 'Space Race', 'griffpatch', { views: 1234567 });
    const unshared = { ...project(8, 'Draft'), public: false, history: { ...p.history, shared: null } };
    const t = toTable([p, unshared]);
    expect(t.kind).toBe('project');
    expect(t.rows[0]).toEqual([
      '7',
      'Space Race',
      'griffpatch',
      '1,234,567',
      '4,321',
      '987',
      '12',
      '2023-01-03',
      'yes',
    ]);
    expect(t.rows[1]![7]).toBe('');
    expect(t.rows[1]![8]).toBe('no');

    const u = toTable(user(42, 'alice', { country: 'Japan' }));
    expect(u.rows[0]).toEqual(['alice', '42', 'Japan', '2019-03-14', 'I make games and animations!', 'no']);

    const c = toTable([comment(1, 'first\nline\r\n\tsecond'), comment(2, 'a reply', 1)]);
    expect(c.rows[0]).toEqual(['1', 'alice', 'first line second', '3', '2024-04-01', '']);
    expect(c.rows[1]![5]).toBe('1');

    // The host is a user id; griffpatch (1882674) was seen as the author of the projects above.
    const s = toTable(studio(3, 'Art'));
    expect(s.rows[0]).toEqual(['3', 'Art', 'griffpatch', '1,200', '2,500', '2020-06-01']);
    expect(toTable({ ...studio(4, 'New'), host: 555_000_111 }).rows[0]![2]).toBe('#555000111');

    const l = toTable(logEntry(Date.UTC(2024, 4, 1, 13, 5, 9), 'bob', 'score', '120'));
    expect(l.rows[0]).toEqual(['2024-05-01 13:05:09', 'bob', 'set', 'score', '120']);
  });

  it('keeps site-relative links per cell', () => {
    const t = toTable([project(99, 'x', 'some one')]);
    expect(t.links[0]![0]).toBe('/projects/99/');
    expect(t.links[0]![1]).toBe('/projects/99/');
    expect(t.links[0]![2]).toBe('/users/some%20one/');
    expect(t.links[0]![3]).toBeNull();
  });

  it('cuts rows at maxRows and counts the rest', () => {
    const many = Array.from({ length: 1000 }, (_, i) => project(i + 1, `Project ${i + 1}`));
    const t = toTable(many, { maxRows: 40 });
    expect(t.rows).toHaveLength(40);
    expect(t.total).toBe(1000);
    expect(t.truncatedRows).toBe(960);
    const lines = renderTable(t, { width: 120 }).split('\n');
    expect(lines.at(-1)).toBe('… 960 more rows (1,000 total)');
    expect(lines).toHaveLength(2 + 40 + 1);
  });

  it('needs a kind for empty arrays and rejects unknown records', () => {
    expect(() => toTable([])).toThrow(TypeError);
    expect(() => toTable([{ a: 1 }])).toThrow(/not an array of one kind/);
    expect(() => toTable([project(1, 'x'), studio(2, 'y')])).toThrow(TypeError);
    const empty = toTable([], { kind: 'studio' });
    expect(empty).toMatchObject({ kind: 'studio', total: 0, truncatedRows: 0, rows: [] });
    expect(renderTable(empty).split('\n').at(-1)).toBe('no results');
  });
});
