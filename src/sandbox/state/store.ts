/**
 * The sandbox's in-memory state: plain rows, indexed for the routes. Records of the wire shape
 * are built from these rows at answer time (see `views/api-views.ts`), so a write shows everywhere at once.
 */

import { ActivityLog } from './activity-log.js';
import { Backpacks } from './backpacks.js';
import { ClassroomState } from './classrooms.js';
import type { CommentRow } from './comment-row.js';
import { ProfileExtras } from './profile-extras.js';
import type { StatisticsSeed } from './site-statistics.js';
import { SocialState } from './social-state.js';

// Beside the other rows for the routes that read them from here.
export type { CommentRow } from './comment-row.js';

/** A category the explore pages know (a project or studio carries some as hidden tags). */
export type Tag = 'games' | 'animations' | 'art' | 'music' | 'stories' | 'tutorials';
export const TAGS: readonly Tag[] = ['games', 'animations', 'art', 'music', 'stories', 'tutorials'];

export interface UserRow {
  id: number;
  username: string;
  /** The profile's own id (the real service numbers profiles apart from users). */
  profileId: number;
  scratchteam: boolean;
  joined: string;
  status: string;
  bio: string;
  /** `null` for some users, as on the real site (WIRE.md §10). */
  country: string | null;
  /** An scrypt hash (see `passwords.ts`); users without one cannot log in. */
  passwordHash?: string;
}

export interface ProjectRow {
  id: number;
  ownerId: number;
  title: string;
  description: string;
  instructions: string;
  created: string;
  modified: string;
  /** ISO date of sharing; `null` while unshared. */
  shared: string | null;
  commentsAllowed: boolean;
  views: number;
  loves: number;
  favorites: number;
  parent: number | null;
  root: number | null;
  /** Hidden: the language search filters by, and the explore categories. */
  language: string;
  tags: Tag[];
  /** Hidden: loves of the last days and when the project last saw activity (for `trending`). */
  recentLoves: number;
  lastActivity: string;
  /** The project JSON as text, served unchanged. */
  body: string;
}

interface StudioProjectEntry {
  projectId: number;
  /** Who added the project to the studio. */
  actorId: number;
}

export interface StudioRow {
  id: number;
  title: string;
  hostId: number;
  description: string;
  created: string;
  modified: string;
  openToAll: boolean;
  commentsAllowed: boolean;
  followers: number;
  /** Managers, host first. */
  managers: number[];
  /** Curators who are not managers. */
  curators: number[];
  projects: StudioProjectEntry[];
  language: string;
  tags: Tag[];
  recentActivity: number;
  lastActivity: string;
}

export interface NewsRow {
  /** Decimal digits: some ids exceed 2^53, as on the real site (WIRE.md §10), and stay exact. */
  id: string;
  stamp: string;
  headline: string;
  copy: string;
}

interface AssetRow {
  bytes: Uint8Array;
  contentType: string;
}

/** All state of one sandbox. */
export class Store {
  readonly users = new Map<number, UserRow>();
  private readonly usersByName = new Map<string, UserRow>();
  readonly projects = new Map<number, ProjectRow>();
  readonly studios = new Map<number, StudioRow>();
  /** Who each user follows, in the order they followed. */
  readonly following = new Map<number, number[]>();
  /** Followers of each user, newest first. */
  readonly followers = new Map<number, number[]>();
  /** Projects each user has favourited, newest first. */
  readonly favorites = new Map<number, number[]>();
  /** Comments of each project, oldest first (replies mixed in; see `topLevel`). */
  readonly projectComments = new Map<number, CommentRow[]>();
  readonly studioComments = new Map<number, CommentRow[]>();
  /** Assets by lowercase `md5ext`. */
  readonly assets = new Map<string, AssetRow>();
  readonly news: NewsRow[] = [];
  /** Front-page picks of the curators (the rest of the front page is computed). */
  readonly featuredProjectIds: number[] = [];
  readonly featuredStudioIds: number[] = [];
  /** Messages, studio activity and each user's activity (see `activity-log.ts`). */
  readonly activity = new ActivityLog();
  /** The site's statistics as seeded (see `site-statistics.ts`). */
  statistics: StatisticsSeed | null = null;
  /** The reference "now" of the seed data: trending ranks activity relative to this. */
  seedNow = 0;
  /** Loves, studio follows, invitations, profile comments and comment rules (WIRE.md §11.4-11.6). */
  readonly social = new SocialState();
  /** Classrooms, their educators and alerts (WIRE.md §12.2). */
  readonly classrooms = new ClassroomState();
  /** Every user's backpack (WIRE.md §12.3). */
  readonly backpacks = new Backpacks();
  /** Featured projects and uploaded thumbnails (WIRE.md §12.4-12.5). */
  readonly profileExtras = new ProfileExtras();

  addUser(row: UserRow): void {
    const key = row.username.toLowerCase();
    if (this.usersByName.has(key) || this.users.has(row.id))
      throw new Error(`duplicate user ${row.username}`);
    this.users.set(row.id, row);
    this.usersByName.set(key, row);
  }

  /** Finds a user by name, case-insensitively. */
  userByName(name: string): UserRow | undefined {
    return this.usersByName.get(name.toLowerCase());
  }

  addProject(row: ProjectRow): void {
    if (this.projects.has(row.id)) throw new Error(`duplicate project ${row.id}`);
    this.projects.set(row.id, row);
  }

  follow(followerId: number, followeeId: number): void {
    const list = this.following.get(followerId) ?? [];
    if (followerId === followeeId || list.includes(followeeId)) return;
    list.push(followeeId);
    this.following.set(followerId, list);
    const back = this.followers.get(followeeId) ?? [];
    back.unshift(followerId);
    this.followers.set(followeeId, back);
  }

  /** Stops `followerId` following `followeeId` (the inverse of `follow`); false if they did not. */
  unfollow(followerId: number, followeeId: number): boolean {
    const list = this.following.get(followerId);
    const at = list?.indexOf(followeeId) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    const back = this.followers.get(followeeId);
    const from = back?.indexOf(followerId) ?? -1;
    if (back && from >= 0) back.splice(from, 1);
    return true;
  }

  /** Shared projects of a user, newest first. */
  sharedProjectsOf(userId: number): ProjectRow[] {
    return [...this.projects.values()]
      .filter((p) => p.ownerId === userId && p.shared !== null)
      .sort((a, b) => b.id - a.id);
  }

  /** Shared remixes of a project, oldest first. */
  remixesOf(projectId: number): ProjectRow[] {
    return [...this.projects.values()]
      .filter((p) => p.parent === projectId && p.shared !== null)
      .sort((a, b) => a.id - b.id);
  }

  /** Top-level comments, newest first, as the real API lists them. */
  topLevel(comments: readonly CommentRow[]): CommentRow[] {
    return comments.filter((c) => c.parentId === null).sort((a, b) => b.id - a.id);
  }

  /** Replies to one comment, oldest first. */
  repliesTo(comments: readonly CommentRow[], commentId: number): CommentRow[] {
    return comments.filter((c) => c.parentId === commentId).sort((a, b) => a.id - b.id);
  }
}
