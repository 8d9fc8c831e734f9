import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderPlainTable, renderTable, toTable } from '../../src/presentation/index.js';
import { project, user } from './records.js';

const widths = (text: string): number[] => text.split('\n').map((l) => stringWidth(l));

const mixedTitles = [
  project(1, 'Hello 世界 game', 'griffpatch'),
  project(22, '🎮 Paper Minecraft 🧱⛏️', 'someone'),
  project(333, 'ねこのぼうけん 2: 帰ってきたネコ (CJK title that is long)', '用户名', { views: 5 }),
  project(4444, 'Plain ASCII title', 'a', { views: 1_000_000_000 }),
  project(5, 'e\u0301le\u0301phant (combining accents)', 'b'),
];

describe('renderTable', () => {
  it('aligns CJK and emoji titles: every body line has the same display width', () => {
    for (const width of [200, 100, 70, 50]) {
      const out = renderTable(toTable(mixedTitles), { width });
      // The body: header, rule and one line per record (notes below may be shorter).
      const w = widths(out).slice(0, 2 + mixedTitles.length);
      expect(new Set(w).size, `width ${width}:\n${out}`).toBe(1);
      expect(w[0]).toBeLessThanOrEqual(width);
    }
    const wide = renderTable(toTable(mixedTitles), { width: 200 });
    expect(wide).toContain('Hello 世界 game');
    expect(wide).toContain('🎮 Paper Minecraft 🧱⛏️');
  });

  it('right-aligns numbers and bolds nothing without colour', () => {
    const lines = renderTable(toTable(mixedTitles), { width: 200 }).split('\n');
    expect(lines[0]).toMatch(/^ {2}id {2}title/);
    expect(lines[2]).toMatch(/^ {3}1 {2}Hello/);
    expect(lines[5]).toMatch(/^4444 {2}Plain/);
    // The views column ends at the same column in every row.
    const end = (line: string, text: string): number =>
      stringWidth(line.slice(0, line.indexOf(text) + text.length));
    expect(end(lines[2]!, '123,456')).toBe(end(lines[5]!, '1,000,000,000'));
    expect(renderTable(toTable(mixedTitles), { width: 200 })).not.toContain('\x1b');
  });

  it('cuts long cells with an ellipsis at the column maximum', () => {
    const out = renderTable(toTable(mixedTitles), { width: 200 });
    const row = out.split('\n')[4]!;
    const cell = row.match(/ねこ.*…/)![0];
    expect(stringWidth(cell)).toBe(40);
    expect(cell).toBe('ねこのぼうけん 2: 帰ってきたネコ (CJK t…');
    const long = user(2, 'bob', { status: 'x'.repeat(100) });
    const statusCell = renderTable(toTable(long), { width: 200 }).split('\n')[2]!.match(/x+…/)![0];
    expect(stringWidth(statusCell)).toBe(30);
  });

  it('drops the lowest-priority columns when narrow and never exceeds the width', () => {
    const t = toTable(mixedTitles);
    for (let width = 10; width <= 160; width += 3) {
      const out = renderTable(t, { width });
      for (const w of widths(out)) expect(w, `width ${width}:\n${out}`).toBeLessThanOrEqual(width);
    }
    const at60 = renderTable(t, { width: 60 });
    const header = at60.split('\n')[0]!;
    for (const kept of ['id', 'title', 'author', 'views']) expect(header).toContain(kept);
    for (const gone of ['favorites', 'remixes', 'public']) expect(header).not.toContain(gone);
    expect(at60.split('\n').at(-1)).toMatch(/^\(\d hidden: .*favorites, remixes/);
    // Every row is public: a column that says nothing is left out, not hidden.
    expect(t.columns.map((c) => c.key)).not.toContain('public');
    // At a generous width nothing is hidden.
    expect(renderTable(t, { width: 200 })).not.toContain('hidden');
    // Titles survive longest.
    expect(renderTable(t, { width: 12 }).split('\n')[0]).toContain('title');
  });

  it('colours deterministically when asked (bold header), and strips control characters from records', () => {
    const evil = project(1, 'red\x1b[31m title\x07');
    const plain = renderTable(toTable(evil), { width: 120, color: false });
    expect(plain).not.toContain('\x1b');
    expect(plain).toContain('red [31m title');
    const coloured = renderTable(toTable(evil), { width: 120, color: true });
    expect(coloured.split('\n')[0]!.startsWith('\x1b[1m')).toBe(true);
    // Colour codes do not change the layout.
    expect(widths(coloured)).toEqual(widths(plain));
  });

  it('renderPlainTable is the uncoloured terminal rendering', () => {
    const t = toTable(mixedTitles);
    expect(renderPlainTable(t, { width: 90 })).toBe(renderTable(t, { width: 90, color: false }));
    expect(renderPlainTable(t)).not.toContain('\x1b');
  });
});
