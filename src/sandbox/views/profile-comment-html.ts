/**
 * Profile comments as the site serves them: HTML, not JSON (WIRE.md §11.4). One comment is a
 * `div.comment` with its ids in `data-` attributes; a page lists top-level comments as
 * `li.top-level-reply`, each with its `ul.replies`. A refusal is a page whose
 * `<script id="error-data">` holds `{"error": code, "mute_status": …}`.
 */
import { escapeHtml } from '../../records/html.js';
import type { MuteStatus } from '../../records/write-records.js';
import type { CommentRow, UserRow } from '../state/store.js';
import type { Links } from './links.js';
import { timeSinceHtml } from './time-since-html.js';

/**
 * One comment's `div`. Its reply link names the thread (the top-level comment) and, as
 * `data-commentee-id`, the author: whom a reply made with that link answers.
 */
export function profileCommentDiv(row: CommentRow, author: UserRow, links: Links): string {
  const thread = row.parentId ?? row.id;
  const name = escapeHtml(author.username);
  const avatar = escapeHtml(links.protocolRelative(links.userImage(author.id, '60x60')));
  return [
    `<div id="comments-${row.id}" class="comment " data-comment-id="${row.id}">`,
    '  <div class="actions-wrap">',
    `    <span data-comment-id="${row.id}" class="actions report">Report</span>`,
    '  </div>',
    `  <a href="/users/${name}/" id="comment-user" data-comment-user="${name}"><img class="avatar" src="${avatar}" width="45" height="45"></a>`,
    '  <div class="info">',
    `    <div class="name"><a href="/users/${name}/">${name}</a></div>`,
    `    <div class="content">${escapeHtml(row.content)}</div>`,
    '    <div>',
    `      <span class="time" title="${escapeHtml(row.created)}">${timeSinceHtml(row.created, Date.now())}</span>`,
    `      <a class="reply" style="display: none;" data-comment-id="${row.id}" data-parent-thread="${thread}" data-commentee-id="${author.id}" data-control="reply-to"><span>Reply</span></a>`,
    '    </div>',
    '  </div>',
    '</div>',
  ].join('\n');
}

/** One page of a profile's comments: top-level comments newest first, their replies oldest first. */
export function profileCommentsPage(
  top: readonly CommentRow[],
  repliesOf: (row: CommentRow) => readonly CommentRow[],
  userOf: (id: number) => UserRow,
  links: Links,
): string {
  if (top.length === 0) return '';
  const items = top.map((row) => {
    const replies = repliesOf(row)
      .map((reply) => `<li class="reply">\n${profileCommentDiv(reply, userOf(reply.authorId), links)}\n</li>`)
      .join('\n');
    return [
      '<li class="top-level-reply">',
      profileCommentDiv(row, userOf(row.authorId), links),
      `<ul class="replies">${replies ? `\n${replies}\n` : ''}</ul>`,
      '</li>',
    ].join('\n');
  });
  return `<ul class="comments">\n${items.join('\n')}\n</ul>\n`;
}

/** The page the site answers a refused profile comment with. */
export function profileRefusalHtml(code: string, muteStatus?: MuteStatus): string {
  const data: Record<string, unknown> = { error: code };
  if (muteStatus) data.mute_status = muteStatus;
  // `<` is escaped inside the script, so no text can close it early.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<script id="error-data" type="application/json">${json}</script>\n`;
}
