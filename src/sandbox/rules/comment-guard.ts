/**
 * The sandbox's comment rules (WIRE.md §11.4): what makes the service refuse a comment with
 * `rejected`, and the mutes that follow a bad one. The real thresholds are not public; these are
 * the sandbox's (inferred), documented in the README:
 * - `isMuted` while a mute runs; `isEmpty`; `isTooLong` past 500 characters;
 * - `isBad` for a word of a small list, which also mutes the account: 5 minutes the first time,
 *   then 10, 60 and 1,440 (a day), as the service escalates;
 * - `hasChatSite` for a link to a chat site; `isSpam` for the same text as the last two comments;
 * - `isFlood` once `floodMax` comments were accepted within `floodWindowMs` (default 5 per minute).
 * Memory is bounded: per user, the last `floodMax` times, two texts and ten offenses.
 */
import type { CommentRejectionCode, MuteOffense, MuteStatus } from '../../records/write-records.js';
import { hasChatSite, isInappropriate } from './moderation.js';

const MAX_COMMENT_CHARS = 500;
/** Minutes of the first, second, third… mute; past the list, the last one. */
const MUTE_MINUTES = [5, 10, 60, 1_440];
const MAX_OFFENSES = 10;
const SPAM_REPEATS = 2;

interface CommentGuardOptions {
  /** Comments accepted within the window before `isFlood`; default 5. */
  floodMax?: number;
  /** The flood window in milliseconds; default 60,000. */
  floodWindowMs?: number;
  /** The clock, in milliseconds; default `Date.now` (tests pass their own). */
  now?: () => number;
}

/** A refusal: the code and, for mutes, the status the answer carries. */
export interface CommentRefusal {
  code: CommentRejectionCode;
  muteStatus?: MuteStatus;
}

interface UserTrack {
  accepted: number[];
  texts: string[];
  offenses: MuteOffense[];
}

export class CommentGuard {
  readonly #users = new Map<number, UserTrack>();
  readonly #floodMax: number;
  readonly #floodWindowMs: number;
  readonly #now: () => number;

  constructor(options: CommentGuardOptions = {}) {
    const { floodMax = 5, floodWindowMs = 60_000, now = Date.now } = options;
    if (!Number.isSafeInteger(floodMax) || floodMax < 1) {
      throw new RangeError(`floodMax must be an integer >= 1, got ${floodMax}`);
    }
    if (!Number.isFinite(floodWindowMs) || floodWindowMs <= 0) {
      throw new RangeError(`floodWindowMs must be a number of milliseconds > 0, got ${floodWindowMs}`);
    }
    this.#floodMax = floodMax;
    this.#floodWindowMs = floodWindowMs;
    this.#now = now;
  }

  #track(userId: number): UserTrack {
    let track = this.#users.get(userId);
    if (!track) {
      track = { accepted: [], texts: [], offenses: [] };
      this.#users.set(userId, track);
    }
    return track;
  }

  /** When the user's current mute ends (ms), or `undefined` when not muted. */
  mutedUntil(userId: number): number | undefined {
    const last = this.#users.get(userId)?.offenses.at(-1);
    const until = last ? last.expiresAt * 1000 : 0;
    return until > this.#now() ? until : undefined;
  }

  /** The user's `mute_status` as the service shows it; `{}` for an account never muted. */
  muteStatus(userId: number): MuteStatus {
    const offenses = this.#users.get(userId)?.offenses ?? [];
    if (offenses.length === 0) return {};
    const until = this.mutedUntil(userId);
    return {
      offenses: offenses.map((o) => ({ ...o })),
      showWarning: until !== undefined,
      muteExpiresAt: until === undefined ? 0 : Math.floor(until / 1000),
      currentMessageType: until === undefined ? null : offenses.at(-1)!.messageType,
    };
  }

  /** Mutes the user for the next step of the escalation (a bad comment). */
  mute(userId: number, messageType = 'general'): void {
    const track = this.#track(userId);
    const minutes = MUTE_MINUTES[Math.min(track.offenses.length, MUTE_MINUTES.length - 1)]!;
    const now = Math.floor(this.#now() / 1000);
    track.offenses.push({ createdAt: now, expiresAt: now + minutes * 60, messageType });
    if (track.offenses.length > MAX_OFFENSES) track.offenses.shift();
  }

  /**
   * Why this comment must be refused, or `undefined` when it may be posted. A bad comment mutes
   * its author as it is refused.
   */
  check(userId: number, content: string): CommentRefusal | undefined {
    if (this.mutedUntil(userId) !== undefined)
      return { code: 'isMuted', muteStatus: this.muteStatus(userId) };
    if (content.trim() === '') return { code: 'isEmpty' };
    if (content.length > MAX_COMMENT_CHARS) return { code: 'isTooLong' };
    if (isInappropriate(content)) {
      this.mute(userId);
      return { code: 'isBad', muteStatus: this.muteStatus(userId) };
    }
    if (hasChatSite(content)) return { code: 'hasChatSite' };
    const track = this.#users.get(userId);
    if (track && track.texts.length >= SPAM_REPEATS && track.texts.every((t) => t === content)) {
      return { code: 'isSpam' };
    }
    const since = this.#now() - this.#floodWindowMs;
    if (track && track.accepted.filter((t) => t > since).length >= this.#floodMax) return { code: 'isFlood' };
    return undefined;
  }

  /** Records a comment that was posted (for the flood and spam rules). */
  accept(userId: number, content: string): void {
    const track = this.#track(userId);
    track.accepted.push(this.#now());
    if (track.accepted.length > this.#floodMax) track.accepted.shift();
    track.texts.push(content);
    if (track.texts.length > SPAM_REPEATS) track.texts.shift();
  }
}
