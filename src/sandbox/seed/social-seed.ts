/**
 * Seeds the social state (WIRE.md §11.4-11.6) from the seed's rows.
 */
import type { CommentRow } from '../state/comment-row.js';
import { SocialState } from '../state/social-state.js';
import type { Store } from '../state/store.js';

const HOUR = 3_600_000;

/**
 * Seeds the social state from the seed's rows: people love what they favourited, studio members
 * follow their studios, and the demo profiles carry a few comments (one thread with a reply).
 */
export function seedSocial(store: Store, demoUser: string, otherUser: string, popularUser: string): void {
  const social = store.social;
  for (const [userId, projectIds] of store.favorites) {
    for (const projectId of projectIds) SocialState.setOf(social.lovers, projectId).add(userId);
  }
  for (const studio of store.studios.values()) {
    const followers = SocialState.setOf(social.studioFollowers, studio.id);
    for (const id of [...studio.managers, ...studio.curators]) followers.add(id);
  }
  const demo = store.userByName(demoUser)!;
  const other = store.userByName(otherUser)!;
  const popular = store.userByName(popularUser)!;
  const at = (hoursBefore: number) => new Date(store.seedNow - hoursBefore * HOUR).toISOString();
  const thread: CommentRow = {
    id: social.nextCommentId(store.projectComments, store.studioComments),
    parentId: null,
    commenteeId: null,
    authorId: other.id,
    content: 'Your cloud demo helped me a lot, thanks!',
    created: at(50),
  };
  const reply: CommentRow = {
    id: social.nextCommentId(store.projectComments, store.studioComments),
    parentId: thread.id,
    commenteeId: other.id,
    authorId: demo.id,
    content: 'Glad it helped @other_scratcher!',
    created: at(48),
  };
  const fan: CommentRow = {
    id: social.nextCommentId(store.projectComments, store.studioComments),
    parentId: null,
    commenteeId: null,
    authorId: popular.id,
    content: 'Nice profile & great <projects>!',
    created: at(20),
  };
  social.profileComments.set(demo.id, [thread, reply, fan]);
}
