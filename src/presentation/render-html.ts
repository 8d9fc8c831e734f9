/**
 * Tables as HTML for notebooks: one self-contained `<table>` with inline styles (notebook
 * front-ends and nbconvert keep inline styles but not `<style>` blocks reliably), all record text
 * escaped (titles and comments are user input).
 */
import type { RecordKind } from './detect.js';
import { formatCount } from './format.js';
import type { Table, TextTable } from './table.js';
import { textWidth } from './text-width.js';

/** Options of {@link renderHtmlTable}. */
export interface RenderHtmlOptions {
  /**
   * Base URL of the site (e.g. `https://scratch.mit.edu`): usernames, projects and studios become
   * links to their pages. Without it (or if it is not http/https), no links are made.
   */
  siteUrl?: string;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escape text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

const NOUNS: Readonly<Record<RecordKind, readonly [string, string]>> = {
  user: ['user', 'users'],
  project: ['project', 'projects'],
  studio: ['studio', 'studios'],
  comment: ['comment', 'comments'],
  studioProject: ['studio project', 'studio projects'],
  logEntry: ['log entry', 'log entries'],
};

/** E.g. `3 projects`, `40 of 1,000 projects`; `rows` for a value table (no record kind). */
function caption(table: Table | TextTable): string {
  const [one, many] = 'kind' in table ? NOUNS[table.kind] : ['row', 'rows'];
  const noun = table.total === 1 ? one : many;
  if (table.truncatedRows > 0)
    return `${formatCount(table.rows.length)} of ${formatCount(table.total)} ${noun}`;
  return `${formatCount(table.total)} ${noun}`;
}

const TABLE_STYLE = 'border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums';
const CAPTION_STYLE = 'caption-side:bottom;text-align:left;color:#666;padding-top:4px;font-size:12px';
const CELL_STYLE = 'padding:2px 8px;border-bottom:1px solid #ddd;vertical-align:top';
const HEAD_STYLE = 'padding:2px 8px;border-bottom:2px solid #999;font-weight:bold';

/**
 * Render a table as an HTML `<table>` string: records' tables ({@link Table}, with links), or any
 * grid of text such as `toValueTable`'s.
 */
export function renderHtmlTable(table: Table | TextTable, options: RenderHtmlOptions = {}): string {
  const site =
    options.siteUrl && /^https?:\/\//i.test(options.siteUrl) ? options.siteUrl.replace(/\/+$/, '') : null;
  const align = (i: number): string =>
    table.columns[i]?.align === 'right' ? 'text-align:right' : 'text-align:left';

  const head = table.columns
    .map((c, i) => `<th style="${HEAD_STYLE};${align(i)}">${escapeHtml(c.header)}</th>`)
    .join('');
  const body = table.rows
    .map((row, r) => {
      const cells = row.map((text, i) => {
        const col = table.columns[i]!;
        let style = `${CELL_STYLE};${align(i)}`;
        let attrs = '';
        // Long text is cut by the browser (with an ellipsis) and kept whole in the tooltip.
        if (col.maxWidth !== undefined && textWidth(text) > col.maxWidth) {
          style += `;max-width:${col.maxWidth}ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap`;
          attrs = ` title="${escapeHtml(text)}"`;
        } else {
          style += ';white-space:nowrap';
        }
        const link = site && 'links' in table ? table.links[r]?.[i] : null;
        const content = link
          ? `<a href="${escapeHtml(site + link)}" target="_blank" rel="noopener noreferrer">${escapeHtml(text)}</a>`
          : escapeHtml(text);
        return `<td style="${style}"${attrs}>${content}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('');
  let cap = caption(table);
  if (table.truncatedRows > 0) cap += ` (${formatCount(table.truncatedRows)} more not shown)`;
  return (
    `<table style="${TABLE_STYLE}">` +
    `<caption style="${CAPTION_STYLE}">${escapeHtml(cap)}</caption>` +
    `<thead><tr>${head}</tr></thead>` +
    `<tbody>${body}</tbody>` +
    `</table>`
  );
}
