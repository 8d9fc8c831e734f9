import { PagedList } from 'scratchlab';
import { Chart } from 'scratchlab/presentation';
import { describe, expect, it } from 'vitest';
import { isAwaitedByRepl, kDisplay, OutputNotes } from '../../repl/display/display.js';
import { plot } from '../../repl/display/plot.js';
import { createShow } from '../../repl/display/show.js';
import { logEntry, user } from '../presentation/records.js';

const entries = Array.from({ length: 20 }, (_, i) =>
  logEntry(Date.UTC(2026, 0, 1) + i * 1000, i % 2 ? 'ann' : 'ben', 'hi', String(i)),
);

describe('plot', () => {
  it('draws log entries for the terminal', () => {
    const chart = plot(entries);
    expect(chart).toBeInstanceOf(Chart);
    const text = chart[kDisplay]({ width: 80, height: 30, color: false });
    expect(text).toContain('20 cloud log entries');
    expect(text).toContain('Activity per user (2)');
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(String(chart)).toBe(chart.render({ width: 81, height: 28, color: false }));
  });

  it('awaits a list still to be read, and says what it takes', async () => {
    const pending = plot(Promise.resolve(entries));
    expect(isAwaitedByRepl(pending)).toBe(true);
    expect((await pending).summary).toContain('20 cloud log entries');
    expect(() => plot([{ a: 1 }] as never)).toThrow(/plot\(\) draws cloud log entries/);
    const refused = plot(entries).save('chart.gif');
    expect(isAwaitedByRepl(refused)).toBe(true);
    await expect(refused).rejects.toThrow(/writes \.svg, \.png, \.html or \.json/);
    expect(() => plot('x' as never)).toThrow(TypeError);
    expect(plot([]).render({ width: 80, height: 20, color: false })).toBe('Cloud log: no entries');
  });
});

describe('show', () => {
  function target() {
    const out: string[] = [];
    const notes = new OutputNotes();
    const show = createShow({
      color: false,
      size: () => ({ width: 80, height: 24 }),
      notes,
      write: (t) => out.push(t),
    });
    return { out, notes, show };
  }

  it('prints records and plain objects as tables, other values as node would', () => {
    const { out, notes, show } = target();
    expect(show([user(1, 'alice')])).toBeUndefined();
    expect(out[0]).toMatch(/^username/);
    show([{ a: 1 }]);
    expect(out[1]).toMatch(/^a\n─\n1\n$/);
    show('text');
    expect(out[2]).toBe("'text'\n");
    expect(notes.count).toBe(3);
  });

  it('takes a row limit and a kind', () => {
    const { out, show } = target();
    show(
      Array.from({ length: 10 }, (_, i) => user(i, `u${i}`)),
      { rows: 2 },
    );
    expect(out[0]).toContain('… 8 more rows (10 total)');
    show([], { kind: 'project' });
    expect(out[1]).toContain('no results');
  });

  it('awaits a list first; the REPL awaits the call', async () => {
    const { out, show } = target();
    const list = new PagedList(async (limit, offset) =>
      offset === 0 ? [user(1, 'paged')].slice(0, limit) : [],
    );
    const shown = show(list);
    expect(isAwaitedByRepl(shown)).toBe(true);
    await shown;
    expect(out[0]).toContain('paged');
  });
});
