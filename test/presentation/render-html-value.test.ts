import { describe, expect, it } from 'vitest';
import { renderHtmlTable, toValueTable } from '../../src/presentation/index.js';

describe('renderHtmlTable of a value table', () => {
  it('renders any grid of text, escaped, with a row count and no links', () => {
    const table = toValueTable([
      { title: '<b>Pong</b>', loves: 3 },
      { title: 'Maze', loves: 12 },
    ])!;
    const html = renderHtmlTable(table, { siteUrl: 'https://scratch.mit.edu' });
    expect(html).toMatch(/^<table /);
    expect(html).toContain('&lt;b&gt;Pong&lt;/b&gt;');
    expect(html).toContain('>2 rows</caption>');
    expect(html).not.toContain('<a ');
  });

  it('counts what was left out', () => {
    const table = toValueTable(
      Array.from({ length: 5 }, (_, i) => ({ i })),
      { maxRows: 2 },
    )!;
    expect(renderHtmlTable(table)).toContain('2 of 5 rows (3 more not shown)');
  });
});
