/**
 * `MessageEvents`: new messages as events, by polling the first page of the message list (the
 * list does not mark messages read, so polling changes nothing for the user).
 *
 * Message ids grow with time, so "new" is "above the highest id seen": each message is emitted
 * once, oldest first. Without `lastSeenId`, the first poll only marks what is there, like
 * `CloudEvents`; with the `lastSeenId` of an earlier poller, the first poll reports what came in
 * between, so a bot that restarts misses nothing and repeats nothing (`lastSeenId` moves past a
 * message only once it was emitted). A failing poll emits `error` and polling goes on. The loop
 * is `http/poll-loop.ts`, shared with `CloudEvents`.
 */

import { TypedEmitter } from '../cloud/typed-emitter.js';
import { PollLoop, type PollRun } from '../http/poll-loop.js';
import type { Message } from '../records/activity-records.js';
import { assertInteger, assertSeconds, MAX_TIMER_SECONDS } from '../records/validate.js';

export interface MessageEventsOptions {
  /** Seconds between two polls (default 10; the list is one request when little happened). */
  interval?: number;
  /** The highest message id already handled (e.g. saved from an earlier poller's `lastSeenId`). */
  lastSeenId?: number;
  /** Messages per poll request (default 20, at most 40). */
  limit?: number;
}

/** The events of {@link MessageEvents}. */
export type MessageEventsMap = {
  /** The first poll is done (and what came since `lastSeenId` was emitted): polling goes on. */
  ready: undefined;
  /** A new message. */
  message: Message;
  /** A poll failed (polling goes on), or more arrived between two polls than it reads. */
  error: Error;
};

/** Reads `limit` messages at `offset`, newest first. */
type MessageReader = (limit: number, offset: number, signal: AbortSignal) => PromiseLike<Message[]>;

/** Pages read in one poll at most, to catch up after a burst. */
const MAX_PAGES = 5;

export class MessageEvents extends TypedEmitter<MessageEventsMap> {
  /** Seconds between polls. */
  readonly interval: number;
  /** Messages per poll request. */
  readonly limit: number;

  readonly #read: MessageReader;
  readonly #loop: PollLoop;
  #lastSeenId: number | null;

  constructor(read: MessageReader, options: MessageEventsOptions = {}) {
    super();
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
      name: 'MessageEvents',
      poll: (run) => this.#poll(run),
      onError: (error) => this.emit('error', error),
      onReady: () => this.emit('ready', undefined),
    });
  }

  /**
   * The id of the newest message handled: marked by the first poll, then moved past each
   * message once its listeners have run (save it to resume later). `null` before the first poll.
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

  /** Stops polling; a poll under way is abandoned, and messages it had not emitted stay unseen. */
  async stop(): Promise<void> {
    this.#loop.stop();
  }

  async #poll(run: PollRun): Promise<true> {
    const fresh = await this.#readNew(run.signal);
    for (const message of fresh) {
      if (!run.live()) break; // a listener stopped us: the rest stays above lastSeenId
      this.emit('message', message);
      // Moved per message, not per batch, so a stop or a crash midway loses nothing.
      this.#lastSeenId = Math.max(this.#lastSeenId ?? 0, message.id);
    }
    return true;
  }

  /** The messages above the last seen id, oldest first; the first poll of a new poller marks the newest. */
  async #readNew(signal: AbortSignal): Promise<Message[]> {
    const seen = this.#lastSeenId;
    const fresh: Message[] = [];
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
        this.emit(
          'error',
          new Error(
            `more than ${this.limit * MAX_PAGES} messages arrived between two polls; older ones were skipped`,
          ),
        );
      }
    }
    // De-duplicated by id: a message that moved to the next page while paging is seen twice.
    const byId = new Map(fresh.map((m) => [m.id, m]));
    return [...byId.values()].sort((a, b) => a.id - b.id);
  }
}
