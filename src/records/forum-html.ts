/**
 * The forums' pages (WIRE.md §12.1), read with htmlparser2 through `html.ts`: the index of
 * categories, a category's topic list, a topic's posts, and a topic's Atom feed (read with
 * htmlparser2's feed reader). Each reader throws {@link UnreadablePageError} naming what a page
 * lacks, never returns a silent empty list for a page it could not read.
 */
import { DomUtils } from 'htmlparser2';
import type {
  ForumCategory,
  ForumFeedPost,
  ForumLastPost,
  ForumPost,
  ForumTopic,
  ForumTopicFeed,
} from './forum-records.js';
import { parseForumTime } from './forum-time.js';
import {
  childElements,
  classesOf,
  findElement,
  findElements,
  type HtmlElement,
  type HtmlRoot,
  normalizeSpace,
  ownTexts,
  parseHtml,
  parseXml,
  textOf,
  UnreadablePageError,
} from './html.js';

/** Most rows one page may hold (the site shows 25 topics or 20 posts): past it, the page is refused. */
export const MAX_ROWS_PER_PAGE = 1_000;

/**
 * Where a page's times are read: the zone they are written in, the moment "Today" means, and
 * the language the answer says it is in (`Content-Language`), when it says.
 */
export interface ForumClock {
  timeZone: string;
  now: number;
  language?: string | null;
}

/** Where a list page stands: its number and the last page's, when the page says. */
export interface PagePosition {
  page: number | null;
  pages: number | null;
}

/** The path segments of a link (`/discuss/topic/5/` → `['discuss', 'topic', '5']`). */
function segmentsOf(href: string | undefined): string[] {
  // Stryker disable next-line ConditionalExpression: equivalent, an absent href read as a URL names no forum page either
  if (!href) return [];
  try {
    return new URL(href, 'https://scratch.mit.edu').pathname.split('/').filter((s) => s !== '');
  } catch {
    return [];
  }
}

function idText(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}

/** The id an href names after `/discuss/<kind>/` (`kind` `''` for a category: `/discuss/<id>/`). */
function idFromHref(href: string | undefined, kind: 'topic' | 'post' | ''): number | null {
  const segments = segmentsOf(href);
  if (segments[0] !== 'discuss') return null;
  if (kind === '') return segments.length === 2 ? idText(segments[1]) : null;
  return segments[1] === kind ? idText(segments[2]) : null;
}

function linkedId(link: HtmlElement | null, kind: 'topic' | 'post' | ''): number | null {
  return link ? idFromHref(link.attribs.href, kind) : null;
}

/** The first link under `root` to a `kind` page. */
function firstLink(root: HtmlRoot, kind: 'topic' | 'post' | ''): HtmlElement | null {
  return findElements(root, { tag: 'a' }).find((a) => linkedId(a, kind) !== null) ?? null;
}

/** A count as the pages write it ("1,234", "12 345"); `null` when it is not one. */
export function parseCount(text: string): number | null {
  const digits = text.replace(/[,.\s\u00a0\u202f']/g, '');
  if (!/^\d{1,15}$/.test(digits)) return null;
  return Number(digits);
}

function countOf(cell: HtmlElement | undefined, what: string): number {
  const count = cell ? parseCount(textOf(cell)) : null;
  if (count === null) throw new UnreadablePageError(what);
  return count;
}

/**
 * "by alice" → "alice": the name is the last word (names have no spaces), so a page in another
 * language ("von alice") names the same user.
 */
function byUser(root: HtmlRoot): string | null {
  const span = findElement(root, { className: 'byuser' });
  if (!span) return null;
  return textOf(span).split(' ').at(-1) || null;
}

/** The language a page says it is in: the answer's `Content-Language`, else `<html lang>`. */
function pageLanguage(root: HtmlRoot, clock: ForumClock): string | null {
  const html = findElement(root, { tag: 'html' });
  const tag = (clock.language ?? html?.attribs.lang ?? '').split(',')[0]!.trim();
  return tag === '' ? null : tag;
}

/** "German (de)" for `de`; the tag alone when the runtime has no name for it. */
function languageName(tag: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(tag);
    return name && name !== tag ? `${name} (${tag})` : tag;
  } catch {
    return tag;
  }
}

/**
 * A time the page writes, or `null` when there is none; text that is not a time is refused,
 * naming the page's language when it is not English (the forums write times in the language of
 * the account's forum profile, WIRE.md §12.7).
 */
function timeOf(text: string, clock: ForumClock, what: string, root?: HtmlRoot): Date | null {
  if (text === '') return null;
  const time = parseForumTime(text, clock.timeZone, clock.now);
  if (time) return time;
  const shown = JSON.stringify(text.slice(0, 60));
  const language = root ? pageLanguage(root, clock) : (clock.language ?? null);
  if (language && !/^en\b/i.test(language)) {
    throw new UnreadablePageError(
      `English text: it is in ${languageName(language)} (its ${what} shows ${shown}); the forums answer in the language of the account's forum profile, so set that to English or read without logging in`,
    );
  }
  throw new UnreadablePageError(`readable ${what} (it shows ${shown})`);
}

/** The "Last post" cell of a row: `<a href="/discuss/post/9/">Today 10:11:12</a> <span class="byuser">by bob</span>`. */
function lastPostOf(
  cell: HtmlElement | undefined,
  clock: ForumClock,
  what: string,
  root: HtmlRoot,
): ForumLastPost {
  if (!cell) return { id: null, time: null, author: null };
  const link = firstLink(cell, 'post');
  return {
    id: linkedId(link, 'post'),
    time: link ? timeOf(textOf(link), clock, `${what}'s last-post time`, root) : null,
    author: byUser(cell),
  };
}

/**
 * The rows of `table` itself (in its `thead`, `tbody`, `tfoot` or directly under it), not those
 * of a table nested in one of its cells, which are no rows of this list.
 */
function rowsOf(table: HtmlElement): HtmlElement[] {
  return childElements(table).flatMap((part) =>
    part.name === 'tr'
      ? [part]
      : ['thead', 'tbody', 'tfoot'].includes(part.name)
        ? childElements(part).filter((r) => r.name === 'tr')
        : [],
  );
}

function cellsOf(row: HtmlElement): HtmlElement[] {
  return childElements(row).filter((c) => c.name === 'td');
}

function checkRows<T>(rows: readonly T[], what: string): void {
  if (rows.length > MAX_ROWS_PER_PAGE) {
    throw new UnreadablePageError(
      `more than ${MAX_ROWS_PER_PAGE} ${what} (refused: a page holds a few dozen)`,
    );
  }
}

/** The page numbers of `div.pagination`: the current one (not a link) and the highest. */
export function pagePosition(root: HtmlRoot): PagePosition {
  const bar = findElement(root, { tag: 'div', className: 'pagination' });
  if (!bar) return { page: null, pages: null };
  let page: number | null = null;
  let pages: number | null = null;
  for (const element of findElements(bar, {})) {
    if (element.name !== 'a' && !classesOf(element).includes('current')) continue;
    const n = idText(textOf(element));
    if (n === null) continue;
    if (classesOf(element).includes('current')) page = n;
    pages = Math.max(pages ?? 0, n);
  }
  return { page, pages };
}

/**
 * The index of categories (`/discuss/`): one table per group, a row per category with its link
 * `/discuss/<id>/` in `td.tcl`, topics in `td.tc2`, posts in `td.tc3`, the last post in `td.tcr`.
 */
export function parseCategories(html: string, clock: ForumClock): ForumCategory[] {
  const root = parseHtml(html);
  const boxes = findElements(root, { tag: 'div', className: 'box' }).filter((box) =>
    findElement(box, { tag: 'table' }),
  );
  const categories: ForumCategory[] = [];
  for (const box of boxes) {
    // The heading holds a "Toggle shoutbox" link before the group's name: its own text is the name.
    const heading = findElement(box, { tag: 'h4' });
    const group = heading ? ownTexts(heading).join(' ') : '';
    for (const row of findElements(box, { tag: 'table' }).slice(0, 1).flatMap(rowsOf)) {
      const cells = cellsOf(row);
      if (cells.length < 2) continue;
      const link = firstLink(cells[0]!, '');
      const id = linkedId(link, '');
      if (id === null || !link)
        throw new UnreadablePageError(`category link (/discuss/<id>/) in row ${categories.length + 1}`);
      const name = textOf(link);
      const description = findElement(cells[0]!, { className: 'tclcon' });
      categories.push({
        id,
        name,
        group,
        description: description ? descriptionOf(description) : '',
        topics: countOf(cells[1], `topic count of category ${id}`),
        posts: countOf(cells[2], `post count of category ${id}`),
        lastPost: lastPostOf(cells[3], clock, `category ${id}`, root),
      });
    }
  }
  if (categories.length === 0)
    throw new UnreadablePageError('category rows (div.box table tr with a /discuss/<id>/ link)');
  checkRows(categories, 'categories');
  return categories;
}

/** A forum's description: the text of its box after the name's heading, inline markup's text kept. */
function descriptionOf(box: HtmlElement): string {
  const parts = box.children.filter((node) => !(DomUtils.isTag(node) && node.name === 'h3'));
  return normalizeSpace(parts.map((node) => DomUtils.textContent(node)).join(''));
}

/** A category's page: its name, where the page stands, and its topic rows. */
export interface TopicListPage extends PagePosition {
  category: string;
  topics: ForumTopic[];
}

/**
 * A category's topic list (`/discuss/<id>/?page=N`): the name in `h4 > span`, then a row per
 * topic: the link `/discuss/topic/<id>/` and "by <author>" in `td.tcl`, replies and views (with
 * thousands separators) and the last post. The icon's classes mark sticky (`isticky`) and
 * closed (`iclosed`, or the title box's `closed-topic`) topics; rows of one cell are not topics.
 * A table with no topic row is refused unless it shows the site's empty marker (`td.djangobbcon1`,
 * "Forum is empty."). The live rows close one `</div>` too many in their first cell (WIRE.md
 * §12.7): `parseHtml` ignores it, as browsers do.
 */
export function parseTopicList(html: string, categoryId: number, clock: ForumClock): TopicListPage {
  const root = parseHtml(html);
  const heading = findElements(root, { tag: 'h4' })
    .map((h4) => findElement(h4, { tag: 'span' }))
    .find((span) => span !== null);
  if (!heading) throw new UnreadablePageError('category heading (h4 > span)');
  const category = textOf(heading);
  const table = findElement(root, { tag: 'table' });
  if (!table) throw new UnreadablePageError('topic table');
  const rows = rowsOf(table).filter((row) => cellsOf(row).length > 1);
  checkRows(rows, 'topic rows');
  if (rows.length === 0 && !findElement(table, { tag: 'td', className: 'djangobbcon1' })) {
    throw new UnreadablePageError('topic rows, nor the empty-forum marker (td.djangobbcon1)');
  }
  const topics = rows.map((row, i): ForumTopic => {
    const cells = cellsOf(row);
    const heading = findElement(cells[0]!, { tag: 'h3' });
    const link = firstLink(heading ?? cells[0]!, 'topic');
    const id = linkedId(link, 'topic');
    if (id === null || !link)
      throw new UnreadablePageError(`topic link (/discuss/topic/<id>/) in row ${i + 1}`);
    const title = textOf(link);
    const classes = findElements(cells[0]!, {}).flatMap(classesOf);
    return {
      id,
      title,
      category,
      categoryId,
      author: byUser(cells[0]!),
      replies: countOf(cells[1], `reply count of topic ${id}`),
      views: countOf(cells[2], `view count of topic ${id}`),
      sticky: classes.includes('isticky'),
      closed: classes.includes('iclosed') || classes.includes('closed-topic'),
      lastPost: lastPostOf(cells[3], clock, `topic ${id}`, root),
    };
  });
  return { category, topics, ...pagePosition(root) };
}

/** A topic's page: its title and category, where the page stands, and its posts. */
export interface PostPage extends PagePosition {
  title: string;
  category: string;
  categoryId: number | null;
  posts: ForumPost[];
}

/**
 * "Last edited by alice (Jun 3, 2024 10:11:12)" → the editor and the time: the name is the word
 * before the parenthesis, in any language's wording of the note.
 */
function editOf(note: string, clock: ForumClock): { editedBy: string | null; editedAt: Date | null } {
  const match = /(\S+) \(([^()]+)\)$/.exec(note);
  if (!match) return { editedBy: null, editedAt: null };
  return {
    editedBy: match[1]!,
    editedAt: match[2] ? parseForumTime(match[2], clock.timeZone, clock.now) : null,
  };
}

/** Elements that start a line of their own in the text of a post. */
const BLOCKS = new Set([
  'p',
  'div',
  'blockquote',
  'pre',
  'li',
  'ul',
  'ol',
  'table',
  'tr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

/**
 * A post's text: a line per `<br>` or block (paragraph, quote, code), white space within a
 * line collapsed, empty lines left out.
 */
export function postText(body: HtmlElement): string {
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    const text = normalizeSpace(line);
    if (text !== '') lines.push(text);
    line = '';
  };
  const walk = (node: HtmlElement) => {
    for (const child of node.children) {
      if (DomUtils.isText(child)) line += child.data;
      else if (!DomUtils.isTag(child)) continue;
      else if (child.name === 'br') flush();
      else if (child.name === 'pre') {
        // Code keeps its lines and their indentation; only its trailing blank lines go.
        flush();
        const code = DomUtils.textContent(child).replace(/\s+$/, '').replace(/^\n+/, '');
        for (const codeLine of code.split('\n')) lines.push(codeLine.replace(/\s+$/, ''));
      } else if (BLOCKS.has(child.name)) {
        flush();
        walk(child);
        flush();
      } else walk(child);
    }
  };
  walk(body);
  flush();
  return lines.join('\n');
}

/** One `div.blockpost`. */
function postOf(
  block: HtmlElement,
  topicId: number,
  topicTitle: string,
  clock: ForumClock,
  root: HtmlRoot,
): ForumPost {
  const idAttr = block.attribs.id ?? '';
  const id = idAttr.startsWith('p') ? idText(idAttr.slice(1)) : null;
  if (id === null) throw new UnreadablePageError('post id (div.blockpost id="p<digits>")');
  const indexEl = findElement(block, { tag: 'span', className: 'conr' });
  const index = indexEl ? idText(textOf(indexEl).replace(/^#/, '')) : null;
  if (index === null) throw new UnreadablePageError(`index (span.conr "#N") of post ${id}`);
  const head = findElement(block, { className: 'box-head' }) ?? block;
  const dateLink = findElements(head, { tag: 'a', attribute: 'href' })[0];
  const left = findElement(block, { className: 'postleft' }) ?? block;
  const dt = findElement(left, { tag: 'dt' });
  const authorLink = dt && findElement(dt, { tag: 'a' });
  const author = authorLink ? textOf(authorLink) : '';
  if (author === '') throw new UnreadablePageError(`author (dl dt a) of post ${id}`);
  const body = findElement(block, { tag: 'div', className: 'post_body_html' });
  if (!body) throw new UnreadablePageError(`body (div.post_body_html) of post ${id}`);
  const noteEl = findElement(block, { className: 'posteditmessage' });
  const editNote = noteEl ? textOf(noteEl) : null;
  return {
    id,
    topicId,
    topicTitle,
    index,
    author,
    time: dateLink ? timeOf(textOf(dateLink), clock, `time of post ${id}`, root) : null,
    text: postText(body),
    html: DomUtils.getInnerHTML(body, { encodeEntities: 'utf8' }),
    editNote,
    ...(editNote ? editOf(editNote, clock) : { editedBy: null, editedAt: null }),
  };
}

/**
 * A topic's page (`/discuss/topic/<id>/?page=N`): `div.djangobb` holding the breadcrumb
 * (`…/discuss/<category>/` link, then the topic's title), `div.pagination`, and a `div.blockpost`
 * per post (id `p<id>`, `span.conr` "#N", the date link, `dl dt a` the author,
 * `div.post_body_html`, and an optional `em.posteditmessage`).
 */
export function parsePostPage(html: string, topicId: number, clock: ForumClock): PostPage {
  const root = parseHtml(html);
  const wrapper = findElement(root, { tag: 'div', className: 'djangobb' });
  if (!wrapper) throw new UnreadablePageError('forum wrapper (div.djangobb)');
  const crumbs = findElement(wrapper, { className: 'linkst' }) ?? wrapper;
  const trail = findElements(crumbs, { tag: 'ul' })[0];
  const categoryLink = trail ? firstLink(trail, '') : null;
  const items = trail ? childElements(trail).filter((li) => li.name === 'li') : [];
  const last = items.at(-1);
  // The trail's last item is the topic's title as text ("» Title"), then the topic's feed link.
  const crumbTitle =
    last && !firstLink(last, '') ? normalizeSpace(ownTexts(last).join(' ').replace(/^»/, '')) : '';
  const blocks = findElements(root, { tag: 'div', className: 'blockpost' });
  checkRows(blocks, 'posts');
  const firstH3 = blocks[0] && findElement(blocks[0], { tag: 'h3' });
  const title = crumbTitle || (firstH3 ? textOf(firstH3).replace(/^Re:\s*/, '') : '');
  return {
    title,
    category: categoryLink ? textOf(categoryLink) : '',
    categoryId: linkedId(categoryLink, ''),
    posts: blocks.map((block) => postOf(block, topicId, title, clock, root)),
    ...pagePosition(wrapper),
  };
}

/** The element children of `entry` named `name` (Atom's names, any case). */
function child(entry: HtmlElement, name: string): HtmlElement | undefined {
  return childElements(entry).find((c) => c.name.toLowerCase() === name);
}

function textIn(element: HtmlElement | undefined): string | undefined {
  return element ? DomUtils.textContent(element) : undefined;
}

function dateOf(text: string | undefined): Date | null {
  if (!text) return null;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * A topic's Atom feed (`/discuss/feeds/topic/<id>/`), read with htmlparser2's feed reader: the
 * feed's title ("Latest posts on <topic>") and `updated`, and per entry its title
 * ("<Forum> :: <Category> :: <Topic>"), link, author, time, id and summary.
 */
export function parseTopicFeed(xml: string, topicId: number): ForumTopicFeed {
  const root = parseXml(xml);
  const feed = DomUtils.getFeed(root.children);
  if (feed?.type !== 'atom') throw new UnreadablePageError('Atom feed (<feed> element)');
  const entries = findElements(root, {}).filter((e) => e.name.toLowerCase() === 'entry');
  if (entries.length === 0 || feed.items.length !== entries.length) {
    throw new UnreadablePageError('feed entries (<entry>)');
  }
  checkRows(entries, 'feed entries');
  const title = normalizeSpace(feed.title ?? '').replace(/^Latest posts on\s*/i, '');
  if (title === '') throw new UnreadablePageError('feed title');
  const posts = feed.items.map((item, i): ForumFeedPost => {
    const entry = entries[i]!;
    const author = child(entry, 'author');
    const name = author && child(author, 'name');
    const link = item.link ?? null;
    const fromLink = link ? idFromHref(link, 'post') : null;
    const idTextValue = (item.id ?? '').trim();
    return {
      id: fromLink ?? idText(idTextValue) ?? idText(segmentsOf(idTextValue).at(-1)),
      title: normalizeSpace(item.title ?? ''),
      author: name ? textOf(name) || null : null,
      time: dateOf(textIn(child(entry, 'published'))) ?? dateOf(textIn(child(entry, 'updated'))),
      link,
      html: (item.description ?? '').trim(),
    };
  });
  const category = posts[0]?.title.split(' :: ')[1] ?? '';
  return {
    id: topicId,
    title,
    category: category.trim(),
    updated: feed.updated && !Number.isNaN(feed.updated.getTime()) ? feed.updated : null,
    posts,
  };
}
