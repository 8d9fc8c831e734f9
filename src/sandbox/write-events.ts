/**
 * What the writes of WIRE.md §11.4-11.6 leave behind besides their own rows: the messages their
 * targets receive and the rows of studio activity. Every write route reports here, so the
 * messages and activity model is fed from one place.
 */
import type { SandboxContext } from './context.js';
import type { CommentRow, ProjectRow, StudioRow, UserRow } from './store.js';

/** Where a comment was posted. */
export type CommentTarget =
  | { place: 'project'; project: ProjectRow }
  | { place: 'studio'; studio: StudioRow }
  | { place: 'profile'; owner: UserRow };

/** The studio activity kinds the writes cause (WIRE.md §11.2, S1's names). */
export type StudioEvent =
  | { type: 'addprojecttostudio' | 'removeprojectstudio'; project: ProjectRow }
  | { type: 'becomecurator' | 'removecuratorstudio'; user: UserRow }
  | { type: 'becomeownerstudio'; user: UserRow }
  | { type: 'updatestudio' };

export class WriteEvents {
  constructor(private readonly ctx: SandboxContext) {}

  /** A comment was posted. */
  commentPosted(_actor: UserRow, _target: CommentTarget, _comment: CommentRow): void {}

  loved(_actor: UserRow, _project: ProjectRow): void {}

  favorited(_actor: UserRow, _project: ProjectRow): void {}

  followedUser(_actor: UserRow, _followee: UserRow): void {}

  followedStudio(_actor: UserRow, _studio: StudioRow): void {}

  curatorInvited(_actor: UserRow, _studio: StudioRow, _invitee: UserRow): void {}

  /** Something happened in a studio: its activity gains a row, and it counts as recent activity. */
  studio(_actor: UserRow, studio: StudioRow, _event: StudioEvent): void {
    const now = new Date().toISOString();
    studio.lastActivity = now;
    studio.recentActivity += 1;
    void this.ctx;
  }
}
