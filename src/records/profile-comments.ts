/**
 * Profile comments, read from the HTML the site answers them with (WIRE.md §11.4): each comment is
 * a `<div class="comment" data-comment-id>` with the author in `data-comment-user`, the text in
 * `.content`, the date in `.time`'s `title`, and the thread and commentee on its `a.reply`.
 * Parsed with htmlparser2 through `html.ts` (never regular expressions).
 */
import { normalizeRecord } from './answers.js';
import { attributeOf, findElement, findElements, type HtmlElement, parseHtml, textOf } from './html.js';
import { tryParseJson } from './json.js';
import type { MuteStatus, ProfileComment } from './write-records.js';

/** The refusal a profile-comment answer carries in `<script id="error-data">`. */
interface ProfileCommentRefusal {
  error: string;
  mute_status?: MuteStatus;
  [key: string]: unknown;
}

function idOf(text: string | null | undefined): number | null {
  if (!text || !/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}

/** One `div.comment` as a record; `undefined` when it lacks an id or an author. */
function commentOf(div: HtmlElement): ProfileComment | undefined {
  const id = idOf(attributeOf(div, 'data-comment-id'));
  const userLink = findElement(div, { attribute: 'data-comment-user' });
  const nameDiv = findElement(div, { className: 'name' });
  const username =
    (userLink && attributeOf(userLink, 'data-comment-user')) ?? (nameDiv ? textOf(nameDiv) : '');
  if (id === null || !username) return undefined;
  const content = findElement(div, { className: 'content' });
  const time = findElement(div, { className: 'time' });
  const reply = findElement(div, { className: 'reply' });
  const avatar = findElement(div, { tag: 'img' });
  const thread = idOf(reply && attributeOf(reply, 'data-parent-thread'));
  const comment: ProfileComment = {
    id,
    parent_id: thread !== null && thread !== id ? thread : null,
    content: content ? textOf(content) : '',
    datetime_created: (time && attributeOf(time, 'title')) ?? '',
    author: { username },
    reply_count: 0,
  };
  const authorId = idOf(reply && attributeOf(reply, 'data-commentee-id'));
  if (authorId !== null) comment.author.id = authorId;
  const image = avatar && attributeOf(avatar, 'src');
  if (image) comment.author.image = image;
  return comment;
}

function commentDivs(html: string): HtmlElement[] {
  return findElements(parseHtml(html), { tag: 'div', className: 'comment', attribute: 'data-comment-id' });
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
      parent.reply_count++;
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
  const script = findElement(parseHtml(html), { tag: 'script', id: 'error-data' });
  if (!script) return undefined;
  const data = tryParseJson(textOf(script));
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const error = (data as { error?: unknown }).error;
  return typeof error === 'string' && error !== '' ? (data as ProfileCommentRefusal) : undefined;
}
