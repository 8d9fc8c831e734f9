/**
 * Tables as HTML for notebooks: one `<style>` and one `<table>` per output, styled by classes (so
 * 1,000 rows stay small) with JupyterLab's theme variables and fallbacks that read in light and
 * dark themes alike; all record text escaped (titles and comments are user input).
 */
import { PLATFORM_HOSTS } from '../http/hosts.js';
import { escapeHtml } from '../records/html.js';
import { windowNote } from '../rows/list-window.js';
import type { RecordKind } from './detect.js';
import { formatCount } from './format.js';
import type { Table, TextTable } from './table.js';
import { textWidth } from './text-width.js';

/** Options of {@link renderHtmlTable}. */
export interface RenderHtmlOptions {
  /**
   * Base URL of the site: titles and usernames become links to their pages, but only on the real
   * site (`https://scratch.mit.edu`). A sandbox's port is gone tomorrow, so its tables have no links.
   */
  siteUrl?: string;
}

export { escapeHtml };

const NOUNS: Readonly<Record<RecordKind, readonly [string, string]>> = {
  user: ['user', 'users'],
  project: ['project', 'projects'],
  studio: ['studio', 'studios'],
  comment: ['comment', 'comments'],
  studioProject: ['studio project', 'studio projects'],
  logEntry: ['log entry', 'log entries'],
  activity: ['item', 'items'],
  forumTopic: ['topic', 'topics'],
  forumPost: ['post', 'posts'],
  classroom: ['class', 'classes'],
  classroomRow: ['class', 'classes'],
  backpackItem: ['backpack item', 'backpack items'],
  projectAnalysis: ['analysis', 'analyses'],
  profileTotals: ['profile', 'profiles'],
  lovedProject: ['loved project', 'loved projects'],
  userRank: ['rank', 'ranks'],
  teamMember: ['team member', 'team members'],
};

/** E.g. `3 projects`, `40 of 1,000 projects`, `first 40 projects — .all() fetches all`, `no results`. */
function caption(table: Table | TextTable): string {
  if (table.total === 0) return 'no results';
  const [one, many] = 'kind' in table ? NOUNS[table.kind] : ['row', 'rows'];
  const noun = table.total === 1 ? one : many;
  const note = windowNote(table.window, table.total, table.rows.length);
  if (note) return `${noun}: ${note}`;
  if (table.truncatedRows > 0)
    return `${formatCount(table.rows.length)} of ${formatCount(table.total)} ${noun} (${formatCount(table.truncatedRows)} more not shown)`;
  return `${formatCount(table.total)} ${noun}`;
}

/** Only the real site's pages are linked: they will still be there when the notebook is read. */
function linkBase(siteUrl: string | undefined): string | null {
  if (!siteUrl) return null;
  const base = siteUrl.replace(/\/+$/, '');
  return base.toLowerCase() === PLATFORM_HOSTS.site ? PLATFORM_HOSTS.site : null;
}

let tables = 0;

/**
 * The output's `<style>`: shared rules under `.sl-table`, plus this table's column rules
 * (alignment, widths) under its own class, so several tables on one page do not mix.
 */
function styleFor(id: string, table: Table | TextTable): string {
  const rules = [
    '.sl-table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums;' +
      'color:var(--jp-ui-font-color1,inherit);background:transparent}',
    '.sl-table caption{caption-side:bottom;text-align:left;padding-top:4px;font-size:12px;' +
      'color:var(--jp-ui-font-color2,inherit);opacity:.8}',
    '.sl-table th,.sl-table td{padding:2px 8px;text-align:left;vertical-align:top;white-space:nowrap;' +
      'border-bottom:1px solid var(--jp-border-color2,rgba(128,128,128,.3))}',
    '.sl-table th{font-weight:bold;border-bottom:2px solid var(--jp-border-color1,rgba(128,128,128,.6))}',
    '.sl-table a{color:var(--jp-content-link-color,inherit)}',
  ];
  table.columns.forEach((c, i) => {
    const props: string[] = [];
    if (c.align === 'right') props.push('text-align:right');
    // Long text is cut by the browser (with an ellipsis) and kept whole in the cell's tooltip.
    if (c.maxWidth !== undefined)
      props.push(`max-width:${c.maxWidth}ch;overflow:hidden;text-overflow:ellipsis`);
    if (props.length > 0)
      rules.push(`.${id} td:nth-child(${i + 1}),.${id} th:nth-child(${i + 1}){${props.join(';')}}`);
  });
  return `<style>${rules.join('')}</style>`;
}

/**
 * Render a table as HTML (a `<style>` and a `<table>`): records' tables ({@link Table}, with
 * links on the real site), or any grid of text such as `toValueTable`'s.
 */
export function renderHtmlTable(table: Table | TextTable, options: RenderHtmlOptions = {}): string {
  const site = linkBase(options.siteUrl);
  const id = `sl-t${(++tables).toString(36)}`;
  const head = table.columns.map((c) => `<th>${escapeHtml(c.header)}</th>`).join('');
  // One link per row, on the name or title (an id beside it would link to the same page): links
  // are most of a row's bytes, and 1,000 rows must stay small.
  const linked =
    site && 'links' in table
      ? table.columns.findIndex((c, i) => c.key !== 'id' && table.links.some((row) => row[i]))
      : -1;
  const body = table.rows
    .map((row, r) => {
      const cells = row.map((text, i) => {
        const col = table.columns[i]!;
        const title =
          col.maxWidth !== undefined && textWidth(text) > col.maxWidth ? ` title="${escapeHtml(text)}"` : '';
        const link = i === linked && 'links' in table ? table.links[r]?.[i] : null;
        const content = link
          ? `<a href="${escapeHtml(site + link)}">${escapeHtml(text)}</a>`
          : escapeHtml(text);
        // `</td>` and `</tr>` are optional in HTML: left out, they save a fifth of a big table.
        return `<td${title}>${content}`;
      });
      return `<tr>${cells.join('')}`;
    })
    .join('');
  return (
    styleFor(id, table) +
    `<table class="sl-table ${id}">` +
    `<caption>${escapeHtml(caption(table))}</caption>` +
    `<thead><tr>${head}</tr></thead>` +
    `<tbody>${body}</tbody>` +
    `</table>`
  );
}
