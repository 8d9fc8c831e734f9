/**
 * `CloudEvents`: a project's cloud activity as events, from one of two sources.
 *
 * - `logs` (the default on the platform): polls the log every `interval` seconds. The first poll
 *   only marks what is already there (no replay of history), then `ready` fires; later polls
 *   report each new entry once, oldest first, with its user and time, even when entries share
 *   a millisecond (see `log-anchor.ts`). A failing poll emits `error` and polling goes on.
 *   Memory stays bounded: between polls only the newest few entries' keys are kept.
 * - `websocket` (the default elsewhere): the connection's own `set` events, with `user` and
 *   `timestamp` null. Values the server sends right after the first handshake are state, not
 *   activity, and are not reported; values that changed during an outage are.
 */

import { PollLoop, type PollRun } from '../http/poll-loop.js';
import type { CloudLogEntry, CloudVerb } from '../records/records.js';
import { assertInteger, assertSeconds, describe, MAX_TIMER_SECONDS } from '../records/validate.js';
import { LOGS_PAGE_SIZE } from './cloud-logs.js';
import { anchorOf, countNew, entryKey } from './log-anchor.js';
import type { CloudSetLike } from './requests/cloud-like.js';
import { TypedEmitter } from './typed-emitter.js';

/**
 * What {@link CloudEvents} reads from a cloud connection; `Cloud` fits it. Structural, so this
 * file does not import `cloud.ts` (which makes a `CloudEvents` in `events()`).
 */
export interface CloudEventsHost {
  /** True on the platform, where the cloud log tells who set a variable. */
  readonly isPlatform: boolean;
  /** Connects if needed; settles when ready. */
  connect(): Promise<void>;
  on(event: 'set', listener: (event: CloudSetLike) => void): unknown;
  off(event: 'set', listener: (event: CloudSetLike) => void): unknown;
  /** The cloud log, newest first; throws where there is none. */
  logs(options: { limit: number; offset?: number }): PromiseLike<readonly CloudLogEntry[]>;
}

/** Where the events come from. */
export type CloudEventsSource = 'logs' | 'websocket';

export interface CloudEventsOptions {
  /** `logs` (default on the platform) or `websocket` (default elsewhere). */
  source?: CloudEventsSource;
  /** Seconds between two polls of the log (default 1). */
  interval?: number;
  /** Log entries per poll request (default and most 100: one request when nothing much happened). */
  limit?: number;
}

/** One change of a variable. `user` and `timestamp` are null from the `websocket` source. */
export interface CloudActivity {
  user: string | null;
  verb: CloudVerb;
  name: string;
  value: string;
  /** Milliseconds since the epoch. */
  timestamp: number | null;
}

/** The events of {@link CloudEvents}. */
export type CloudEventsMap = {
  /** The source is running; activity from now on is reported. */
  ready: undefined;
  set: CloudActivity;
  create: CloudActivity;
  delete: CloudActivity;
  rename: CloudActivity;
  /** A poll failed (polling goes on), or the connection failed. */
  error: Error;
};

/** Pages read in one poll, at most, to catch up after a burst of more than `limit` entries. */
const MAX_PAGES = 10;
/** Reads of a poll when entries keep arriving while it pages. */
const MAX_ATTEMPTS = 3;

export class CloudEvents extends TypedEmitter<CloudEventsMap> {
  readonly source: CloudEventsSource;
  /** Seconds between polls (`logs` source). */
  readonly interval: number;
  /** Entries per poll request (`logs` source). */
  readonly limit: number;

  readonly #cloud: CloudEventsHost;
  readonly #loop: PollLoop;
  /** The newest entries of the last poll (see `log-anchor.ts`); null before the first poll. */
  #anchor: string[] | null = null;
  readonly #onSet = (event: CloudSetLike) => {
    // The first connection's initial values arrive before `ready`: they are state, not activity.
    if (!this.#loop.ready) return;
    this.emit('set', { user: null, verb: 'set', name: event.name, value: event.value, timestamp: null });
  };

  constructor(cloud: CloudEventsHost, options: CloudEventsOptions = {}) {
    super();
    const source = options.source ?? (cloud.isPlatform ? 'logs' : 'websocket');
    if (source !== 'logs' && source !== 'websocket') {
      throw new TypeError(`source must be "logs" or "websocket", got ${describe(source)}`);
    }
    const interval = assertSeconds(options.interval ?? 1, 'interval', 0, MAX_TIMER_SECONDS);
    if (interval === 0) throw new RangeError('interval must be a number of seconds above 0, got 0');
    this.source = source;
    this.interval = interval;
    this.limit =
      options.limit === undefined ? LOGS_PAGE_SIZE : assertInteger(options.limit, 'limit', 1, LOGS_PAGE_SIZE);
    this.#cloud = cloud;
    this.#loop = new PollLoop({
      interval,
      name: 'CloudEvents',
      // The websocket source "polls" once: it connects, and the connection pushes from then on.
      poll: (run) => (this.source === 'websocket' ? this.#connect(run) : this.#pollLogs(run)),
      onError: (error) => this.emit('error', error),
      onReady: () => this.emit('ready', undefined),
    });
  }

  /** True between `start()` and `stop()`. */
  get running(): boolean {
    return this.#loop.running;
  }

  /**
   * Starts the source. Settles when it is running (when `ready` fires): activity from then on is
   * reported. Calling it again while running answers the same promise.
   *
   * - `websocket`: rejects when the connection fails (also emitted as `error`); the events stop.
   * - `logs`: a failing first poll is emitted as `error` and polling goes on; the promise waits
   *   for the first poll that succeeds.
   *
   * Failures after the checks are also emitted as `error`, so a caller that does not await the
   * promise is not hurt by its rejection (it is marked handled). `stop()` before `ready` rejects it.
   * @throws TypeError (as a rejection) when the `logs` source has no logs endpoint (pass `logsHost`)
   */
  start(): Promise<void> {
    if (this.#loop.running) return this.#loop.start();
    if (this.source === 'logs') {
      // A missing endpoint is a mistake to fix, not an outage: reject now, unhandled if ignored.
      try {
        this.#cloud.logs({ limit: 1 });
      } catch (error) {
        return Promise.reject(error);
      }
    } else {
      this.#cloud.on('set', this.#onSet);
    }
    this.#anchor = null;
    return this.#loop.start();
  }

  /**
   * Stops polling or listening; settles once stopped (a poll under way is left to finish
   * unseen). The cloud connection itself stays as it is.
   */
  async stop(): Promise<void> {
    this.#halt();
  }

  /** Stops the source; `start()` rejects with `reason` if it has not settled. */
  #halt(reason?: Error): void {
    this.#loop.stop(reason);
    this.#cloud.off('set', this.#onSet);
  }

  async #connect(run: PollRun): Promise<false> {
    try {
      await this.#cloud.connect();
    } catch (thrown) {
      if (!run.live()) return false;
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      this.#halt(error);
      this.emit('error', error);
    }
    return false;
  }

  /** One poll of the log: the first only marks what is already there (no replay of history). */
  async #pollLogs(run: PollRun): Promise<true> {
    const first = this.#anchor === null;
    const { read, fresh } = await this.#readNew();
    if (!run.live()) return true;
    this.#anchor = anchorOf(read, 2 * this.limit);
    if (first) return true;
    for (const entry of fresh) {
      if (!run.live()) return true; // a listener stopped us
      this.emit(entry.verb, { ...entry });
    }
    return true;
  }

  /**
   * Reads the newest entries until the last poll's anchor shows up, and returns the read (newest
   * first) and the new entries (oldest first). A read of several pages is checked against a
   * second look at the first page, and done again if entries arrived meanwhile (they would have
   * shifted the later pages).
   */
  async #readNew(): Promise<{ read: CloudLogEntry[]; fresh: CloudLogEntry[] }> {
    const anchor = this.#anchor;
    let read: CloudLogEntry[] = [];
    let count: number | null = null;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      read = [];
      count = null;
      let firstPage = '';
      let pages = 0;
      while (pages < MAX_PAGES) {
        const rows = await this.#cloud.logs({ limit: this.limit, offset: pages * this.limit });
        if (pages === 0) firstPage = rows.map(entryKey).join('\n');
        pages++;
        read.push(...rows);
        const complete = rows.length < this.limit;
        if (anchor === null) {
          count = 0; // the first poll: everything is history
          break;
        }
        count = countNew(anchor, read.map(entryKey), complete);
        if (count !== null || complete) break;
      }
      if (pages === 1) break;
      const again = await this.#cloud.logs({ limit: this.limit });
      if (again.map(entryKey).join('\n') === firstPage) break;
    }
    if (count === null) {
      count = read.length;
      this.emit(
        'error',
        new Error(
          `more than ${this.limit * MAX_PAGES} log entries arrived between two polls; older ones were skipped (raise limit or lower interval)`,
        ),
      );
    }
    return { read, fresh: read.slice(0, count).reverse() };
  }
}
