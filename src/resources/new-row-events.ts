/**
 * New rows of a list that lists its newest first (the message inbox, a project's or a studio's
 * comments) as events, by polling the list's first page (reading changes nothing for anyone).
 *
 * Ids grow with time, so "new" is "above the highest id seen": each row is emitted once, oldest
 * first. Without `lastSeenId`, the first poll only marks what is there, like `CloudEvents`; with
 * the `lastSeenId` of an earlier poller, the first poll reports what came in between, so a bot
 * that restarts misses nothing and repeats nothing (`lastSeenId` moves past a row only once it
 * was emitted). A failing poll emits `error` and polling goes on. The loop is
 * `http/poll-loop.ts`, shared with `CloudEvents`. `MessageEvents` and `CommentEvents` are this
 * poller with their event's name.
 */

import { TypedEmitter } from '../cloud/typed-emitter.js';
import { PollLoop, type PollRun } from '../http/poll-loop.js';
import type { Message } from '../records/activity-records.js';
import type { Comment } from '../records/records.js';
import { assertInteger, assertSeconds, MAX_TIMER_SECONDS } from '../records/validate.js';

export interface NewRowEventsOptions {
  /** Seconds between two polls (default 10; the list is one request when little happened). */
  interval?: number;
  /** The highest id already handled (e.g. saved from an earlier poller's `lastSeenId`). */
  lastSeenId?: number;
  /** Rows per poll request (default 20, at most 40). */
  limit?: number;
}

/** The options of `messages.events`. */
export type MessageEventsOptions = NewRowEventsOptions;
/** The options of a comment watcher (`projects.commentEvents` and the like). */
export type CommentEventsOptions = NewRowEventsOptions;

/** The events of a poller whose new rows are the event `K`. */
export type NewRowEventsMap<K extends string, T> = {
  /** The first poll is done (and what came since `lastSeenId` was emitted): polling goes on. */
  ready: undefined;
  /** A poll failed (polling goes on), or more arrived between two polls than it reads. */
  error: Error;
} & { [P in K]: T };

/** The events of {@link MessageEvents}: `message` for each new message. */
export type MessageEventsMap = NewRowEventsMap<'message', Message>;
/** The events of {@link CommentEvents}: `comment` for each new top-level comment. */
export type CommentEventsMap = NewRowEventsMap<'comment', Comment>;

/** Reads `limit` rows at `offset`, newest first. */
type RowReader<T> = (limit: number, offset: number, signal: AbortSignal) => PromiseLike<T[]>;

/** Pages read in one poll at most, to catch up after a burst. */
const MAX_PAGES = 5;

export class NewRowEvents<K extends string, T extends { id: number }> extends TypedEmitter<
  NewRowEventsMap<K, T>
> {
  /** Seconds between polls. */
  readonly interval: number;
  /** Rows per poll request. */
  readonly limit: number;

  readonly #event: K;
  readonly #noun: string;
  readonly #read: RowReader<T>;
  readonly #loop: PollLoop;
  #lastSeenId: number | null;

  /**
   * @param event the event each new row is emitted as
   * @param noun what the rows are, in errors ("messages")
   * @param name the poller's name, in the loop's errors
   */
  constructor(event: K, noun: string, name: string, read: RowReader<T>, options: NewRowEventsOptions = {}) {
    super();
    this.#event = event;
    this.#noun = noun;
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const interval = assertSeconds(options.interval ?? 10, 'interval', 0, MAX_TIMER_SECONDS);
    if (interval === 0) throw new RangeError('interval must be a number of seconds above 0, got 0');
    this.interval = interval;
    this.limit = options.limit === undefined ? 20 : assertInteger(options.limit, 'limit', 1, 40);
    this.#lastSeenId =
      options.lastSeenId === undefined ? null : assertInteger(options.lastSeenId, 'lastSeenId', 0);
    this.#read = read;
    this.#loop = new PollLoop({
      interval,
      name,
      poll: (run) => this.#poll(run),
      onError: (error) => this.#error(error),
      onReady: () => this.emit('ready', undefined as NewRowEventsMap<K, T>['ready']),
    });
  }

  /**
   * The id of the newest row handled: marked by the first poll, then moved past each row once
   * its listeners have run (save it to resume later). `null` before the first poll.
   */
  get lastSeenId(): number | null {
    return this.#lastSeenId;
  }

  /** True between `start()` and `stop()`. */
  get running(): boolean {
    return this.#loop.running;
  }

  /**
   * Starts polling. Settles once the first poll succeeded (after emitting what came since
   * `lastSeenId`). A failing first poll is emitted as `error` and retried after `interval`.
   * Calling it again while running answers the same promise; `stop()` before then rejects it.
   */
  start(): Promise<void> {
    return this.#loop.start();
  }

  /** Stops polling; a poll under way is abandoned, and rows it had not emitted stay unseen. */
  async stop(): Promise<void> {
    this.#loop.stop();
  }

  /** Emits `error` (typed loosely: `K` may not be named `error`, which TypeScript cannot see). */
  #error(error: Error): void {
    this.emit('error', error as NewRowEventsMap<K, T>['error']);
  }

  async #poll(run: PollRun): Promise<true> {
    const fresh = await this.#readNew(run.signal);
    for (const row of fresh) {
      if (!run.live()) break; // a listener stopped us: the rest stays above lastSeenId
      this.emit(this.#event, row as NewRowEventsMap<K, T>[K]);
      // Moved per row, not per batch, so a stop or a crash midway loses nothing.
      this.#lastSeenId = Math.max(this.#lastSeenId ?? 0, row.id);
    }
    return true;
  }

  /** The rows above the last seen id, oldest first; the first poll of a new poller marks the newest. */
  async #readNew(signal: AbortSignal): Promise<T[]> {
    const seen = this.#lastSeenId;
    const fresh: T[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const rows = await this.#read(this.limit, page * this.limit, signal);
      if (seen === null) {
        // One page tells the highest id; nothing before it is news.
        this.#lastSeenId = rows.reduce((highest, row) => Math.max(highest, row.id), 0);
        return [];
      }
      let reachedSeen = rows.length < this.limit;
      for (const row of rows) {
        if (row.id > seen) fresh.push(row);
        else reachedSeen = true;
      }
      if (reachedSeen) break;
      if (page === MAX_PAGES - 1) {
        this.#error(
          new Error(
            `more than ${this.limit * MAX_PAGES} ${this.#noun} arrived between two polls; older ones were skipped`,
          ),
        );
      }
    }
    // De-duplicated by id: a row that moved to the next page while paging is seen twice.
    const byId = new Map(fresh.map((m) => [m.id, m]));
    return [...byId.values()].sort((a, b) => a.id - b.id);
  }
}

/** New messages of the inbox as `message` events (`session.messages.events()`). */
export class MessageEvents extends NewRowEvents<'message', Message> {
  constructor(read: RowReader<Message>, options: MessageEventsOptions = {}) {
    super('message', 'messages', 'MessageEvents', read, options);
  }
}

/**
 * New top-level comments of a project, a studio or a profile as `comment` events
 * (`projects.commentEvents(id)`, `studios.commentEvents(id)`, `users.commentEvents(name)`). Replies
 * are not top-level: a reply to an old comment is not seen.
 */
export class CommentEvents<C extends { id: number } = Comment> extends NewRowEvents<'comment', C> {
  constructor(read: RowReader<C>, options: CommentEventsOptions = {}) {
    super('comment', 'comments', 'CommentEvents', read, options);
  }
}
