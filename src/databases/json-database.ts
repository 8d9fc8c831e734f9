import { open, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, resolve } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { parseJson } from '../records/json.js';
import type { Database } from './database.js';
import { withFileLock } from './file-lock.js';
import { checkKey, checkName, sortedKeys, toStoredValue } from './validation.js';

/** Options of {@link JsonDatabase}. */
export interface JsonDatabaseOptions {
  /** The JSON file. It need not exist yet; its directory must. */
  path: string;
  /** The name served to projects (default: the file's base name without its extension). */
  name?: string;
  /**
   * How long a write waits for another writer's lock on the file, in ms (default 10 000).
   * Past it the write rejects with an error naming the holder (pid and host).
   */
  lockTimeout?: number;
}

const DEFAULT_LOCK_TIMEOUT = 10_000;

/**
 * A database kept in one JSON file holding an object of string values, `{ "key": "value" }`.
 *
 * - The file is read on first use. A missing file is an empty database; a file that is not a
 *   JSON object of strings is refused with an error on every call and never overwritten.
 * - Each `set` rewrites the whole file atomically: a temporary file in the same directory is
 *   written and synced, renamed over the old one, then the directory is synced. Whenever the
 *   process dies, the file holds either the state before a write or the state after it. (A
 *   process killed mid-write may leave a `.NAME.*.tmp` file behind; it is safe to delete.)
 * - Writes run one at a time, in call order. A write that fails rejects its own promise and
 *   leaves the database as it was; later writes go on from there. (One exception: when the
 *   directory cannot be synced after the rename, the new state stays in place and the promise
 *   rejects saying it may not survive a power loss.)
 * - `get` and `keys` see the file's current state: a `set` is visible once its promise
 *   resolves, here and in any other process or instance using the file. If the file vanishes,
 *   the last state this instance knew stands (and is written back at the next `set`).
 * - An existing file keeps its permission bits; a new one gets the usual `0666 & ~umask`.
 * - Several writers may share a file (processes, or instances in one process): each write
 *   takes an exclusive lock (`<file>.lock`, via proper-lockfile), reads the file afresh and
 *   writes it back, so no acknowledged write is lost. A writer waits up to `lockTimeout` for
 *   the lock, then fails naming the holder. A lock left by a crashed process on this machine is
 *   taken over at once; one from another machine after 10 s without refresh.
 */
export class JsonDatabase implements Database {
  /** The name served to projects. */
  readonly name: string;
  /** The file, as an absolute path. */
  readonly path: string;
  #data: Map<string, string> | undefined;
  /** Identity of the file version `#data` came from (inode, size, mtime), or 'none'. */
  #version: string | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #lockTimeout: number;

  /**
   * @throws TypeError or RangeError for a missing path or a malformed name.
   */
  constructor(options: JsonDatabaseOptions) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError('JsonDatabase: options must be an object like { path, name }');
    }
    const { path } = options;
    if (typeof path !== 'string' || path.length === 0) {
      throw new TypeError('JsonDatabase: path must be a non-empty string');
    }
    this.path = resolve(path);
    const name = options.name ?? basename(this.path, extname(this.path));
    checkName(name, 'JsonDatabase');
    this.name = name;
    const timeout = options.lockTimeout ?? DEFAULT_LOCK_TIMEOUT;
    if (!Number.isSafeInteger(timeout) || timeout < 0)
      throw new RangeError('JsonDatabase: lockTimeout must be a whole number of ms, 0 or more');
    this.#lockTimeout = timeout;
  }

  /** The value under `key`, or `undefined`. */
  async get(key: string): Promise<string | undefined> {
    checkKey(key, 'JsonDatabase.get');
    return (await this.#load()).get(key);
  }

  /** Stores `value` (a number is stored as its string) under `key`, durably. */
  async set(key: string, value: string | number): Promise<void> {
    checkKey(key, 'JsonDatabase.set');
    const stored = toStoredValue(value, 'JsonDatabase.set');
    const write = this.#queue.then(() => this.#write(key, stored));
    // The queue goes on after a failure; the failure belongs to this call's promise only.
    this.#queue = write.catch(() => undefined);
    return write;
  }

  /** Every key, sorted. */
  async keys(): Promise<string[]> {
    return sortedKeys((await this.#load()).keys());
  }

  /**
   * The file's current state, read again only when the file has changed since last time (or
   * always, with `fresh`: a write must not trust a version that a reused inode could fake).
   */
  async #load(fresh = false): Promise<Map<string, string>> {
    const version = await fileVersion(this.path);
    const known = this.#data !== undefined && (version === 'none' || (version === this.#version && !fresh));
    if (known) return this.#data!;
    const data = version === 'none' ? new Map<string, string>() : await readState(this.path);
    this.#data = data;
    this.#version = version;
    return data;
  }

  async #write(key: string, value: string): Promise<void> {
    await withFileLock(this.path, { timeout: this.#lockTimeout, who: 'JsonDatabase' }, async () => {
      // Under the lock, the file is the truth: another writer may have changed it.
      const current = await this.#load(true);
      if (current.get(key) === value) return;
      const next = new Map(current);
      next.set(key, value);
      await replaceFile(this.path, serialize(next));
      // The rename has happened: the new state is the file's state, whatever the sync says.
      this.#data = next;
      this.#version = await fileVersion(this.path);
      await syncDirectory(dirname(this.path));
    });
  }
}

/** What identifies one version of the file: a rename gives a new inode. */
async function fileVersion(path: string): Promise<string> {
  try {
    const info = await stat(path, { bigint: true });
    return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}`;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return 'none';
    throw new Error(`JsonDatabase: cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

function serialize(data: Map<string, string>): string {
  // Object.fromEntries defines own properties, so a key like `__proto__` is kept as data.
  return `${JSON.stringify(Object.fromEntries(data), null, 2)}\n`;
}

async function readState(path: string): Promise<Map<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return new Map();
    throw new Error(`JsonDatabase: cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const broken = (why: string, cause?: unknown) =>
    new Error(`JsonDatabase: ${path} ${why}; fix or move it (it is never overwritten while broken)`, {
      cause,
    });
  let parsed: unknown;
  try {
    parsed = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw broken(`is not valid JSON (${(error as Error).message})`, error);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw broken(
      `does not hold a JSON object (found ${Array.isArray(parsed) ? 'an array' : String(parsed)})`,
    );
  }
  const data = new Map<string, string>();
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') {
      throw broken(
        `holds a ${value === null ? 'null' : typeof value} under ${JSON.stringify(key)}, not a string`,
      );
    }
    data.set(key, value);
  }
  return data;
}

/**
 * Replaces `path` with `text` so that a crash leaves either the old or the new file, keeping
 * an existing file's permission bits. The caller syncs the directory afterwards.
 */
async function replaceFile(path: string, text: string): Promise<void> {
  let mode: number | undefined;
  try {
    mode = (await stat(path)).mode & 0o777;
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
  }
  await writeFileAtomic(path, text, mode);
}

/** Makes the rename itself durable. Some systems cannot sync a directory; they skip this. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (['EISDIR', 'EINVAL', 'EPERM', 'ENOTSUP', 'EBADF'].some((code) => isErrno(error, code))) return;
    throw new Error(
      `JsonDatabase: ${dir} could not be synced after the write (${(error as Error).message}); ` +
        'the new state is in place but may not survive a power loss',
      { cause: error },
    );
  } finally {
    await handle?.close();
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
