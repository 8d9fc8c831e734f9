/**
 * Comment writes (WIRE.md §11.4): posting, deleting and reporting comments on projects and
 * studios (`{api}/proxy/…`, JSON) and on profiles (`{site}/site-api/comments/user/<u>/…`, HTML),
 * and the page of a profile's comments. Refusals are HTTP 200 with `rejected` (or the profile
 * page's `error-data`), as on the service.
 */
import type { Comment } from '../../records/records.js';
import type { PostedComment } from '../../records/write-records.js';
import type { SandboxContext } from '../context.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { bytes, isObject, json, parseId, parseJsonBody, readBody } from '../http-utils.js';
import type { Incoming, Router } from '../router.js';
import { type CommentPlace, noteComment } from '../rules/activity-events.js';
import { writer } from '../rules/auth.js';
import type { CommentRefusal } from '../rules/comment-guard.js';
import { canSeeProject } from '../rules/project-visibility.js';
import type { Session } from '../state/sessions.js';
import type { CommentRow, UserRow } from '../state/store.js';
import { profileCommentDiv, profileCommentsPage, profileRefusalHtml } from '../views/profile-comment-html.js';

const COMMENT_BODY_LIMIT = 16 * 1024;
const HTML = 'text/html; charset=utf-8';
/** Top-level comments on one page of a profile, as on the site. */
const PROFILE_PAGE_SIZE = 40;
const MAX_PROFILE_PAGE = 1_000;

/** A comment write's body: `{content, parent_id, commentee_id}`, ids as numbers, digit strings or `""`. */
interface CommentInput {
  content: string;
  parentId: number | null;
  commenteeId: number | null;
}

function optionalId(value: unknown, name: string): number | null {
  if (value === undefined || value === null || value === '') return null;
  const id = typeof value === 'number' ? value : typeof value === 'string' ? parseId(value) : null;
  if (id === null || !Number.isSafeInteger(id) || id <= 0) throw badRequest(`${name} must be an id or ""`);
  return id;
}

async function commentInput(req: Incoming): Promise<CommentInput> {
  const body = parseJsonBody(await readBody(req.raw, COMMENT_BODY_LIMIT));
  if (!isObject(body) || typeof body.content !== 'string') {
    throw badRequest('expected {"content": string, "parent_id": id or "", "commentee_id": id or ""}');
  }
  return {
    content: body.content,
    parentId: optionalId(body.parent_id, 'parent_id'),
    commenteeId: optionalId(body.commentee_id, 'commentee_id'),
  };
}

/** `{"id": "<cid>"}` of a profile comment's delete or report. */
async function profileCommentId(req: Incoming): Promise<number> {
  const body = parseJsonBody(await readBody(req.raw, COMMENT_BODY_LIMIT));
  const id = isObject(body) ? optionalId(body.id, 'id') : null;
  if (id === null) throw badRequest('expected {"id": "<comment id>"}');
  return id;
}

/** The comment answer of a post: the list's object **without `author.username`** (WIRE.md §11.4). */
function posted(comment: Comment): PostedComment {
  const { username: _left, ...author } = comment.author;
  return { ...comment, author };
}

export function commentWriteRoutes(router: Router, ctx: SandboxContext): void {
  const { store, views, sessions, links } = ctx;
  const social = store.social;

  const userOf = (id: number): UserRow => store.users.get(id)!;
  const listOf = (map: Map<number, CommentRow[]>, id: number): CommentRow[] => {
    let list = map.get(id);
    if (!list) {
      list = [];
      map.set(id, list);
    }
    return list;
  };

  /** What a comment write names, and who may run it (moderate its comments). */
  const targetOf = (req: Incoming, place: string, session: Session) => {
    const id = parseId(req.params.id);
    if (place === 'project') {
      const project = id === null ? undefined : store.projects.get(id);
      if (!project || !canSeeProject(project, session.userId)) throw notFound();
      return {
        place: { kind: 'project', projectId: project.id } as CommentPlace,
        list: listOf(store.projectComments, project.id),
        allowed: project.commentsAllowed,
        moderators: [project.ownerId],
      };
    }
    if (place === 'studio') {
      const studio = id === null ? undefined : store.studios.get(id);
      if (!studio) throw notFound();
      return {
        place: { kind: 'studio', studioId: studio.id } as CommentPlace,
        list: listOf(store.studioComments, studio.id),
        allowed: studio.commentsAllowed,
        moderators: studio.managers,
      };
    }
    throw notFound();
  };

  /**
   * Checks and stores a comment; answers the refusal instead when the rules say no. The parent
   * must be a comment of the same place; a reply to a reply joins the top-level thread.
   */
  const post = (
    session: Session,
    input: CommentInput,
    list: CommentRow[],
    allowed: boolean,
    place: CommentPlace,
  ): CommentRow | CommentRefusal => {
    if (!allowed) return { code: 'isDisallowed' };
    let parentId: number | null = null;
    if (input.parentId !== null) {
      const parent = list.find((c) => c.id === input.parentId);
      if (!parent) throw notFound();
      parentId = parent.parentId ?? parent.id;
    }
    if (input.commenteeId !== null && !store.users.has(input.commenteeId)) {
      throw badRequest('commentee_id names no user');
    }
    const refusal = social.guard.check(session.userId, input.content);
    if (refusal) return refusal;
    const row: CommentRow = {
      id: social.nextCommentId(store.projectComments, store.studioComments),
      parentId,
      commenteeId: input.commenteeId,
      authorId: session.userId,
      content: input.content,
      created: new Date().toISOString(),
    };
    list.push(row);
    social.guard.accept(session.userId, input.content);
    noteComment(store, place, row);
    return row;
  };

  const rejection = (refusal: CommentRefusal) =>
    json({
      rejected: refusal.code,
      ...(refusal.muteStatus ? { status: { mute_status: refusal.muteStatus } } : {}),
    });

  /** Removes a comment and, for a top-level one, its replies. */
  const remove = (list: CommentRow[], comment: CommentRow) => {
    for (let i = list.length - 1; i >= 0; i--) {
      const c = list[i]!;
      if (c === comment || c.parentId === comment.id) list.splice(i, 1);
    }
  };

  const commentIn = (list: readonly CommentRow[], text: string | undefined): CommentRow => {
    const cid = parseId(text);
    const comment = list.find((c) => c.id === cid);
    if (!comment) throw notFound();
    return comment;
  };

  // ---- projects and studios ({api}/proxy, JSON) --------------------------------------------------
  for (const place of ['project', 'studio'] as const) {
    router.post(`/api/proxy/comments/${place}/:id`, async (req) => {
      const session = writer(req, sessions, 'required');
      const target = targetOf(req, place, session);
      const input = await commentInput(req);
      const result = post(session, input, target.list, target.allowed, target.place);
      if ('code' in result) return rejection(result);
      return json(posted(views.comment(result, target.list)));
    });

    router.delete(`/api/proxy/comments/${place}/:id/comment/:cid`, (req) => {
      const session = writer(req, sessions, 'required');
      const { list, moderators } = targetOf(req, place, session);
      const comment = commentIn(list, req.params.cid);
      if (comment.authorId !== session.userId && !moderators.includes(session.userId)) {
        throw forbidden('Only the author or whoever runs this page can delete this comment');
      }
      remove(list, comment);
      return json({});
    });

    router.post(`/api/proxy/${place}/:id/comment/:cid/report`, (req) => {
      const session = writer(req, sessions, 'required');
      const { list } = targetOf(req, place, session);
      const comment = commentIn(list, req.params.cid);
      const report = social.report(place, parseId(req.params.id)!, comment.id, session.userId);
      return json({ reportId: report.id });
    });
  }

  // ---- profiles ({site}/site-api, HTML) -------------------------------------------------------------
  const profileOwner = (req: Incoming): UserRow => {
    const owner = store.userByName(req.params.username ?? '');
    if (!owner) throw notFound();
    return owner;
  };

  router.post('/site-api/comments/user/:username/add', async (req) => {
    const session = writer(req, sessions, 'if-present');
    const owner = profileOwner(req);
    const input = await commentInput(req);
    const list = listOf(social.profileComments, owner.id);
    const result = post(session, input, list, true, { kind: 'profile', ownerId: owner.id });
    if ('code' in result) return bytes(profileRefusalHtml(result.code, result.muteStatus), HTML);
    return bytes(`${profileCommentDiv(result, userOf(result.authorId), links)}\n`, HTML);
  });

  router.post('/site-api/comments/user/:username/del', async (req) => {
    const session = writer(req, sessions, 'if-present');
    const owner = profileOwner(req);
    const list = listOf(social.profileComments, owner.id);
    const comment = commentIn(list, String(await profileCommentId(req)));
    if (comment.authorId !== session.userId && owner.id !== session.userId) {
      throw forbidden('Only the author or the profile owner can delete this comment');
    }
    remove(list, comment);
    return bytes('', HTML);
  });

  router.post('/site-api/comments/user/:username/rep', async (req) => {
    const session = writer(req, sessions, 'if-present');
    const owner = profileOwner(req);
    const list = listOf(social.profileComments, owner.id);
    const comment = commentIn(list, String(await profileCommentId(req)));
    social.report('profile', owner.id, comment.id, session.userId);
    return bytes('', HTML);
  });

  router.get('/site-api/comments/user/:username', (req) => {
    const owner = profileOwner(req);
    const pageText = req.query.get('page') ?? '1';
    const pageNumber = /^\d{1,4}$/.test(pageText) ? Number(pageText) : 0;
    if (pageNumber < 1 || pageNumber > MAX_PROFILE_PAGE)
      throw badRequest(`page must be 1..${MAX_PROFILE_PAGE}`);
    const list = social.profileComments.get(owner.id) ?? [];
    const top = store
      .topLevel(list)
      .slice((pageNumber - 1) * PROFILE_PAGE_SIZE, pageNumber * PROFILE_PAGE_SIZE);
    // Past the last page the site answers 404, which clients read as "no more comments".
    if (top.length === 0 && pageNumber > 1) throw notFound();
    return bytes(
      profileCommentsPage(top, (row) => store.repliesTo(list, row.id), userOf, links),
      HTML,
    );
  });
}
