/**
 * Posting, deleting and reporting comments (WIRE.md §11.4), shared by projects, studios and
 * profiles. A comment is never retried after an ambiguous failure: a POST that got no answer may
 * still have been posted, and posting it again would double it (and count towards the flood rule).
 * Like every write, only a 429 (a refusal: nothing was posted) is waited out and sent again.
 */

import { ApiError, CommentRejectedError } from '../errors.js';
import type { ClientCore } from '../http/client-core.js';
import { readHtmlAnswer } from '../http/html-answer.js';
import { parseProfileComment, profileCommentRefusal } from '../records/profile-comments.js';
import { assertString, toId } from '../records/validate.js';
import type {
  CommentPostOptions,
  CommentRejection,
  CommentReport,
  MuteStatus,
  PostedComment,
  ProfileComment,
} from '../records/write-records.js';

/** The longest comment the official web client lets through; the service refuses longer ones. */
const MAX_COMMENT_LENGTH = 500;

/** Where API comments live: `{api}/proxy/comments/<place>/<id>`. */
type CommentPlace = 'project' | 'studio';

/** The JSON body every comment write sends: ids as numbers, or `""` when absent (as the web client). */
interface CommentBody {
  content: string;
  parent_id: number | '';
  commentee_id: number | '';
}

/** Checks a comment before it is sent: caller mistakes never reach the service. */
function commentBody(content: unknown, options: CommentPostOptions = {}): CommentBody {
  assertString(content, 'content');
  if (content.trim() === '') throw new RangeError('content must not be empty');
  // The service counts characters as the browser does (UTF-16 code units).
  if (content.length > MAX_COMMENT_LENGTH) {
    throw new RangeError(`content must be at most ${MAX_COMMENT_LENGTH} characters, got ${content.length}`);
  }
  if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
  const { parentId, commenteeId } = options;
  return {
    content,
    parent_id: parentId === undefined ? '' : toId(parentId, 'parentId'),
    commentee_id: commenteeId === undefined ? '' : toId(commenteeId, 'commenteeId'),
  };
}

/** The refusal in an answer, if it is one (`{"rejected": code, …}`). */
function rejectionOf(value: unknown): CommentRejection | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const rejected = (value as { rejected?: unknown }).rejected;
  return typeof rejected === 'string' && rejected !== '' ? (value as CommentRejection) : undefined;
}

/**
 * Runs a comment POST; a 403 whose body carries `mute_status` (how the service refuses a muted
 * account outside the `rejected` answer, WIRE.md §11) becomes a {@link CommentRejectedError}.
 */
async function mutedAsRejection<T>(url: string, post: () => Promise<T>): Promise<T> {
  try {
    return await post();
  } catch (error) {
    const body = error instanceof ApiError ? (error.body as { mute_status?: unknown } | null) : null;
    const muteStatus = body !== null && typeof body === 'object' ? body.mute_status : undefined;
    if (!(error instanceof ApiError) || error.status !== 403 || muteStatus === undefined) throw error;
    throw new CommentRejectedError({
      status: 403,
      url,
      method: 'POST',
      code: 'isMuted',
      muteStatus: muteStatus as MuteStatus,
      body,
    });
  }
}

/** Posts a comment on a project or studio; a refusal throws {@link CommentRejectedError}. */
export async function postApiComment(
  session: ClientCore,
  place: CommentPlace,
  id: number,
  content: string,
  options?: CommentPostOptions,
): Promise<PostedComment> {
  const body = commentBody(content, options);
  session.requireAuth(`${place}s.postComment`);
  const url = `${session.apiHost}/proxy/comments/${place}/${id}`;
  const answer = await mutedAsRejection(url, () =>
    session.authedJson<PostedComment | CommentRejection>(
      url,
      { method: 'POST', json: body },
      { Referer: `${session.hosts.site}/${place}s/${id}/` },
    ),
  );
  const refusal = rejectionOf(answer);
  if (refusal) {
    throw new CommentRejectedError({
      url,
      method: 'POST',
      code: refusal.rejected,
      muteStatus: refusal.status?.mute_status,
      appealId: refusal.appealId,
      body: answer,
    });
  }
  return answer as PostedComment;
}

/** Deletes a comment of a project or studio (its author, or whoever runs the place). */
export async function deleteApiComment(
  session: ClientCore,
  place: CommentPlace,
  id: number,
  commentId: number | string,
): Promise<void> {
  const cid = toId(commentId, 'comment id');
  session.requireAuth(`${place}s.deleteComment`);
  await session.authedFetch(`${session.apiHost}/proxy/comments/${place}/${id}/comment/${cid}`, {
    method: 'DELETE',
  });
}

/** Reports a comment of a project or studio to the moderators. */
export async function reportApiComment(
  session: ClientCore,
  place: CommentPlace,
  id: number,
  commentId: number | string,
): Promise<CommentReport> {
  const cid = toId(commentId, 'comment id');
  session.requireAuth(`${place}s.reportComment`);
  // No `comments/` segment here, unlike posting and deleting (WIRE.md §11.4).
  const answer = await session.authedJson<CommentReport | null>(
    `${session.apiHost}/proxy/${place}/${id}/comment/${cid}/report`,
    { method: 'POST', json: {} },
  );
  return answer ?? {};
}

/** `{site}/site-api/comments/user/<u>/` with the site's headers. */
function profileUrl(session: ClientCore, username: string, action: string): string {
  return `${session.hosts.site}/site-api/comments/user/${encodeURIComponent(username)}/${action}/`;
}

/**
 * Posts a profile comment. The site answers with the comment as an HTML fragment, or with a page
 * whose `error-data` script holds the refusal.
 */
export async function postProfileComment(
  session: ClientCore,
  username: string,
  content: string,
  options?: CommentPostOptions,
): Promise<ProfileComment> {
  const body = commentBody(content, options);
  session.requireAuth('users.postComment');
  const url = profileUrl(session, username, 'add');
  const answer = await mutedAsRejection(url, () =>
    session.authedFetch(
      url,
      { method: 'POST', json: body },
      { Referer: `${session.hosts.site}/users/${encodeURIComponent(username)}/` },
    ),
  );
  const [refusal, comment, html] = readHtmlAnswer(session, answer, 'POST', (text) => {
    const refused = profileCommentRefusal(text);
    return [refused, refused ? undefined : parseProfileComment(text, answer.url), text] as const;
  });
  if (refusal) {
    throw new CommentRejectedError({
      url,
      method: 'POST',
      code: refusal.error,
      muteStatus: refusal.mute_status,
      body: refusal,
    });
  }
  if (!comment) {
    throw new ApiError({
      status: answer.status,
      url,
      method: 'POST',
      body: html.slice(0, 200),
      reason: 'the site answered without a comment in it',
      secrets: session.http.secretsFor(url),
    });
  }
  return comment;
}

/** Deletes (`del`) or reports (`rep`) a profile comment: `{"id": "<cid>"}`. */
export async function profileCommentAction(
  session: ClientCore,
  username: string,
  commentId: number | string,
  action: 'del' | 'rep',
): Promise<void> {
  const cid = toId(commentId, 'comment id');
  session.requireAuth(action === 'del' ? 'users.deleteComment' : 'users.reportComment');
  await session.authedFetch(profileUrl(session, username, action), {
    method: 'POST',
    json: { id: String(cid) },
  });
}
