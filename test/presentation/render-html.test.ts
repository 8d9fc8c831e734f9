import { describe, expect, it } from 'vitest';
import { escapeHtml, renderHtmlTable, toTable } from '../../src/presentation/index.js';
import { comment, project } from './records.js';

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

  it('is one self-contained table with a caption', () => {
    const html = renderHtmlTable(toTable([evil, project(2, 'b')]));
    expect(html.startsWith('<table style="')).toBe(true);
    expect(html.endsWith('</table>')).toBe(true);
    expect(html).toMatch(/<caption[^>]*>2 projects<\/caption>/);
    expect(html).not.toContain('<style');
    expect(html.match(/<th /g)).toHaveLength(9);
    expect(html.match(/<tr>/g)).toHaveLength(3);
    expect(html).toMatch(/<td style="[^"]*text-align:right[^"]*">123,456<\/td>/);
  });

  it('says how many rows were cut', () => {
    const many = Array.from({ length: 1000 }, (_, i) => project(i + 1, `P${i}`));
    const html = renderHtmlTable(toTable(many, { maxRows: 40 }));
    expect(html).toMatch(/<caption[^>]*>40 of 1,000 projects \(960 more not shown\)<\/caption>/);
    expect(html.match(/<tr>/g)).toHaveLength(41);
  });

  it('links usernames and projects when given a site URL', () => {
    const t = toTable(evil);
    expect(renderHtmlTable(t)).not.toContain('<a ');
    const html = renderHtmlTable(t, { siteUrl: 'https://scratch.mit.edu/' });
    expect(html).toContain('<a href="https://scratch.mit.edu/projects/13/"');
    expect(html).toContain('<a href="https://scratch.mit.edu/users/o\'neil/"'.replace("'", '&#39;'));
    expect(renderHtmlTable(t, { siteUrl: 'javascript:alert(1)//' })).not.toContain('<a ');
  });

  it('keeps long text whole in a tooltip and lets CSS cut it', () => {
    const long = 'A'.repeat(80);
    const html = renderHtmlTable(toTable(project(1, long)));
    expect(html).toContain(`title="${long}"`);
    expect(html).toContain('max-width:40ch');
  });
});
