import { describe, expect, it } from 'vitest';
import { escapeHtml, renderHtmlTable, toTable } from '../../src/presentation/index.js';
import { comment, project, user } from './records.js';

describe('renderHtmlTable', () => {
  const evil = project(13, '<script>alert("pwned")</script> & <b>bold</b>', `o'neil`);

  it('escapes every piece of record text', () => {
    const html = renderHtmlTable(toTable([evil, comment(1, '<img src=x onerror=alert(1)>')].slice(0, 1)));
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>');
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;',
    );
    expect(html).toContain('o&#39;neil');
    const c = renderHtmlTable(toTable(comment(1, '<img src=x onerror=alert(1)>')));
    expect(c).not.toContain('<img');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });

  it('is one style and one table, styled by classes with theme variables', () => {
    const html = renderHtmlTable(toTable([evil, project(2, 'b')]));
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(html).toMatch(/^<style>[^<]*<\/style><table class="sl-table sl-t\w+">/);
    expect(html.endsWith('</table>')).toBe(true);
    expect(html).not.toContain(' style="');
    expect(html).toContain('var(--jp-ui-font-color1,inherit)');
    expect(html).toContain('var(--jp-border-color2,rgba(128,128,128,.3))');
    expect(html).toMatch(/<caption>2 projects<\/caption>/);
    expect(html.match(/<th>/g)).toHaveLength(8); // both public: no `public` column
    expect(html.match(/<tr>/g)).toHaveLength(3);
    // Numbers are right-aligned by a column rule (views is the 4th column).
    const id = /class="sl-table (sl-t\w+)"/.exec(html)![1]!;
    expect(html).toContain(`.${id} td:nth-child(4),.${id} th:nth-child(4){text-align:right}`);
    expect(html).toContain('<td>123,456<td>');
  });

  it('keeps 1,000 rows under 200 KB, links included', () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      project(100_000_000 + i, `A fairly long project title number ${i}`, `someone_${i}`),
    );
    const html = renderHtmlTable(toTable(many, { maxRows: 1000 }), { siteUrl: 'https://scratch.mit.edu' });
    expect(html.match(/<tr>/g)).toHaveLength(1001);
    expect(html).toContain('<a href="https://scratch.mit.edu/projects/100000999/">');
    const bytes = Buffer.byteLength(html);
    console.log(`1,000 project rows with links: ${(bytes / 1024).toFixed(1)} kB of HTML`);
    expect(bytes).toBeLessThan(200_000);
  });

  it('says how many rows were cut', () => {
    const many = Array.from({ length: 1000 }, (_, i) => project(i + 1, `P${i}`));
    const html = renderHtmlTable(toTable(many, { maxRows: 40 }));
    expect(html).toMatch(/<caption>40 of 1,000 projects \(960 more not shown\)<\/caption>/);
    expect(html.match(/<tr>/g)).toHaveLength(41);
  });

  it('links usernames and projects when given a site URL', () => {
    const t = toTable(evil);
    expect(renderHtmlTable(t)).not.toContain('<a ');
    const html = renderHtmlTable(t, { siteUrl: 'https://scratch.mit.edu/' });
    // One link per row, on the title (the id beside it would link to the same page).
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toContain('<a href="https://scratch.mit.edu/projects/13/">&lt;script&gt;');
    const users = renderHtmlTable(toTable(user(1, "o'neil")), { siteUrl: 'https://scratch.mit.edu' });
    expect(users).toContain('<a href="https://scratch.mit.edu/users/o&#39;neil/">o&#39;neil</a>');
    expect(renderHtmlTable(t, { siteUrl: 'javascript:alert(1)//' })).not.toContain('<a ');
    // A sandbox's port is gone tomorrow: no links to it.
    expect(renderHtmlTable(t, { siteUrl: 'http://127.0.0.1:8123' })).not.toContain('<a ');
    expect(renderHtmlTable(t, { siteUrl: 'https://scratch.mit.edu.evil.example' })).not.toContain('<a ');
  });

  it('keeps long text whole in a tooltip and lets CSS cut it', () => {
    const long = 'A'.repeat(80);
    const html = renderHtmlTable(toTable(project(1, long)));
    expect(html).toContain(`title="${long}"`);
    expect(html).toContain('max-width:40ch;overflow:hidden;text-overflow:ellipsis');
  });
});
