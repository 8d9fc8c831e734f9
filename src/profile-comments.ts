/**
 * Profile comments, read from the HTML the site answers them with (WIRE.md §11.4): each comment is
 * a `<div class="comment" data-comment-id>` with the author in `data-comment-user`, the text in
 * `.content`, the date in `.time`'s `title`, and the thread and commentee on its `a.reply`.
 * Parsed with htmlparser2 (never regular expressions); the walks are iterative, so a page nested
 * thousands of levels deep cannot overflow the stack.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import { normalizeRecord } from './answers.js';
import { tryParseJson } from './json.js';
import type { MuteStatus, ProfileComment } from './write-records.js';

type HtmlNode = ReturnType<typeof parseDocument>['children'][number];
type HtmlElement = Extract<HtmlNode, { attribs: Record<string, string> }>;

/** The refusal a profile-comment answer carries in `<script id="error-data">`. */
export interface ProfileCommentRefusal {
  error: string;
  mute_status?: MuteStatus;
  [key: string]: unknown;
}

function hasClass(element: HtmlElement, name: string): boolean {
  return (element.attribs.class ?? '').split(/\s+/).includes(name);
}

/** Every element under `root` (document order) that passes `test`. */
function findAll(root: HtmlNode | HtmlNode[], test: (element: HtmlElement) => boolean): HtmlElement[] {
  return DomUtils.findAll(
    test as (element: unknown) => boolean,
    Array.isArray(root) ? root : [root],
  ) as HtmlElement[];
}

function findOne(root: HtmlNode, test: (element: HtmlElement) => boolean): HtmlElement | undefined {
  return findAll(root, test)[0];
}

/** The text of a node, entities decoded, whitespace runs (U+00A0 included) made one space. */
export function textOf(root: HtmlNode): string {
  let text = '';
  const stack: HtmlNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (DomUtils.isText(node)) text += node.data;
    else if (DomUtils.hasChildren(node))
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return text.replace(/[\s\u00a0]+/g, ' ').trim();
}

function idOf(text: string | undefined): number | null {
  if (!text || !/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}

/** One `div.comment` as a record; `undefined` when it lacks an id or an author. */
function commentOf(div: HtmlElement): ProfileComment | undefined {
  const id = idOf(div.attribs['data-comment-id']);
  const userLink = findOne(div, (e) => e.attribs['data-comment-user'] !== undefined);
  const nameDiv = findOne(div, (e) => hasClass(e, 'name'));
  const username = userLink?.attribs['data-comment-user'] ?? (nameDiv ? textOf(nameDiv) : '');
  if (id === null || !username) return undefined;
  const content = findOne(div, (e) => hasClass(e, 'content'));
  const time = findOne(div, (e) => hasClass(e, 'time'));
  const reply = findOne(div, (e) => hasClass(e, 'reply'));
  const avatar = findOne(div, (e) => e.name === 'img');
  const thread = idOf(reply?.attribs['data-parent-thread']);
  const comment: ProfileComment = {
    id,
    parent_id: thread !== null && thread !== id ? thread : null,
    content: content ? textOf(content) : '',
    datetime_created: time?.attribs.title ?? '',
    author: { username },
  };
  const authorId = idOf(reply?.attribs['data-commentee-id']);
  if (authorId !== null) comment.author.id = authorId;
  if (avatar?.attribs.src) comment.author.image = avatar.attribs.src;
  return comment;
}

function commentDivs(html: string): HtmlElement[] {
  const document = parseDocument(html);
  return findAll(
    document,
    (e) => e.name === 'div' && hasClass(e, 'comment') && 'data-comment-id' in e.attribs,
  );
}

function schemeOf(url: string | undefined): 'http:' | 'https:' {
  return url?.startsWith('http:') ? 'http:' : 'https:';
}

/** The first comment of an HTML fragment (the answer to a posted comment), or `undefined`. */
export function parseProfileComment(html: string, answerUrl?: string): ProfileComment | undefined {
  for (const div of commentDivs(html)) {
    const comment = commentOf(div);
    if (comment) return normalizeRecord(comment, schemeOf(answerUrl));
  }
  return undefined;
}

/**
 * Every comment of a page of profile comments: top-level ones in page order, each with its
 * `replies` (a reply whose thread is not on the page is listed at the top level).
 */
export function parseProfileComments(html: string, answerUrl?: string): ProfileComment[] {
  const all = commentDivs(html)
    .map(commentOf)
    .filter((c): c is ProfileComment => c !== undefined);
  const byId = new Map<number, ProfileComment>();
  const top: ProfileComment[] = [];
  for (const comment of all) {
    const parent = comment.parent_id === null ? undefined : byId.get(comment.parent_id);
    if (parent) {
      parent.replies!.push(comment);
    } else {
      comment.replies = [];
      byId.set(comment.id, comment);
      top.push(comment);
    }
  }
  return normalizeRecord(top, schemeOf(answerUrl));
}

/** The refusal in a profile-comment answer (`<script id="error-data">` JSON), or `undefined`. */
export function profileCommentRefusal(html: string): ProfileCommentRefusal | undefined {
  if (!html.includes('error-data')) return undefined;
  const script = findOne(parseDocument(html), (e) => e.name === 'script' && e.attribs.id === 'error-data');
  if (!script) return undefined;
  const data = tryParseJson(textOf(script));
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const error = (data as { error?: unknown }).error;
  return typeof error === 'string' && error !== '' ? (data as ProfileCommentRefusal) : undefined;
}
