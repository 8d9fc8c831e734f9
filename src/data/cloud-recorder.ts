/**
 * `CloudRecorder`: a project's cloud activity kept in the store, from two sources merged into one
 * table (default `cloud_activity`):
 *
 * - live `set` events of the WebSocket, stored as they come (`source = 'live'`, the time they
 *   arrived, no user: the wire has none). After a reconnect, a value that differs from the last
 *   stored one changed while the recorder was away (`source = 'resync'`).
 * - the log's entries where the host has a log (`source = 'log'`, with user and time), read back
 *   to the newest stored entry, so a restarted recorder fills what the log still holds of its gap.
 *
 * A log entry and a live row of the same change (same name and value, the live row arriving
 * within a minute of the entry's time) become one row with `source = 'both'`, the log's user
 * and time, and the time it arrived (`received`). Log entries are told apart from stored ones by
 * time and, within the newest stored millisecond, by count, so nothing is stored twice: that
 * newest stored entry is read again in the transaction that stores the new ones. One recorder
 * per project, table and file at a time (see `recorder-claim.ts`): a second fails with a
 * `RecorderBusyError`.
 *
 * Sets wait for their write in a buffer of at most `buffer` sets (those of a write under way
 * included). When the file stays busy for longer than the buffer lasts, the oldest waiting sets
 * are dropped, and counted: `dropped` says how many, and stored + dropped + pending = received.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Cloud, CloudConnectEvent, CloudSetEvent } from '../cloud/cloud.js';
import { LOGS_PAGE_SIZE } from '../cloud/cloud-logs.js';
import { entryKey } from '../cloud/log-anchor.js';
import { TypedEmitter } from '../cloud/typed-emitter.js';
import type { CloudLogEntry } from '../records/records.js';
import { assertInteger, assertSeconds, MAX_TIMER_SECONDS } from '../records/validate.js';
import { claimRecording, type RecorderClaim } from './recorder-claim.js';
import type { SharedFile } from './shared-file.js';
import { checkTableName, quoteName } from './sql-names.js';

/** Options of `store.recordCloud()`. */
export interface RecordCloudOptions {
  /** The table (default `cloud_activity`). */
  table?: string;
  /** Read the host's log too, where it has one (default true). */
  logs?: boolean;
  /** Seconds between two reads of the log (default 2). */
  interval?: number;
  /**
   * Most received sets that wait for their write, those of a write under way included (default
   * 100,000: about 8 minutes at 200 sets a second). Past it the oldest are dropped and counted.
   */
  buffer?: number;
}

/** What a recorder has done so far. */
export interface RecorderCounts {
  /** Rows added to the table. */
  stored: number;
  /** Live events received (those stored and those merged into a log row). */
  live: number;
  /** Log entries stored as rows of their own. */
  fromLog: number;
  /** Live rows and log entries found to be the same change. */
  merged: number;
  /** Reconnects of the WebSocket. */
  reconnects: number;
  /** Failed log reads or writes (each also emitted as `error`). */
  errors: number;
  /** Received sets dropped because the buffer was full while the file stayed busy. */
  dropped: number;
  /** The last value stored. */
  last: { name: string; value: string } | null;
  /** Whether the host's log is read. */
  logs: boolean;
}

/** The events of a {@link CloudRecorder}. */
export type CloudRecorderEvents = {
  /** Rows were stored (the counts after them). */
  update: RecorderCounts;
  /** A log read or a write failed; recording goes on. */
  error: Error;
  /** The recorder stopped; everything it received is stored unless `pending` says otherwise. */
  stopped: undefined;
};

interface LiveRow {
  name: string;
  value: string;
  received: number;
  source: 'live' | 'resync';
}

/** A stored log row a live row may be the same change as. */
interface LogCandidate {
  rowid: bigint;
  name: string;
  value: string;
  timestamp: number;
  used: boolean;
}

/** Pages of the log read at most in one poll (the log is short; this bounds a first read). */
const MAX_LOG_PAGES = 50;
/** The default most live rows waiting for their write (with those of a write under way). */
const DEFAULT_BUFFER = 100_000;
/**
 * Longest a received set waits before its write, in ms: sets are written together, at most this
 * often, so a recorder takes the shared file about once a second however busy the game is, and a
 * query in another process sees a set within about a second (plus its wait for the file).
 */
export const FLUSH_MS = 1000;
/** Longest wait before a failed write is tried again on its own, in ms (it doubles from FLUSH_MS). */
const MAX_RETRY_MS = 8000;
/** How long a live row may arrive before its log entry's time (clock skew), in ms. */
const SKEW_MS = 5_000;
/** How long after its log entry's time a live row may arrive and still be the same change, in ms. */
const LIVE_WINDOW_MS = 60_000;

/**
 * The recorders running on each cloud, and whether the first of them connected it: the last one
 * to stop then disconnects it (not the first: the others would go on recording nothing).
 */
const cloudUsers = new WeakMap<Cloud, { recorders: number; connectedByRecorders: boolean }>();

/** A recorder starts using `cloud` (before it connects it). */
function joinCloud(cloud: Cloud): void {
  let entry = cloudUsers.get(cloud);
  if (entry === undefined || entry.recorders === 0) {
    // A cloud that holds no socket yet is the recorders' own to close; one already connected is the caller's.
    entry = { recorders: 0, connectedByRecorders: cloud.state === 'idle' || cloud.state === 'failed' };
    cloudUsers.set(cloud, entry);
  }
  entry.recorders++;
}

/** A recorder is done with `cloud`: the last one disconnects it if recorders connected it. */
async function leaveCloud(cloud: Cloud): Promise<void> {
  const entry = cloudUsers.get(cloud);
  if (entry === undefined || --entry.recorders > 0 || !entry.connectedByRecorders) return;
  await cloud.disconnect().catch(() => undefined);
}

/** The columns of a recorded table. */
const ACTIVITY_COLUMNS =
  'project VARCHAR, "timestamp" TIMESTAMP, "user" VARCHAR, verb VARCHAR, name VARCHAR, value VARCHAR, source VARCHAR, received TIMESTAMP';

/** A running recording (see the file's comment). */
export class CloudRecorder extends TypedEmitter<CloudRecorderEvents> {
  /** The table it writes. */
  readonly table: string;
  readonly #file: SharedFile;
  readonly #cloud: Cloud;
  readonly #interval: number;
  readonly #wantLogs: boolean;
  readonly #buffer: number;
  /** Rows of the write under way (they count against the buffer too). */
  #inFlight = 0;
  /** Whether sets have been dropped since the last write that succeeded (one error per such run). */
  #dropping = false;
  #claim: RecorderClaim | null = null;
  readonly #counts: RecorderCounts = {
    stored: 0,
    live: 0,
    fromLog: 0,
    merged: 0,
    reconnects: 0,
    errors: 0,
    dropped: 0,
    last: null,
    logs: false,
  };
  /** The last stored value of each variable: a value after a reconnect that differs changed meanwhile. */
  readonly #lastValues = new Map<string, string>();
  #queue: LiveRow[] = [];
  #flushing: Promise<void> | null = null;
  #flushTimer: ReturnType<typeof setTimeout> | null = null;
  #pollTimer: ReturnType<typeof setTimeout> | null = null;
  #polling: Promise<void> | null = null;
  #running = false;
  #stopping: Promise<void> | null = null;
  #starting: Promise<void> | null = null;
  /** Whether this recorder uses the cloud (see `joinCloud`): its stop leaves it. */
  #usesCloud = false;
  /** Consecutive failed writes: the retry waits longer after each. */
  #failedFlushes = 0;

  readonly #onSet = (event: CloudSetEvent) => {
    let source: LiveRow['source'] = 'live';
    if (event.initial) {
      const known = this.#lastValues.get(event.name);
      // Values after a handshake are state: only one that changed since it was stored is activity.
      if (known === undefined || known === event.value) {
        this.#lastValues.set(event.name, event.value);
        return;
      }
      source = 'resync';
    }
    this.#lastValues.set(event.name, event.value);
    this.#counts.live++;
    const row: LiveRow = { name: event.name, value: event.value, received: Date.now(), source };
    if (this.#queue.length + this.#inFlight >= this.#buffer) {
      // The oldest waiting set goes (a write under way keeps its rows); with none waiting, this one.
      if (this.#queue.length > 0) {
        this.#queue.shift();
        this.#queue.push(row);
      }
      this.#counts.dropped++;
      if (!this.#dropping) {
        this.#dropping = true;
        this.#fail(
          new Error(
            `the store stayed busy while ${this.#buffer} cloud sets waited for it: the oldest are being dropped (counted in "dropped")`,
          ),
        );
      }
    } else {
      this.#queue.push(row);
    }
    this.#scheduleFlush(FLUSH_MS);
  };

  readonly #onConnect = (event: CloudConnectEvent) => {
    if (!event.reconnected) return;
    this.#counts.reconnects++;
    this.emit('update', this.counts);
  };

  constructor(file: SharedFile, cloud: Cloud, options: RecordCloudOptions = {}) {
    super();
    if (options === null || typeof options !== 'object')
      throw new TypeError('recordCloud options must be an object');
    if (cloud === null || typeof cloud !== 'object' || typeof (cloud as Cloud).connect !== 'function') {
      throw new TypeError('recordCloud() needs a Cloud (session.cloud(projectId) or Cloud.alternate(…))');
    }
    this.table = checkTableName(options.table ?? 'cloud_activity');
    this.#file = file;
    this.#cloud = cloud;
    this.#interval = assertSeconds(options.interval ?? 2, 'interval', 0, MAX_TIMER_SECONDS);
    if (this.#interval === 0) throw new RangeError('interval must be a number of seconds above 0, got 0');
    this.#wantLogs = options.logs ?? true;
    this.#buffer = assertInteger(options.buffer ?? DEFAULT_BUFFER, 'buffer', 1, 10_000_000);
  }

  /** The counts so far (a copy). */
  get counts(): RecorderCounts {
    return { ...this.#counts, last: this.#counts.last && { ...this.#counts.last } };
  }

  /** Whether it is recording. */
  get running(): boolean {
    return this.#running;
  }

  /** The project it records. */
  get projectId(): string {
    return this.#cloud.projectId;
  }

  /** Sets received and not stored yet (waiting for their write, or for a failed one to be retried). */
  get pending(): number {
    return this.#queue.length + this.#inFlight;
  }

  /** Received sets dropped because the buffer was full while the file stayed busy (never stored). */
  get dropped(): number {
    return this.#counts.dropped;
  }

  /** One line for a status display: `stored 12 · live 10 · log 5 · merged 3 · reconnects 1 · last score=42`. */
  override toString(): string {
    const c = this.#counts;
    const parts = [`stored ${c.stored}`, `live ${c.live}`];
    if (c.logs) parts.push(`log ${c.fromLog}`, `merged ${c.merged}`);
    parts.push(`reconnects ${c.reconnects}`);
    if (c.errors > 0) parts.push(`errors ${c.errors}`);
    if (c.dropped > 0) parts.push(`DROPPED ${c.dropped}`);
    if (c.last)
      parts.push(
        `last ${c.last.name}=${c.last.value.length > 40 ? `${c.last.value.slice(0, 39)}…` : c.last.value}`,
      );
    return parts.join(' · ');
  }

  /**
   * Creates the table, connects, reads the log back to the last stored entry, then keeps
   * recording. A stopped recorder starts again (the gap filled from the log where there is one).
   */
  start(): Promise<void> {
    // Calls while a start runs share it: a second start would poll the log a second time, on a
    // timer stop() does not know.
    this.#starting ??= this.#start().finally(() => {
      this.#starting = null;
    });
    return this.#starting;
  }

  async #start(): Promise<void> {
    if (this.#running) return;
    await this.#stopping;
    this.#stopping = null;
    // An in-memory store is claimed too: two recorders of one project into it would store it twice.
    this.#claim = await claimRecording(this.#file.database, this.table, this.#cloud.projectId);
    try {
      await this.#begin();
    } catch (error) {
      await this.#releaseClaim();
      throw error;
    }
  }

  async #releaseClaim(): Promise<void> {
    const claim = this.#claim;
    this.#claim = null;
    await claim?.release();
  }

  async #begin(): Promise<void> {
    await this.#file.use(async (connection) => {
      await connection.run(`CREATE TABLE IF NOT EXISTS ${quoteName(this.table)} (${ACTIVITY_COLUMNS})`);
      const reader = await connection.runAndReadAll(
        `SELECT name, arg_max(value, "timestamp") FROM ${quoteName(this.table)} WHERE project = $1 GROUP BY name`,
        [this.#cloud.projectId],
      );
      for (const [name, value] of reader.getRows() as [string, string][]) this.#lastValues.set(name, value);
    });
    if (this.#wantLogs) {
      try {
        this.#cloud.logs({ limit: 1 });
        this.#counts.logs = true;
      } catch {
        this.#counts.logs = false; // a host without a log (e.g. the alternate server): live events only
      }
    }
    this.#running = true;
    this.#cloud.on('set', this.#onSet);
    this.#cloud.on('connect', this.#onConnect);
    joinCloud(this.#cloud);
    this.#usesCloud = true;
    try {
      await this.#cloud.connect();
    } catch (error) {
      this.#running = false;
      this.#cloud.off('set', this.#onSet);
      this.#cloud.off('connect', this.#onConnect);
      this.#usesCloud = false;
      await leaveCloud(this.#cloud); // no retries left behind
      throw error;
    }
    await this.#flush();
    if (this.#counts.logs) {
      await this.#poll();
    }
  }

  /** Writes the queue within `ms` (an earlier write already asked for stays as it is). */
  #scheduleFlush(ms: number): void {
    if (this.#flushTimer !== null || !this.#running) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = null;
      void this.#flush();
    }, ms);
  }

  /**
   * Stops recording and settles once everything received is stored, or once a last write failed
   * ({@link CloudRecorder.pending} says how many sets are not stored). The cloud connection is
   * closed if a recorder's start opened it (a cloud that was not connected when `recordCloud`
   * got it, as `store.recordCloud(session.cloud(id))`) and no other recorder still uses it, so
   * nothing keeps the process alive; a cloud that was already connected stays connected (it is
   * the caller's to `disconnect()`).
   */
  stop(): Promise<void> {
    // A stop while a start runs (a store closed meanwhile) stops the recorder once it has started.
    if (this.#starting !== null) return this.#starting.catch(() => undefined).then(() => this.stop());
    if (!this.#running && this.#stopping === null) return Promise.resolve();
    this.#stopping ??= (async () => {
      this.#running = false;
      this.#cloud.off('set', this.#onSet);
      this.#cloud.off('connect', this.#onConnect);
      if (this.#pollTimer !== null) clearTimeout(this.#pollTimer);
      this.#pollTimer = null;
      if (this.#flushTimer !== null) clearTimeout(this.#flushTimer);
      this.#flushTimer = null;
      const closing = this.#usesCloud ? leaveCloud(this.#cloud) : undefined;
      this.#usesCloud = false;
      await this.#polling?.catch(() => undefined);
      // A last write that fails is tried twice more before the recorder reports what it could not store.
      for (let attempt = 0; attempt < 3 && this.#queue.length > 0; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
        await this.#flush();
      }
      await closing;
      await this.#releaseClaim();
      this.emit('stopped', undefined);
    })();
    return this.#stopping;
  }

  #fail(error: Error): void {
    this.#counts.errors++;
    this.emit('error', error);
  }

  /** Writes the queued live rows, one transaction, merging each with a log row of the same change. */
  #flush(): Promise<void> {
    if (this.#flushing)
      return this.#flushing.then(() => (this.#queue.length > 0 ? this.#flush() : undefined));
    if (this.#queue.length === 0) return Promise.resolve();
    if (this.#flushTimer !== null) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    const rows = this.#queue;
    this.#queue = [];
    this.#inFlight = rows.length;
    const project = this.#cloud.projectId;
    const table = quoteName(this.table);
    const { duck } = this.#file;
    const time = (ms: number) => duck.timestampValue(BigInt(ms) * 1000n);
    this.#flushing = this.#file
      .use(async (connection) => {
        // The log rows these live rows may be (one read for the whole write, matched here in order):
        // a write is one scan and point updates, however many rows and however large the table.
        const candidates = this.#counts.logs ? await this.#logCandidates(connection, rows) : [];
        let stored = 0;
        let merged = 0;
        const inserts: LiveRow[] = [];
        await connection.run('BEGIN TRANSACTION');
        try {
          for (const row of rows) {
            if (this.#counts.logs) {
              let rowid: bigint | null = null;
              if (row.source === 'live') {
                const match = candidates.find(
                  (c) =>
                    !c.used &&
                    c.name === row.name &&
                    c.value === row.value &&
                    c.timestamp >= row.received - LIVE_WINDOW_MS &&
                    c.timestamp <= row.received + SKEW_MS,
                );
                if (match) {
                  match.used = true;
                  rowid = match.rowid;
                }
              } else {
                // A value changed while away: the latest log entry of it, however old (rare: reconnects).
                const reader = await connection.runAndReadAll(
                  `SELECT rowid FROM ${table} WHERE project = $1 AND source = 'log' AND verb = 'set'
                   AND name = $2 AND value = $3 AND "timestamp" <= $4 + INTERVAL ${SKEW_MS / 1000} SECOND
                   ORDER BY "timestamp" DESC LIMIT 1`,
                  [project, row.name, row.value, time(row.received)],
                );
                rowid = (reader.getRows()[0]?.[0] as bigint | undefined) ?? null;
              }
              if (rowid !== null) {
                await connection.run(`UPDATE ${table} SET source = 'both', received = $1 WHERE rowid = $2`, [
                  time(row.received),
                  rowid,
                ]);
                merged++;
                continue;
              }
            }
            inserts.push(row);
          }
          if (inserts.length > 0) {
            const appender = await connection.createAppender(this.table);
            for (const row of inserts) {
              appender.appendVarchar(project);
              appender.appendTimestamp(time(row.received));
              appender.appendNull();
              appender.appendVarchar('set');
              appender.appendVarchar(row.name);
              appender.appendVarchar(row.value);
              appender.appendVarchar(row.source);
              appender.appendTimestamp(time(row.received));
              appender.endRow();
            }
            appender.flushSync();
            appender.closeSync();
            stored = inserts.length;
          }
          await connection.run('COMMIT');
        } catch (error) {
          await connection.run('ROLLBACK').catch(() => undefined);
          throw error;
        }
        this.#counts.stored += stored;
        this.#counts.merged += merged;
        const last = rows[rows.length - 1]!;
        this.#counts.last = { name: last.name, value: last.value };
        this.#failedFlushes = 0;
        this.#inFlight = 0;
        this.#dropping = false;
        this.emit('update', this.counts);
      })
      .catch((error: unknown) => {
        // Kept for the next write, in order, ahead of what came meanwhile, and tried again on its own
        // (the buffer counted them all along: nothing is lost here).
        this.#inFlight = 0;
        this.#queue = [...rows, ...this.#queue];
        this.#failedFlushes++;
        this.#fail(error instanceof Error ? error : new Error(String(error)));
        this.#scheduleFlush(Math.min(MAX_RETRY_MS, FLUSH_MS * 2 ** (this.#failedFlushes - 1)));
      })
      .finally(() => {
        this.#flushing = null;
      });
    return this.#flushing;
  }

  /** Unmerged log rows that live rows received between the first and the last of `rows` may be, oldest first. */
  async #logCandidates(connection: DuckDBConnection, rows: readonly LiveRow[]): Promise<LogCandidate[]> {
    const live = rows.filter((row) => row.source === 'live');
    if (live.length === 0) return [];
    const { duck } = this.#file;
    const time = (ms: number) => duck.timestampValue(BigInt(ms) * 1000n);
    const reader = await connection.runAndReadAll(
      `SELECT rowid, name, value, epoch_ms("timestamp") FROM ${quoteName(this.table)}
       WHERE project = $1 AND source = 'log' AND verb = 'set' AND "timestamp" BETWEEN $2 AND $3
       ORDER BY "timestamp"`,
      [
        this.#cloud.projectId,
        time(live[0]!.received - LIVE_WINDOW_MS),
        time(live[live.length - 1]!.received + SKEW_MS),
      ],
    );
    return (reader.getRowsJS() as [bigint, string, string, bigint][]).map(
      ([rowid, name, value, timestamp]) => ({
        rowid,
        name,
        value,
        timestamp: Number(timestamp),
        used: false,
      }),
    );
  }

  /** Reads the log's new entries and stores them; then waits `interval` for the next read. */
  #poll(): Promise<void> {
    this.#polling = this.#readLog()
      .catch((error: unknown) => this.#fail(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        this.#polling = null;
        if (!this.#running) return;
        this.#pollTimer = setTimeout(() => {
          this.#pollTimer = null;
          void this.#poll();
        }, this.#interval * 1000);
      });
    return this.#polling;
  }

  /** The newest stored log time, and how many entries of each kind were stored at that time. */
  async #storedEdge(connection: DuckDBConnection): Promise<StoredEdge> {
    const table = quoteName(this.table);
    const project = this.#cloud.projectId;
    const max = await connection.runAndReadAll(
      `SELECT epoch_ms(max("timestamp")) FROM ${table} WHERE project = $1 AND source IN ('log', 'both')`,
      [project],
    );
    const value = max.getRows()[0]?.[0];
    if (value === null || value === undefined) return { newest: null, atNewest: new Map() };
    const newest = Number(value);
    const rows = await connection.runAndReadAll(
      `SELECT "user", verb, name, value, count(*) FROM ${table}
         WHERE project = $1 AND source IN ('log', 'both') AND "timestamp" = make_timestamp($2::BIGINT * 1000)
         GROUP BY ALL`,
      [project, BigInt(newest)],
    );
    const atNewest = new Map<string, number>();
    for (const [user, verb, name, text, count] of rows.getRows() as [
      string,
      string,
      string,
      string,
      bigint,
    ][]) {
      const key = entryKey({
        user,
        verb: verb as CloudLogEntry['verb'],
        name,
        value: text,
        timestamp: newest,
      });
      atNewest.set(key, Number(count));
    }
    return { newest, atNewest };
  }

  /** The log's entries newer than the stored ones, oldest first. */
  async #newEntries(): Promise<CloudLogEntry[]> {
    const edge = await this.#file.use((connection) => this.#storedEdge(connection));
    const { newest } = edge;
    for (let attempt = 0; attempt < 3; attempt++) {
      const read: CloudLogEntry[] = [];
      let firstPage = '';
      for (let page = 0; page < MAX_LOG_PAGES; page++) {
        const rows = await this.#cloud.logs({ limit: LOGS_PAGE_SIZE, offset: page * LOGS_PAGE_SIZE });
        if (page === 0) firstPage = rows.map(entryKey).join('\n');
        read.push(...rows);
        const passed = newest !== null && rows.length > 0 && rows[rows.length - 1]!.timestamp < newest;
        if (rows.length < LOGS_PAGE_SIZE || passed) break;
      }
      // Entries that arrived while later pages were read shift them: read again if the first changed.
      if (read.length > LOGS_PAGE_SIZE) {
        const again = await this.#cloud.logs({ limit: LOGS_PAGE_SIZE });
        if (again.map(entryKey).join('\n') !== firstPage && attempt < 2) continue;
      }
      // Oldest first, so the entries stored at the newest time are matched before later ones.
      return beyond(read.reverse(), edge);
    }
    return [];
  }

  async #readLog(): Promise<void> {
    const fresh = await this.#newEntries();
    if (fresh.length === 0) return;
    // Live rows still queued must be in the table before log entries look for them.
    await this.#flush();
    const done = await this.#file.use(async (connection) => {
      await connection.run('BEGIN TRANSACTION');
      try {
        // The newest stored entry again, in this transaction: what another write stored since the
        // log was read is not stored twice.
        const entries = beyond(fresh, await this.#storedEdge(connection));
        const stored = entries.length > 0 ? await this.#storeEntries(connection, entries) : null;
        await connection.run('COMMIT');
        return stored;
      } catch (error) {
        await connection.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
    if (done === null) return;
    this.#counts.stored += done.inserted;
    this.#counts.fromLog += done.inserted;
    this.#counts.merged += done.merged;
    if (done.inserted > 0) this.#counts.last ??= done.last;
    this.emit('update', this.counts);
  }

  /**
   * Stores log entries (oldest first) in the caller's transaction: an entry that is the same change
   * as a stored live row updates it, the others are inserted.
   */
  async #storeEntries(
    connection: DuckDBConnection,
    fresh: CloudLogEntry[],
  ): Promise<{ inserted: number; merged: number; last: { name: string; value: string } }> {
    const project = this.#cloud.projectId;
    const table = quoteName(this.table);
    const { duck } = this.#file;
    const time = (ms: number) => duck.timestampValue(BigInt(ms) * 1000n);
    // Live rows not yet matched that could be one of these changes, matched here in order.
    const since = fresh[0]!.timestamp - SKEW_MS;
    const reader = await connection.runAndReadAll(
      `SELECT rowid, name, value, source, epoch_ms(received) FROM ${table}
       WHERE project = $1 AND source IN ('live', 'resync') AND received >= $2 ORDER BY received`,
      [project, time(since)],
    );
    const candidates = (reader.getRowsJS() as [bigint, string, string, string, bigint][]).map(
      ([rowid, name, value, source, received]) => ({
        rowid,
        name,
        value,
        source,
        received: Number(received),
        used: false,
      }),
    );
    const updates: { rowid: bigint; entry: CloudLogEntry }[] = [];
    const inserts: CloudLogEntry[] = [];
    for (const entry of fresh) {
      const match =
        entry.verb === 'set'
          ? candidates.find(
              (row) =>
                !row.used &&
                row.name === entry.name &&
                row.value === entry.value &&
                row.received >= entry.timestamp - SKEW_MS &&
                (row.source === 'resync' || row.received <= entry.timestamp + LIVE_WINDOW_MS),
            )
          : undefined;
      if (match) {
        match.used = true;
        updates.push({ rowid: match.rowid, entry });
      } else {
        inserts.push(entry);
      }
    }
    for (const { rowid, entry } of updates) {
      await connection.run(
        `UPDATE ${table} SET source = 'both', "user" = $1, "timestamp" = $2 WHERE rowid = $3`,
        [entry.user, time(entry.timestamp), rowid],
      );
    }
    if (inserts.length > 0) {
      const appender = await connection.createAppender(this.table);
      for (const entry of inserts) {
        appender.appendVarchar(project);
        appender.appendTimestamp(time(entry.timestamp));
        appender.appendVarchar(entry.user);
        appender.appendVarchar(entry.verb);
        appender.appendVarchar(entry.name);
        appender.appendVarchar(entry.value);
        appender.appendVarchar('log');
        appender.appendNull();
        appender.endRow();
      }
      appender.flushSync();
      appender.closeSync();
    }
    const last = fresh[fresh.length - 1]!;
    return { inserted: inserts.length, merged: updates.length, last: { name: last.name, value: last.value } };
  }
}

/** The newest stored log time, and how many entries of each kind were stored at that time. */
interface StoredEdge {
  newest: number | null;
  atNewest: Map<string, number>;
}

/**
 * The entries of `read` (oldest first) that are not stored yet: newer than the stored edge, or at
 * its time beyond the count stored there (so the entries stored at that time are matched first).
 */
function beyond(read: readonly CloudLogEntry[], { newest, atNewest }: StoredEdge): CloudLogEntry[] {
  const fresh: CloudLogEntry[] = [];
  const seen = new Map(atNewest);
  for (const entry of read) {
    if (newest !== null && entry.timestamp < newest) continue;
    if (newest !== null && entry.timestamp === newest) {
      const key = entryKey(entry);
      const left = seen.get(key) ?? 0;
      if (left > 0) {
        seen.set(key, left - 1);
        continue;
      }
    }
    fresh.push(entry);
  }
  return fresh;
}
