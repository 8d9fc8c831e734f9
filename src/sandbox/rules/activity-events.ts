/**
 * What each write of the sandbox leaves behind in messages and activity (WIRE.md §11.1-11.2): a
 * comment lands in the project owner's messages, an added project in the studio's activity, a
 * follow in the followed user's messages and the follower's activity, and so on. Routes call
 * these right after a write succeeds; the seed calls them to write history. `at` is the time in
 * ms since the epoch (default now).
 */
import type { CommentObjectType, MessageDetail } from '../../records/activity-records.js';
import { escapeHtml } from '../../records/html.js';
import type { Actor, UserActivityDetail } from '../state/activity-log.js';
import type { CommentRow, ProjectRow, Store, UserRow } from '../state/store.js';

/** How many characters of a comment its message quotes. */
const FRAGMENT_LENGTH = 100;

const actorOf = (row: UserRow): Actor => ({ id: row.id, username: row.username });

function user(store: Store, id: number): UserRow {
  const row = store.users.get(id);
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

/** The start of a comment, HTML-escaped, as messages quote it. */
function commentFragment(content: string): string {
  return escapeHtml([...content].slice(0, FRAGMENT_LENGTH).join(''));
}

/** Where a comment was posted. */
export type CommentPlace =
  | { kind: 'project'; projectId: number }
  | { kind: 'studio'; studioId: number }
  | { kind: 'profile'; ownerId: number };

/**
 * A comment was posted: the project's owner or the profile's owner gets a message (not for their
 * own comment), and so does the user a reply answers (once, and not themselves).
 */
export function noteComment(store: Store, place: CommentPlace, comment: CommentRow, at?: number): void {
  const author = user(store, comment.authorId);
  let type: CommentObjectType;
  let objId: number;
  let objTitle: string;
  let ownerId: number | null;
  if (place.kind === 'project') {
    const project = store.projects.get(place.projectId);
    if (!project) throw new Error(`no project ${place.projectId}`);
    [type, objId, objTitle, ownerId] = [0, project.id, project.title, project.ownerId];
  } else if (place.kind === 'studio') {
    const studio = store.studios.get(place.studioId);
    if (!studio) throw new Error(`no studio ${place.studioId}`);
    [type, objId, objTitle, ownerId] = [2, studio.id, studio.title, null];
  } else {
    const owner = user(store, place.ownerId);
    [type, objId, objTitle, ownerId] = [1, owner.id, owner.username, owner.id];
  }
  const commentee = comment.commenteeId === null ? undefined : store.users.get(comment.commenteeId);
  const recipients = new Set<number>();
  if (ownerId !== null) recipients.add(ownerId);
  if (commentee) recipients.add(commentee.id);
  recipients.delete(author.id);
  for (const recipient of recipients) {
    store.activity.addMessage(
      recipient,
      actorOf(author),
      {
        type: 'addcomment',
        comment_type: type,
        comment_obj_id: objId,
        comment_obj_title: objTitle,
        comment_id: comment.id,
        comment_fragment: commentFragment(comment.content),
        commentee_username: commentee?.username ?? null,
      },
      at,
    );
  }
}

/**
 * A user reacted to a project (a love, a favorite): its owner gets a message (not for their own
 * project); it shows in the user's activity.
 */
function noteReaction(
  store: Store,
  userId: number,
  projectId: number,
  detailOf: (project: ProjectRow) => MessageDetail & UserActivityDetail,
  at?: number,
): void {
  const project = store.projects.get(projectId);
  if (!project) throw new Error(`no project ${projectId}`);
  const actor = actorOf(user(store, userId));
  const detail = detailOf(project);
  if (project.ownerId !== userId) store.activity.addMessage(project.ownerId, actor, detail, at);
  store.activity.addUserActivity(actor, detail, at);
}

/** A user loved a project (see {@link noteReaction}). */
export function noteLove(store: Store, userId: number, projectId: number, at?: number): void {
  const detail = (p: ProjectRow) => ({ type: 'loveproject', project_id: p.id, title: p.title }) as const;
  noteReaction(store, userId, projectId, detail, at);
}

/** A user favorited a project (see {@link noteReaction}). */
export function noteFavorite(store: Store, userId: number, projectId: number, at?: number): void {
  const detail = (p: ProjectRow) =>
    ({ type: 'favoriteproject', project_id: p.id, project_title: p.title }) as const;
  noteReaction(store, userId, projectId, detail, at);
}

/** A user followed another: the followed one gets a message; it shows in the follower's activity. */
export function noteFollowUser(store: Store, followerId: number, followedId: number, at?: number): void {
  const actor = actorOf(user(store, followerId));
  const followed = user(store, followedId);
  const detail = {
    type: 'followuser',
    followed_user_id: followed.id,
    followed_username: followed.username,
  } as const;
  store.activity.addMessage(followed.id, actor, detail, at);
  store.activity.addUserActivity(actor, detail, at);
}

/** A user followed a studio: it shows in their activity. */
export function noteFollowStudio(store: Store, userId: number, studioId: number, at?: number): void {
  const studio = store.studios.get(studioId);
  if (!studio) throw new Error(`no studio ${studioId}`);
  store.activity.addUserActivity(
    actorOf(user(store, userId)),
    { type: 'followstudio', gallery_id: studio.id, title: studio.title },
    at,
  );
}

/** A project was shared: it shows in its owner's activity. */
export function noteShare(store: Store, projectId: number, at?: number): void {
  const project = store.projects.get(projectId);
  if (!project) throw new Error(`no project ${projectId}`);
  store.activity.addUserActivity(
    actorOf(user(store, project.ownerId)),
    { type: 'shareproject', project_id: project.id, title: project.title },
    at,
  );
}

/**
 * A remix was shared: the parent's owner gets a message; it shows in the remixer's activity.
 * `projectId` is the remix (its `parent` names the parent).
 */
export function noteRemix(store: Store, projectId: number, at?: number): void {
  const remix = store.projects.get(projectId);
  const parent = remix?.parent === null || !remix ? undefined : store.projects.get(remix.parent);
  if (!remix || !parent) throw new Error(`project ${projectId} is not a remix`);
  const actor = actorOf(user(store, remix.ownerId));
  const detail = {
    type: 'remixproject',
    project_id: remix.id,
    title: remix.title,
    parent_id: parent.id,
    parent_title: parent.title,
  } as const;
  if (parent.ownerId !== remix.ownerId) store.activity.addMessage(parent.ownerId, actor, detail, at);
  store.activity.addUserActivity(actor, detail, at);
}

/**
 * A project was added to a studio (`added: true`) or removed from it, by `actorId`: the studio's
 * activity shows it; an addition also shows in the actor's activity.
 */
export function noteStudioProject(
  store: Store,
  studioId: number,
  actorId: number,
  projectId: number,
  added: boolean,
  at?: number,
): void {
  const studio = store.studios.get(studioId);
  const project = store.projects.get(projectId);
  if (!studio || !project) throw new Error(`no studio ${studioId} or project ${projectId}`);
  const actor = actorOf(user(store, actorId));
  store.activity.addStudioActivity(
    studio.id,
    actor,
    {
      type: added ? 'addprojecttostudio' : 'removeprojectstudio',
      project_id: project.id,
      project_title: project.title,
    },
    at,
  );
  if (added) {
    store.activity.addUserActivity(
      actor,
      {
        type: 'addprojecttostudio',
        project_id: project.id,
        title: project.title,
        gallery_id: studio.id,
        gallery_title: studio.title,
      },
      at,
    );
  }
}

/** `actorId` invited `inviteeId` to curate a studio: the invitee gets a message. */
export function noteCuratorInvite(
  store: Store,
  studioId: number,
  actorId: number,
  inviteeId: number,
  at?: number,
): void {
  const studio = store.studios.get(studioId);
  if (!studio) throw new Error(`no studio ${studioId}`);
  store.activity.addMessage(
    user(store, inviteeId).id,
    actorOf(user(store, actorId)),
    { type: 'curatorinvite', gallery_id: studio.id, title: studio.title },
    at,
  );
}

/** A user became a curator (accepted an invite): the studio's activity and the user's show it. */
export function noteBecomeCurator(store: Store, studioId: number, userId: number, at?: number): void {
  const studio = store.studios.get(studioId);
  if (!studio) throw new Error(`no studio ${studioId}`);
  const curator = user(store, userId);
  const actor = actorOf(curator);
  store.activity.addStudioActivity(
    studio.id,
    actor,
    { type: 'becomecurator', username: curator.username },
    at,
  );
  store.activity.addUserActivity(
    actor,
    { type: 'becomecurator', username: curator.username, gallery_id: studio.id, title: studio.title },
    at,
  );
}

/** `actorId` removed curator `userId` (or `userId` left: the same id twice). */
export function noteCuratorRemoved(
  store: Store,
  studioId: number,
  actorId: number,
  userId: number,
  at?: number,
): void {
  if (!store.studios.has(studioId)) throw new Error(`no studio ${studioId}`);
  store.activity.addStudioActivity(
    studioId,
    actorOf(user(store, actorId)),
    { type: 'removecuratorstudio', username: user(store, userId).username },
    at,
  );
}

/**
 * `actorId` made `userId` a manager: the studio's activity shows it, the new manager gets a
 * message, and it shows in the new manager's activity.
 */
export function notePromote(
  store: Store,
  studioId: number,
  actorId: number,
  userId: number,
  at?: number,
): void {
  const studio = store.studios.get(studioId);
  if (!studio) throw new Error(`no studio ${studioId}`);
  const actor = actorOf(user(store, actorId));
  const recipient = user(store, userId);
  store.activity.addStudioActivity(
    studio.id,
    actor,
    { type: 'becomeownerstudio', recipient_username: recipient.username },
    at,
  );
  const detail = {
    type: 'becomeownerstudio',
    gallery_id: studio.id,
    gallery_title: studio.title,
    recipient_id: recipient.id,
    recipient_username: recipient.username,
  } as const;
  store.activity.addMessage(recipient.id, actor, detail, at);
  store.activity.addUserActivity(actorOf(recipient), detail, at);
}

/** `actorId` changed the studio's title, description, thumbnail or openness. */
export function noteStudioUpdated(store: Store, studioId: number, actorId: number, at?: number): void {
  if (!store.studios.has(studioId)) throw new Error(`no studio ${studioId}`);
  store.activity.addStudioActivity(studioId, actorOf(user(store, actorId)), { type: 'updatestudio' }, at);
}
