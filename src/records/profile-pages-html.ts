/**
 * The profile's list pages (`/users/<name>/followers/` and the like, `/projects/all/<name>/loves/`):
 * the count in the first heading (`div.box-head h2`, "Followers (1234)"; read so by
 * `kakeruzoku/scapi`'s `get_any_count`) and the loves page's projects (`div.media-grid
 * li.project.thumb.item` with `span.title a` and `span.owner a`, as scapi's `_create_from_html`
 * reads them).
 */

import { findElement, findElements, parseHtml, textOf, UnreadablePageError } from './html.js';
import type { LovedProject } from './profile-records.js';

/** The most projects one loves page may list (the site's pages hold 40; more would misplace every later window). */
export const MAX_LOVES_PER_PAGE = 40;

/** The `(N)` of the page's first `div.box-head h2`, after `label` when given; `null` when it shows none. */
function headingCount(root: ReturnType<typeof parseHtml>, label: string | null): number | null {
  const head = findElement(root, { tag: 'div', className: 'box-head' });
  const h2 = head && findElement(head, { tag: 'h2' });
  if (!h2) throw new UnreadablePageError('heading (div.box-head h2)');
  const text = textOf(h2);
  const match = /\(([\d,]{1,15})\)\s*$/.exec(text);
  if (label !== null && !text.startsWith(`${label} (`)) {
    throw new UnreadablePageError(`"${label} (N)" heading (it shows ${JSON.stringify(text.slice(0, 60))})`);
  }
  return match ? Number(match[1]!.replace(/,/g, '')) : null;
}

/**
 * The count a profile's list page states: `label` is the heading's words ("Followers",
 * "Shared Projects", "Studios I Curate", "Favorites").
 * @throws UnreadablePageError when the page has no such heading or no count in it
 */
export function parseProfileCount(html: string, label: string): number {
  const count = headingCount(parseHtml(html), label);
  if (count === null) throw new UnreadablePageError(`count in the "${label} (N)" heading`);
  return count;
}

/** The projects of one loves page, and the total its heading states (none shown when it is 0). */
export function parseLovesPage(html: string): { total: number; projects: LovedProject[] } {
  const root = parseHtml(html);
  const grid = findElement(root, { tag: 'div', className: 'media-grid' });
  const items = grid ? findElements(grid, { tag: 'li', className: 'thumb' }) : [];
  if (items.length > MAX_LOVES_PER_PAGE) {
    throw new UnreadablePageError(
      `page of at most ${MAX_LOVES_PER_PAGE} projects (it holds ${items.length}; the site shows 40)`,
    );
  }
  const projects = items.map((item, i): LovedProject => {
    const link = findElement(item, { tag: 'a', attribute: 'href' });
    const id = /\/projects\/(\d{1,15})\/?$/.exec(link?.attribs.href ?? '')?.[1];
    const title = findElement(item, { className: 'title' });
    const owner = findElement(item, { className: 'owner' });
    if (!id || !title || !owner) {
      throw new UnreadablePageError(`project link, span.title and span.owner in item ${i + 1}`);
    }
    // "by <a>name</a>": the link's text is the name.
    const ownerLink = findElement(owner, { tag: 'a' });
    return { id: Number(id), title: textOf(title), author: textOf(ownerLink ?? owner) };
  });
  const total = headingCount(root, null);
  // The site writes no count when nothing is loved.
  if (total === null && projects.length > 0) throw new UnreadablePageError('count "(N)" in the heading');
  if (!grid && total !== null && total > 0) throw new UnreadablePageError('project list (div.media-grid)');
  return { total: total ?? 0, projects };
}

/**
 * The group a profile page names in its header ("New Scratcher", "Scratcher", "Scratch Team"): the
 * last `span.group` of `div.header-text`, as scapi's `load_website` and scratchattach's
 * `is_new_scratcher` read it.
 */
export function parseProfileGroup(html: string): string {
  const header = findElement(parseHtml(html), { tag: 'div', className: 'header-text' });
  const group = header ? findElements(header, { tag: 'span', className: 'group' }).at(-1) : undefined;
  const text = group ? textOf(group) : '';
  if (text === '') throw new UnreadablePageError('group (div.header-text span.group)');
  return text;
}
