/**
 * A store file that several processes share. DuckDB lets one process open a file read-write (or
 * many read-only, never both), so a process holds the file only while it works on it: it opens
 * DuckDB, runs what its own callers queued (for at most {@link HOLD_MS}), closes DuckDB (which
 * checkpoints) and lets go. Others wait their turn, each call up to its store's `wait`, then fail
 * with a {@link StoreBusyError} naming the holder and what it is doing. A holder that still has
 * work gives the file up for a moment before taking it again, so a busy process never keeps the
 * others out. `:memory:` has nobody to share with: it stays open.
 *
 * The lock is DuckDB's own open: DuckDB takes the operating system's lock on the file (`fcntl`),
 * which the kernel drops the moment its process dies and never hands over while it lives (a
 * process stopped with Ctrl-Z keeps it until it resumes or dies). Such locks belong to a process,
 * not to an open: two opens of one file in one process would both succeed (and each checkpoint
 * would overwrite the other's writes). So a process opens a file through one {@link FileTurns} per
 * real path and inode (the registry below), whatever its stores and names for it. A waiter tries the open again once Linux's list of locks shows the holder let go
 * (or after a growing pause), and touches `<file>.waiting`, which tells a busy holder to leave a
 * longer gap between its turns (fairness only: never what excludes).
 */
import { readFile, readlink, realpath, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { DuckDB } from './duckdb-module.js';

/** Longest time one process holds the file while its callers have more to do, in ms. */
export const HOLD_MS = 500;
/** How long a holder with more work waits before it takes the file again, in ms (others' turn). */
const YIELD_MS = 15;
/** The gap a holder leaves when another process has just tried to open the file, in ms. */
const YIELD_TO_WAITER_MS = 40;
/** How recent a waiter's touch of `<file>.waiting` must be to count, in ms. */
const WAITER_FRESH_MS = 250;
/** First and longest pause between two tries to open a file another process holds, in ms. */
const FIRST_RETRY_MS = 2;
const MAX_RETRY_MS = 50;
/** How often a waiter looks whether the holder has let go (see `#waitForRelease`), in ms. */
const LOCKS_POLL_MS = 2;

interface Task {
  work: (connection: DuckDBConnection) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** When the call stops waiting for the file (its store's `wait` after it was made). */
  deadline: number;
  waitMs: number;
}

/** The process that holds a store file, as the operating system and `/proc` tell it. */
export interface FileHolder {
  pid: number;
  /** Its command line (shortened), when it may be read. */
  command?: string;
  /** `stopped` (Ctrl-Z, SIGSTOP), `running`, `waiting` (sleeping or on the disk), or unknown. */
  state?: 'stopped' | 'running' | 'waiting';
}

/** Thrown when the store file stays held by another process for longer than the call's wait. */
export class StoreBusyError extends Error {
  /** The process that held the file, when DuckDB named it. */
  readonly holder: FileHolder | undefined;
  constructor(message: string, options?: ErrorOptions & { holder?: FileHolder }) {
    super(message, options);
    this.name = 'StoreBusyError';
    this.holder = options?.holder;
  }
}

/** Reads who holds a file from DuckDB's lock error (`… Conflicting lock is held in /usr/bin/node (PID 9301)`). */
async function holderOf(message: string): Promise<FileHolder | undefined> {
  const pid = /\(PID (\d+)\)/.exec(message)?.[1];
  return pid === undefined ? undefined : processInfo(Number(pid));
}

/**
 * Another process's command line as a message may show it: control characters (a terminal's
 * escape sequences, line breaks) replaced, at most 80 characters. It is that process's to choose.
 */
export function shownCommand(command: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  const plain = command.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return plain.length > 80 ? `${plain.slice(0, 79)}…` : plain;
}

/** A process as `/proc` tells it: its command line (shortened) and state, where they may be read. */
export async function processInfo(pid: number): Promise<FileHolder> {
  const holder: FileHolder = { pid };
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (cmdline !== '') {
    const words = cmdline.split('\0').filter((word) => word !== '');
    holder.command = shownCommand(words.map((word, i) => (i < 2 ? basename(word) : word)).join(' '));
  }
  // The state is the field after the command's name (which is in parentheses and may hold spaces).
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  if (state === 'T' || state === 't') holder.state = 'stopped';
  else if (state === 'R') holder.state = 'running';
  else if (state === 'S' || state === 'D') holder.state = 'waiting';
  return holder;
}

function describeHolder(holder: FileHolder | undefined): string {
  if (holder === undefined) return 'another process';
  const who = `process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}`;
  switch (holder.state) {
    case 'stopped':
      return `${who}, which is stopped (Ctrl-Z or SIGSTOP) and keeps the file until it resumes: \`kill -CONT ${holder.pid}\` (or \`fg\` in its terminal)`;
    case 'running':
      return `${who}, which is running (a long query, load or export holds the file)`;
    case 'waiting':
      return `${who}, which is waiting with the file open (a long query, or a program that keeps it open, such as the DuckDB CLI)`;
    default:
      return who;
  }
}

/** Whether DuckDB failed to open a file because another process holds its lock. */
function isLockConflict(message: string): boolean {
  return /Could not set lock on file|Conflicting lock/i.test(message);
}

/**
 * The real path of a store file (its folder's, with its name, when it does not exist yet, after
 * the links that lead to it: DuckDB creates a dangling link's target): the key of the registry,
 * so that two names of one file share one open.
 */
async function realPathOf(path: string, hops = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const target = hops < 40 ? await readlink(path).catch(() => null) : null;
    if (target !== null) return realPathOf(resolve(dirname(path), target), hops + 1);
    const folder = await realpath(dirname(path)).catch(() => dirname(path));
    return join(folder, basename(path));
  }
}

/**
 * Refuses a path DuckDB cannot keep: it names a file's write-ahead log by cutting the path at a
 * `?` (as a URL's query), after following links, so its log would go elsewhere, or nowhere.
 * `real` is the path once links are followed, when it differs.
 */
export function assertKeepablePath(path: string, real = path): void {
  if (!real.includes('?')) return;
  throw new RangeError(
    `DuckDB cannot keep a store whose path holds "?" (its write-ahead log would go elsewhere): rename ${path}${
      real === path ? '' : ` (which is ${real})`
    }`,
  );
}

/** The device and inode of a file, when it exists: hard links of one file share them, not their real paths. */
async function identityOf(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => undefined);
  return info === undefined ? null : `${info.dev}:${info.ino}`;
}

/** The open of one file in this process, shared by all its stores (see the file's comment). */
class FileTurns {
  readonly duck: DuckDB;
  readonly path: string;
  readonly #key: string;
  readonly #queue: Task[] = [];
  #session: Promise<void> | null = null;
  /** Stores that use it: it leaves the registry when the last one closes. */
  users = 0;
  /** Opened read-only after a read-write open was refused (a file or folder this user may not write). */
  #readOnly = false;
  /** The database of `:memory:`, open for the store's life. */
  #memory: { instance: DuckDBInstance; connection: DuckDBConnection } | null = null;

  constructor(duck: DuckDB, path: string, key: string) {
    this.duck = duck;
    this.path = path;
    this.#key = key;
    this.database = path === ':memory:' ? `in-memory store ${++memories} of process ${process.pid}` : key;
  }

  /** The file's real path (`:memory:` for memory). */
  get key(): string {
    return this.#key;
  }

  /** What tells this database from every other: the file's real path, or which in-memory one. */
  readonly database: string;

  push(task: Task): void {
    this.#queue.push(task);
    this.#pump();
  }

  /** The last user is gone: closes the in-memory database and leaves the registry. */
  release(): void {
    if (--this.users > 0) return;
    if (registry.get(this.#key) === this) registry.delete(this.#key);
    if (this.#memory) {
      this.#memory.connection.closeSync();
      this.#memory.instance.closeSync();
      this.#memory = null;
    }
  }

  #pump(): void {
    if (this.#session !== null || this.#queue.length === 0) return;
    const memory = this.path === ':memory:';
    this.#session = (memory ? this.#runInMemory() : this.#turn())
      .catch((error: unknown) => {
        for (const task of this.#queue.splice(0)) task.reject(error);
        return async () => YIELD_MS;
      })
      .then(async (gap) => {
        this.#session = null;
        if (this.#queue.length > 0) setTimeout(() => this.#pump(), memory ? 0 : await gap());
      });
  }

  async #runInMemory(): Promise<() => Promise<number>> {
    if (this.#memory === null) {
      const instance = await this.duck.DuckDBInstance.create(':memory:');
      this.#memory = { instance, connection: await instance.connect() };
    }
    await this.#drain(this.#memory.connection, Number.POSITIVE_INFINITY);
    return async () => 0;
  }

  /** One turn: open (waiting for other processes), run queued work for up to HOLD_MS, close. Answers the gap to leave. */
  async #turn(): Promise<() => Promise<number>> {
    const instance = await this.#open();
    if (instance !== null) {
      try {
        const connection = await instance.connect();
        try {
          await this.#drain(connection, Date.now() + HOLD_MS);
        } finally {
          connection.closeSync();
        }
      } catch (error) {
        // The connection itself failed: nothing of the queue can run now.
        for (const task of this.#queue.splice(0)) task.reject(error);
      } finally {
        instance.closeSync();
      }
    }
    return () => this.#gap();
  }

  /** A longer gap when another process tried to open the file a moment ago. */
  async #gap(): Promise<number> {
    const info = await stat(`${this.path}.waiting`).catch(() => undefined);
    return info !== undefined && Date.now() - info.mtimeMs < WAITER_FRESH_MS ? YIELD_TO_WAITER_MS : YIELD_MS;
  }

  /**
   * Opens the file, trying again while another process holds it; calls whose wait runs out
   * meanwhile fail with a StoreBusyError. Null when no call is left, or the open failed otherwise
   * (each queued call then fails with DuckDB's error).
   */
  async #open(): Promise<DuckDBInstance | null> {
    let pause = FIRST_RETRY_MS;
    for (;;) {
      try {
        return await this.duck.DuckDBInstance.create(
          this.path,
          this.#readOnly ? { access_mode: 'READ_ONLY' } : undefined,
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!this.#readOnly && /Permission denied|Read-only file system/i.test(message)) {
          // A file (or folder) this user may read but not write: read-only, queries still answer.
          this.#readOnly = true;
          continue;
        }
        if (!isLockConflict(message)) {
          for (const task of this.#queue.splice(0)) task.reject(error);
          return null;
        }
        const now = Date.now();
        if (this.#queue.some((task) => task.deadline <= now)) {
          const holder = await holderOf(message);
          for (const task of this.#queue.filter((t) => t.deadline <= now)) {
            this.#queue.splice(this.#queue.indexOf(task), 1);
            task.reject(
              new StoreBusyError(
                `${this.path} stayed busy for ${task.waitMs / 1000} s: it is held by ${describeHolder(holder)}; ` +
                  'raise the store\'s "wait" option, or let that process finish',
                { cause: error, holder },
              ),
            );
          }
          if (this.#queue.length === 0) return null;
        }
        await this.#touchWaiting();
        const next = Math.min(...this.#queue.map((task) => task.deadline));
        await this.#waitForRelease(Math.min(next, Date.now() + pause * (0.5 + Math.random())));
        pause = Math.min(MAX_RETRY_MS, pause * 1.5);
      }
    }
  }

  /**
   * Waits until `until`, or until the file's lock is gone, whichever comes first. A failed open
   * costs DuckDB a few ms of processor time; Linux's list of locks (`/proc/locks`: its lock on
   * the file's inode) is read in microseconds, so the waiter looks there every 2 ms and opens once
   * the holder let go. Elsewhere (no such list) it just waits.
   */
  async #waitForRelease(until: number): Promise<void> {
    const inode = await stat(this.path).then(
      (info) => ` ${info.ino} `,
      () => null,
    );
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) return;
      await new Promise((done) => setTimeout(done, Math.min(left, LOCKS_POLL_MS)));
      if (inode === null) continue;
      const locks = await readFile('/proc/locks', 'utf8').catch(() => null);
      if (locks === null) continue;
      // Lines like `1: POSIX  ADVISORY  WRITE 29284 fe:00:2163166 0 EOF`: device, then inode.
      const held = locks
        .split('\n')
        .some((line) => line.replace(/ [0-9a-f]+:[0-9a-f]+:(\d+) /, ' $1 ').includes(inode));
      if (!held) return;
    }
  }

  /** Tells the holder a process waits (see the file's comment); a folder this user may not write is left alone. */
  async #touchWaiting(): Promise<void> {
    const file = `${this.path}.waiting`;
    const now = new Date();
    await utimes(file, now, now).catch(() => writeFile(file, '').catch(() => undefined));
  }

  async #drain(connection: DuckDBConnection, until: number): Promise<void> {
    do {
      const task = this.#queue.shift()!;
      try {
        task.resolve(await task.work(connection));
      } catch (error) {
        task.reject(error);
      }
    } while (this.#queue.length > 0 && Date.now() < until);
  }
}

/** In-memory databases made so far (each is its own). */
let memories = 0;

/** The files this process has open, by real path (see the file's comment). */
const registry = new Map<string, FileTurns>();

/**
 * The store's file as one store sees it (see the file's comment): its calls wait up to its own
 * `wait`, and share the file's turns with every other store of this process on the same file.
 */
export class SharedFile {
  readonly #turns: FileTurns;
  readonly #waitMs: number;
  /** This store's calls not settled yet: close() waits for them. */
  readonly #pending = new Set<Promise<unknown>>();
  #closed = false;

  private constructor(turns: FileTurns, waitMs: number) {
    this.#turns = turns;
    this.#waitMs = waitMs;
  }

  /**
   * The file `path` (`:memory:`, or a path resolved once, here: a later `chdir` changes nothing),
   * joined to this process's open of it.
   */
  static async open(duck: DuckDB, path: string, waitMs: number): Promise<SharedFile> {
    if (path === ':memory:') {
      const turns = new FileTurns(duck, path, path);
      turns.users++;
      return new SharedFile(turns, waitMs);
    }
    const absolute = resolve(path);
    const key = await realPathOf(absolute);
    assertKeepablePath(absolute, key);
    // Another name of an open file: a hard link has a real path of its own, but the same inode.
    const identity = await identityOf(key);
    const others = await Promise.all(
      [...registry.values()].map(async (open) => ({ open, identity: await identityOf(open.key) })),
    );
    let turns =
      registry.get(key) ??
      (identity === null ? undefined : others.find((other) => other.identity === identity)?.open);
    if (turns === undefined) {
      turns = new FileTurns(duck, absolute, key);
      registry.set(key, turns);
    }
    turns.users++;
    return new SharedFile(turns, waitMs);
  }

  /** The DuckDB module. */
  get duck(): DuckDB {
    return this.#turns.duck;
  }

  /** The database file (absolute), or `:memory:`. */
  get path(): string {
    return this.#turns.path;
  }

  /** The file's real path (links resolved), or `:memory:`. */
  get realPath(): string {
    return this.#turns.key;
  }

  /** The file's real path, or which in-memory database (`in-memory store 2 of process 4711`). */
  get database(): string {
    return this.#turns.database;
  }

  /**
   * Runs `work` with the file open, one work at a time in the order asked; `work` must not wait
   * on anything but the database (the file is held meanwhile).
   * @throws StoreBusyError when another process holds the file for longer than the store's wait
   */
  use<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    // Work that comes after close() (a load whose walk was still running) is refused, never run
    // on a file its store has let go of.
    if (this.#closed) return Promise.reject(new Error(`the store ${this.path} is closed`));
    const done = new Promise<T>((resolve, reject) => {
      this.#turns.push({
        work,
        resolve: resolve as (value: unknown) => void,
        reject,
        deadline: Date.now() + this.#waitMs,
        waitMs: this.#waitMs,
      });
    });
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.#pending.add(settled);
    void settled.then(() => this.#pending.delete(settled));
    return done;
  }

  /** Waits for this store's queued work, then lets go of the file (the last store of it closes `:memory:`). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    while (this.#pending.size > 0) await Promise.all(this.#pending);
    this.#turns.release();
  }
}
