/**
 * `MessageEvents`: new messages as events, by polling the first page of the message list (the
 * list does not mark messages read, so polling changes nothing for the user).
 *
 * Message ids grow with time, so "new" is "above the highest id seen": each message is emitted
 * once, oldest first. Without `lastSeenId`, the first poll only marks what is there, like
 * `CloudEvents`; with the `lastSeenId` of an earlier poller, the first poll reports what came in
 * between, so a bot that restarts misses nothing and repeats nothing. A failing poll emits
 * `error` and polling goes on.
 */

import { TypedEmitter } from '../cloud/typed-emitter.js';
import type { Message } from '../records/activity-records.js';
import { assertInteger, assertSeconds } from '../records/validate.js';

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
export type MessageReader = (limit: number, offset: number, signal: AbortSignal) => PromiseLike<Message[]>;

/** Pages read in one poll at most, to catch up after a burst. */
const MAX_PAGES = 5;

export class MessageEvents extends TypedEmitter<MessageEventsMap> {
  /** Seconds between polls. */
  readonly interval: number;
  /** Messages per poll request. */
  readonly limit: number;

  readonly #read: MessageReader;
  #lastSeenId: number | null;
  #run = 0;
  #abort: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #started: Promise<void> | null = null;
  #settle: { resolve: () => void; reject: (error: Error) => void } | null = null;

  constructor(read: MessageReader, options: MessageEventsOptions = {}) {
    super();
    if (options === null || typeof options !== 'object') throw new TypeError('options must be an object');
    const interval = assertSeconds(options.interval ?? 10, 'interval');
    if (interval === 0) throw new RangeError('interval must be a number of seconds above 0, got 0');
    this.interval = interval;
    this.limit = options.limit === undefined ? 20 : assertInteger(options.limit, 'limit', 1, 40);
    this.#lastSeenId =
      options.lastSeenId === undefined ? null : assertInteger(options.lastSeenId, 'lastSeenId', 0);
    this.#read = read;
  }

  /** The highest message id seen so far (save it to resume later), or `null` before the first poll. */
  get lastSeenId(): number | null {
    return this.#lastSeenId;
  }

  /** True between `start()` and `stop()`. */
  get running(): boolean {
    return this.#started !== null;
  }

  /**
   * Starts polling. Settles once the first poll succeeded (after emitting what came since
   * `lastSeenId`). A failing first poll is emitted as `error` and retried after `interval`.
   * Calling it again while running answers the same promise; `stop()` before then rejects it.
   */
  start(): Promise<void> {
    if (this.#started) return this.#started;
    const run = ++this.#run;
    this.#abort = new AbortController();
    const started = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    started.catch(() => undefined); // outages are `error` events too: an ignored promise must not crash
    this.#started = started;
    void this.#poll(run, this.#abort.signal);
    return started;
  }

  /** Stops polling; a poll under way is abandoned. */
  async stop(): Promise<void> {
    this.#run++;
    this.#started = null;
    this.#abort?.abort(new Error('MessageEvents was stopped'));
    this.#abort = null;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const settle = this.#settle;
    this.#settle = null;
    settle?.reject(new Error('MessageEvents was stopped before it was ready'));
  }

  async #poll(run: number, signal: AbortSignal): Promise<void> {
    try {
      const fresh = await this.#readNew(signal);
      if (run !== this.#run) return;
      for (const message of fresh) {
        if (run !== this.#run) return; // a listener stopped us
        this.emit('message', message);
      }
      const settle = this.#settle;
      if (settle) {
        this.#settle = null;
        settle.resolve();
        this.emit('ready', undefined);
      }
    } catch (error) {
      if (run !== this.#run) return;
      this.emit('error', error instanceof Error ? error : new Error(String(error)));
    }
    if (run !== this.#run) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#poll(run, signal);
    }, this.interval * 1000);
  }

  /** The messages above the last seen id, oldest first; moves the mark. */
  async #readNew(signal: AbortSignal): Promise<Message[]> {
    const seen = this.#lastSeenId;
    const fresh: Message[] = [];
    let highest = seen ?? 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const rows = await this.#read(this.limit, page * this.limit, signal);
      let reachedSeen = rows.length < this.limit;
      for (const row of rows) {
        highest = Math.max(highest, row.id);
        if (seen !== null && row.id > seen) fresh.push(row);
        else reachedSeen = true;
      }
      // The first poll of a new poller marks what is there: one page tells the highest id.
      if (seen === null || reachedSeen) break;
      if (page === MAX_PAGES - 1) {
        this.emit(
          'error',
          new Error(
            `more than ${this.limit * MAX_PAGES} messages arrived between two polls; older ones were skipped`,
          ),
        );
      }
    }
    this.#lastSeenId = highest;
    // De-duplicated by id: a message that moved to the next page while paging is seen twice.
    const byId = new Map(fresh.map((m) => [m.id, m]));
    return [...byId.values()].sort((a, b) => a.id - b.id);
  }
}
