/**
 * An exclusive lock on a file shared by processes (and by objects of one process):
 * `proper-lockfile` makes the lock (a `<file>.lock` folder whose time it keeps fresh, so a lock
 * left by a vanished holder goes stale), and a `holder.json` inside says who holds it, so a
 * waiter that gives up can name the holder, and a lock left by a dead process on this machine
 * is taken over at once instead of after the stale time.
 */
import { mkdir, readFile, rm, rmdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { tryParseJson } from '../records/json.js';

/** How long a lock folder may stay without its `holder.json` before it counts as orphaned. */
const ORPHAN_AFTER_MS = 2000;
/** How old a takeover guard (see `takeOver`) must be to count as left by a killed process. */
const GUARD_STALE_MS = 5000;

/** Options of {@link withFileLock}. */
interface FileLockOptions {
  /** How long to wait for a lock another holder has, in ms. */
  timeout: number;
  /** After how long without a refresh a lock counts as abandoned, in ms (at least 2000). */
  stale?: number;
  /** Names the caller in errors (`JsonDatabase`). */
  who: string;
}

/** Who holds a lock: written next to it by the holder. */
interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

/** Thrown when a lock stays taken for longer than the timeout. */
export class FileLockTimeoutError extends Error {
  constructor(
    message: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(message);
    this.name = 'FileLockTimeoutError';
  }
}

/** Runs `task` while holding the exclusive lock on `path`; waits up to `timeout` to get it. */
export async function withFileLock<T>(
  path: string,
  options: FileLockOptions,
  task: () => Promise<T>,
): Promise<T> {
  const lockPath = `${path}.lock`;
  const holderPath = join(lockPath, 'holder.json');
  const deadline = Date.now() + options.timeout;
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await lockfile.lock(path, {
        realpath: false,
        lockfilePath: lockPath,
        stale: options.stale ?? 10_000,
        // The default throws from a timer, which would crash the process.
        onCompromised: (error) => {
          compromised = error;
        },
      });
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Stale by time, but proper-lockfile cannot remove a folder that holds holder.json.
      if (code === 'ENOTEMPTY') {
        const staleMs = options.stale ?? 10_000;
        const removed = await takeOver(lockPath, async () => {
          const info = await stat(lockPath).catch(() => undefined);
          return info !== undefined && Date.now() - info.mtimeMs > staleMs;
        });
        // Another waiter's take-over guard (or one left by a killed process): wait, never spin.
        if (!removed) await pause();
        continue;
      }
      if (code !== 'ELOCKED') throw error;
      const holder = await readHolder(holderPath);
      if (holder === undefined && (await takeOver(lockPath, () => isOrphaned(lockPath, holderPath))))
        continue;
      if (holder && isDeadHere(holder)) {
        // Checked again under the takeover guard, so a lock taken meanwhile is left alone.
        const removed = await takeOver(lockPath, async () => {
          const again = await readHolder(holderPath);
          return again !== undefined && again.pid === holder.pid && again.since === holder.since;
        });
        if (!removed) await pause();
        continue;
      }
      if (Date.now() >= deadline) {
        throw new FileLockTimeoutError(
          `${options.who}: ${path} is locked by ${describeHolder(holder)}; gave up after ${options.timeout} ms. ` +
            `If that process is gone, remove ${lockPath}`,
          holder,
        );
      }
      await pause();
    }
  }
  try {
    const holder: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    await keepingMtime(lockPath, () => writeFile(holderPath, JSON.stringify(holder)));
    const result = await task();
    if (compromised) {
      throw new Error(`${options.who}: the lock on ${path} was lost while writing (${compromised.message})`, {
        cause: compromised,
      });
    }
    return result;
  } finally {
    await keepingMtime(lockPath, () => unlink(holderPath)).catch(() => undefined);
    await release().catch(() => undefined);
  }
}

/** Short, jittered polls: a busy writer releases and retakes the lock within milliseconds. */
function pause(): Promise<void> {
  return new Promise((done) => setTimeout(done, 1 + Math.random() * 4));
}

/**
 * Runs `change` (adding or removing `holder.json`) and puts the lock folder's time back:
 * proper-lockfile takes a folder time it did not set for a lock stolen by someone else, and
 * would declare the lock compromised at its next refresh.
 */
async function keepingMtime(lockPath: string, change: () => Promise<void>): Promise<void> {
  const before = await stat(lockPath);
  await change();
  await utimes(lockPath, before.atime, before.mtime);
}

/**
 * Removes an abandoned lock, once: waiters that find the same dead lock would otherwise each
 * remove it, the later ones removing the lock the first had taken meanwhile (two holders, lost
 * writes). So a waiter first takes `<lock>.takeover` (mkdir is atomic), checks `abandoned()`
 * again under it, and only then removes the lock. A guard left by a process killed inside these
 * few milliseconds is removed after {@link GUARD_STALE_MS}. True when the lock was removed.
 */
async function takeOver(lockPath: string, abandoned: () => Promise<boolean>): Promise<boolean> {
  const guard = `${lockPath}.takeover`;
  try {
    await mkdir(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const info = await stat(guard).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > GUARD_STALE_MS) await rmdir(guard).catch(() => undefined);
    return false;
  }
  try {
    if (!(await abandoned())) return false;
    await rm(lockPath, { recursive: true, force: true });
    return true;
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}

/**
 * A holder writes `holder.json` within milliseconds of taking the lock; a lock folder that has
 * none after {@link ORPHAN_AFTER_MS} was left by a process killed in between.
 */
async function isOrphaned(lockPath: string, holderPath: string): Promise<boolean> {
  const info = await stat(lockPath).catch(() => undefined);
  if (info === undefined || Date.now() - info.mtimeMs < ORPHAN_AFTER_MS) return false;
  return (await readHolder(holderPath)) === undefined;
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  const value = text === undefined ? undefined : tryParseJson(text);
  if (value === null || typeof value !== 'object') return undefined;
  const { pid, host, since } = value as Partial<LockHolder>;
  if (typeof pid !== 'number' || typeof host !== 'string' || typeof since !== 'string') return undefined;
  return { pid, host, since };
}

/** True when the holder ran on this machine and its process no longer exists. */
function isDeadHere(holder: LockHolder): boolean {
  return holder.host === hostname() && processIsGone(holder.pid);
}

/**
 * True when no process `pid` exists on this machine (never for this process; a process of
 * another user exists, though it may not be signalled).
 */
export function processIsGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function describeHolder(holder: LockHolder | undefined): string {
  return holder
    ? `pid ${holder.pid} on host ${holder.host} (since ${holder.since})`
    : 'another writer (who, it does not say yet)';
}
