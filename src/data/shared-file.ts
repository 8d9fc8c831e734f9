/**
 * A store file that several processes share. DuckDB lets one process open a file read-write (or
 * many read-only, never both), so a process holds the file only while it works on it: it takes a
 * lock beside the file (`<file>.lock`, shared with the JSON database's lock), opens DuckDB, runs
 * what its own callers queued (for at most {@link HOLD_MS}), closes DuckDB (which checkpoints) and
 * lets go. Others wait their turn, up to the store's `wait`, then fail with an error naming the
 * holder. A holder that still has work gives the file up for a moment before taking it again, so
 * a busy process never keeps the others out. `:memory:` has nobody to share with: it stays open.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { FileLockTimeoutError, withFileLock } from '../databases/file-lock.js';
import type { DuckDB } from './duckdb-module.js';

/** Longest time one process holds the file while its callers have more to do, in ms. */
export const HOLD_MS = 500;
/** How long a holder with more work waits before it takes the file again, in ms (others' turn). */
const YIELD_MS = 15;
/** Pause between two tries to open a file DuckDB reports as locked by a process outside the turns. */
const REOPEN_MS = 25;

interface Task {
  work: (connection: DuckDBConnection) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Thrown when the store file stays held by another process for longer than the store's wait. */
export class StoreBusyError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreBusyError';
  }
}

/** The store's file, held while work runs (see the file's comment). */
export class SharedFile {
  readonly #duck: DuckDB;
  readonly #path: string;
  readonly #waitMs: number;
  readonly #queue: Task[] = [];
  #session: Promise<void> | null = null;
  #closed = false;
  /** The database of `:memory:`, open for the store's life. */
  #memory: { instance: DuckDBInstance; connection: DuckDBConnection } | null = null;

  constructor(duck: DuckDB, path: string, waitMs: number) {
    this.#duck = duck;
    this.#path = path;
    this.#waitMs = waitMs;
  }

  /** The DuckDB module. */
  get duck(): DuckDB {
    return this.#duck;
  }

  /** The database file, or `:memory:`. */
  get path(): string {
    return this.#path;
  }

  /**
   * Runs `work` with the file open, one work at a time in the order asked; `work` must not wait
   * on anything but the database (the file is held meanwhile).
   * @throws StoreBusyError when another process holds the file for longer than the store's wait
   */
  use<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    // Work that comes after close() (a load whose walk was still running) is refused, never run
    // on a file its store has let go of.
    if (this.#closed) return Promise.reject(new Error(`the store ${this.#path} is closed`));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.#pump();
    });
  }

  /** Waits for queued work, then closes the in-memory database (a file is closed after each turn). */
  async close(): Promise<void> {
    this.#closed = true;
    // Between two turns the queue may hold work while no turn runs (the pause that lets others
    // in): start the next turn now rather than answer before that work has run.
    while (this.#session !== null || this.#queue.length > 0) {
      this.#pump();
      await this.#session;
    }
    if (this.#memory) {
      this.#memory.connection.closeSync();
      this.#memory.instance.closeSync();
      this.#memory = null;
    }
  }

  #pump(): void {
    if (this.#session !== null || this.#queue.length === 0) return;
    this.#session = (this.#path === ':memory:' ? this.#runInMemory() : this.#turn()).finally(() => {
      this.#session = null;
      if (this.#queue.length > 0) setTimeout(() => this.#pump(), this.#path === ':memory:' ? 0 : YIELD_MS);
    });
  }

  async #runInMemory(): Promise<void> {
    if (this.#memory === null) {
      const instance = await this.#duck.DuckDBInstance.create(':memory:');
      this.#memory = { instance, connection: await instance.connect() };
    }
    await this.#drain(this.#memory.connection, Number.POSITIVE_INFINITY);
  }

  /** One turn: lock, open, run queued work for up to HOLD_MS, close, unlock. */
  async #turn(): Promise<void> {
    const deadline = Date.now() + this.#waitMs;
    try {
      await withFileLock(this.#path, { timeout: this.#waitMs, who: 'the store' }, async () => {
        const instance = await this.#open(deadline);
        try {
          const connection = await instance.connect();
          try {
            await this.#drain(connection, Date.now() + HOLD_MS);
          } finally {
            connection.closeSync();
          }
        } finally {
          instance.closeSync();
        }
      });
    } catch (error) {
      const reported =
        error instanceof FileLockTimeoutError
          ? new StoreBusyError(
              `${this.#path} stayed busy in another process for ${this.#waitMs / 1000} s (${error.message}); ` +
                'raise the store\'s "wait" option, or stop that process',
              { cause: error },
            )
          : error;
      for (const task of this.#queue.splice(0)) task.reject(reported);
    }
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

  /** Opens the file; a process outside the turns (the DuckDB CLI, an old scratchlab) is waited for too. */
  async #open(deadline: number): Promise<DuckDBInstance> {
    for (;;) {
      try {
        return await this.#duck.DuckDBInstance.create(this.#path);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (!/lock/i.test(message)) throw error;
        if (Date.now() >= deadline) {
          throw new StoreBusyError(
            `${this.#path} is held open by a process that does not take turns (the DuckDB CLI, or a scratchlab older than the shared store) for more than ${this.#waitMs / 1000} s: close it`,
            { cause: error },
          );
        }
        await new Promise((resolve) => setTimeout(resolve, REOPEN_MS));
      }
    }
  }
}
