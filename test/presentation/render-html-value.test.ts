import { describe, expect, it } from 'vitest';
import { renderHtmlTable, toValueTable } from '../../src/presentation/index.js';

describe('renderHtmlTable of a value table', () => {
  it('renders any grid of text, escaped, with a row count and no links', () => {
    const table = toValueTable([
      { title: '<b>Pong</b>', loves: 3 },
      { title: 'Maze', loves: 12 },
    ])!;
    const html = renderHtmlTable(table, { siteUrl: 'https://scratch.mit.edu' });
    expect(html).toMatch(/^<style>[^<]*<\/style><table class="sl-table /);
    expect(html).toContain('&lt;b&gt;Pong&lt;/b&gt;');
    expect(html).toContain('>2 rows</caption>');
    expect(html).not.toContain('<a ');
  });

  it('redacts secrets, also nested ones (a session answer)', () => {
    const session = {
      user: { id: 1, username: 'alice', token: 'a1b2c3d4e5f6-x-token' },
      flags: { show_welcome: true },
    };
    const table = toValueTable([
      { name: 'mine', project_token: '1700000000_abcdef0123', sessionid: 'abc:def' },
      session,
    ])!;
    const html = renderHtmlTable(table);
    const text = table.rows.flat().join(' ');
    for (const out of [html, text]) {
      expect(out).not.toContain('a1b2c3d4e5f6-x-token');
      expect(out).not.toContain('1700000000_abcdef0123');
      expect(out).not.toContain('abc:def');
    }
    expect(text).toContain('[redacted]');
    expect(text).toContain('alice');
  });

  it('counts what was left out', () => {
    const table = toValueTable(
      Array.from({ length: 5 }, (_, i) => ({ i })),
      { maxRows: 2 },
    )!;
    expect(renderHtmlTable(table)).toContain('2 of 5 rows (3 more not shown)');
  });
});
