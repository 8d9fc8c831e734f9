// show() of the values the presentation layer makes, in both front ends: a chart shows as a chart,
// an empty record list as "no results", records as tables.
import { describe, expect, it } from 'vitest';
import { valueBundle } from '../../kernel/display/helpers.js';
import { OutputNotes } from '../../repl/display/display.js';
import { createShow } from '../../repl/display/show.js';
import { RecordList } from '../../src/index.js';
import { chartOf, VEGA_LITE_MIME } from '../../src/presentation/index.js';
import { logEntry, project } from './records.js';

const log = Array.from({ length: 5 }, (_, i) =>
  logEntry(Date.UTC(2024, 0, 1) + i * 1000, 'ann', 'score', String(i)),
);

describe('show', () => {
  it('in the kernel: a chart by its own bundle, an empty list as "no results", records with links', async () => {
    const chart = await chartOf(log).ready();
    expect(Object.keys(valueBundle(chart, undefined))).toEqual([
      VEGA_LITE_MIME,
      'image/svg+xml',
      'text/plain',
    ]);
    expect(valueBundle(RecordList.fromWindow([]), undefined)).toEqual({ 'text/plain': 'no results' });
    const list = RecordList.fromWindow([project(5, 'Five')], { offset: 0, more: true });
    const html = valueBundle(list, 'https://scratch.mit.edu')['text/html'] as string;
    expect(html).toContain('<a href="https://scratch.mit.edu/projects/5/">Five</a>');
    expect(html).toContain('first 1 — .all() fetches all');
  });

  it('in the REPL: a chart as its drawing, an empty list as "no results"', () => {
    const out: string[] = [];
    const show = createShow({
      color: false,
      size: () => ({ width: 80, height: 30 }),
      notes: new OutputNotes(),
      write: (text) => out.push(text),
    });
    show(chartOf(log));
    show(RecordList.fromWindow([]));
    expect(out[0]).toContain('5 cloud log entries');
    expect(out[0]).toMatch(/┤/);
    expect(out[1]).toBe('no results\n');
  });
});
