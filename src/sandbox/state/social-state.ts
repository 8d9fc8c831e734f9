/**
 * The sandbox state behind the writes of WIRE.md §11.4-11.6 that the seed's rows do not hold:
 * who loves what, who follows which studio, who is invited to curate, profile comments, reports
 * and the comment rules (flood, spam, mutes). Counts stay on the rows (`ProjectRow.loves`,
 * `StudioRow.followers`), so every read shows a write at once.
 */
import { CommentGuard } from '../rules/comment-guard.js';
import type { CommentRow } from './comment-row.js';

/** A report of a comment, kept for the record (the sandbox has no moderators). */
interface ReportRow {
  id: number;
  place: 'project' | 'studio' | 'profile';
  targetId: number;
  commentId: number;
  reporterId: number;
  created: string;
}

const MAX_REPORTS = 10_000;

export class SocialState {
  /** Users who love each project; the count is `ProjectRow.loves` (most lovers are not named). */
  readonly lovers = new Map<number, Set<number>>();
  /** Users who follow each studio; the count is `StudioRow.followers`. */
  readonly studioFollowers = new Map<number, Set<number>>();
  /** Users invited to curate each studio, not yet accepted. */
  readonly invited = new Map<number, Set<number>>();
  /** Comments on each user's profile, oldest first (replies mixed in, as for projects). */
  readonly profileComments = new Map<number, CommentRow[]>();
  /** Reports, oldest first, at most 10,000. */
  readonly reports: ReportRow[] = [];
  /** Flood, spam and mute rules of comments (`startSandbox` sets it up with its options). */
  guard = new CommentGuard();
  #lastCommentId = 0;
  #lastReportId = 5_000_000;

  /** Members of a set in a map of sets, the set made on first use. */
  static setOf<K>(map: Map<K, Set<number>>, key: K): Set<number> {
    let set = map.get(key);
    if (!set) {
      set = new Set();
      map.set(key, set);
    }
    return set;
  }

  /**
   * A new comment id, above every id in use (ids grow with time, as on the service): the ids of
   * `others` (the project and studio comments) are read on first use.
   */
  nextCommentId(...others: ReadonlyMap<number, readonly CommentRow[]>[]): number {
    if (this.#lastCommentId === 0) {
      for (const lists of [...others, this.profileComments]) {
        for (const list of lists.values()) {
          for (const c of list) this.#lastCommentId = Math.max(this.#lastCommentId, c.id);
        }
      }
    }
    this.#lastCommentId += 1 + (this.#lastCommentId % 7);
    return this.#lastCommentId;
  }

  report(place: ReportRow['place'], targetId: number, commentId: number, reporterId: number): ReportRow {
    const row: ReportRow = {
      id: ++this.#lastReportId,
      place,
      targetId,
      commentId,
      reporterId,
      created: new Date().toISOString(),
    };
    this.reports.push(row);
    if (this.reports.length > MAX_REPORTS) this.reports.shift();
    return row;
  }
}
