import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderTable, toValueTable } from '../../src/presentation/index.js';

describe('toValueTable', () => {
  it('redacts the keys the REPL redacts in text (access_token, authorization, api_key), nested too', () => {
    const table = toValueTable([
      {
        name: 'a',
        access_token: 'SECRET-1',
        authorization: 'Bearer SECRET-2',
        nested: { api_key: 'SECRET-3' },
      },
    ])!;
    const shown = JSON.stringify(table.rows);
    expect(shown).not.toMatch(/SECRET-\d/);
    expect(table.rows[0]).toEqual(['a', '[redacted]', '[redacted]', '{"api_key":"[redacted]"}']);
  });

  it('makes a column per key, in the order keys are first seen', () => {
    const table = toValueTable([
      { title: 'Hello', loves: 3 },
      { title: 'World', views: 10, loves: 4 },
    ])!;
    expect(table.columns.map((c) => c.key)).toEqual(['title', 'loves', 'views']);
    expect(table.rows).toEqual([
      ['Hello', '3', ''],
      ['World', '4', '10'],
    ]);
    expect(table.columns.map((c) => c.align)).toEqual(['left', 'right', 'right']);
    // Earlier columns are dropped last when the terminal is narrow.
    expect(table.columns.map((c) => c.priority)).toEqual([3, 2, 1]);
  });

  it('shows nested values briefly and on one line', () => {
    const table = toValueTable({
      name: 'a\nb',
      tags: ['x', 'y'],
      meta: { deep: true },
      when: new Date(Date.UTC(2026, 0, 2)),
      none: null,
      on: false,
      fn() {},
    })!;
    expect(table.rows[0]).toEqual([
      'a b',
      '[2 items]',
      '{"deep":true}',
      '2026-01-02T00:00:00.000Z',
      '',
      'false',
      '[function fn]',
    ]);
  });

  it('gives plain values a value column', () => {
    const table = toValueTable([1, 'two', { value: 3 }])!;
    expect(table.columns.map((c) => c.key)).toEqual(['value', 'value2']);
    expect(table.rows).toEqual([
      ['', '1'],
      ['', 'two'],
      ['3', ''],
    ]);
  });

  it('counts the rows left out', () => {
    const table = toValueTable(
      Array.from({ length: 50 }, (_, i) => ({ i })),
      { maxRows: 10 },
    )!;
    expect(table.rows).toHaveLength(10);
    expect(table.truncatedRows).toBe(40);
    expect(renderTable(table, { width: 40 })).toContain('… 40 more rows (50 total)');
  });

  it('answers null for what is not a list of objects', () => {
    expect(toValueTable('text')).toBeNull();
    expect(toValueTable(42)).toBeNull();
    expect(toValueTable([])).toBeNull();
    expect(toValueTable(null)).toBeNull();
  });

  it('renders with CJK and emoji aligned', () => {
    const out = renderTable(
      toValueTable([
        { name: '世界', n: 1 },
        { name: '🎮x', n: 22 },
      ])!,
      { width: 80 },
    );
    const widths = out.split('\n').map((line) => stringWidth(line));
    expect(new Set(widths).size).toBe(1);
  });
});
