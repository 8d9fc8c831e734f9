/**
 * The kernel's input history, kept as IPython keeps it: every cell's input (and the plain text of
 * its result) under a session number and the cell's execution count, in the user's data folder,
 * so that it survives kernel restarts and `jupyter console`'s up-arrow recalls yesterday's cells.
 *
 * - Where: `$SCRATCHLAB_HISTORY_DIR`, else Jupyter's data folder (`$JUPYTER_DATA_DIR`, else
 *   `$XDG_DATA_HOME/jupyter`, else `~/.local/share/jupyter`), in `scratchlab/history.jsonl`.
 * - One JSON line per cell, plus one per kernel start that claims its session number. Every
 *   change holds an exclusive lock on the file (proper-lockfile), so two kernels can write at once.
 * - Private: the file is 0600 in a 0700 folder; a cell is left out when its input or result names a
 *   secret (a login, a password, a token) or holds a secret value the kernel knows
 *   ({@link HistoryOptions.secrets}: its session's token and cookies, the password it logged in with).
 * - Bounded: past {@link HistoryOptions.maxBytes} the oldest lines are dropped (the newest half
 *   is kept); an input longer than {@link MAX_INPUT} is not kept, an output is cut at
 *   {@link MAX_OUTPUT}.
 * - `history_request` (tail, range, search) is answered from the file; requests wait for the
 *   cells recorded before them. Cells are written a second after they are recorded, together.
 */

import { appendFile, chmod, mkdir, open, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers'; // not a cell's replaced globals (./server.ts)
import { inspect } from 'node:util';
import lockfile from 'proper-lockfile';
import { mayHoldSecret } from './may-hold-secret.js';

/** Longest input kept, in characters: a longer cell is left out of the history. */
export const MAX_INPUT = 100_000;

/** Longest output kept, in characters: a longer one is cut. */
export const MAX_OUTPUT = 10_000;
/** Default size past which the oldest entries are dropped. */
const MAX_BYTES = 4 << 20;
/** The largest session number read from the file (a kernel start a second for 30 years stays below). */
const MAX_SESSION = 1_000_000_000;
/**
 * How long a recorded cell waits to be written: the cells of that time go in one write, under one
 * lock, rather than a lock (four file operations) in each cell's time. A kernel killed outright
 * loses at most that much; a shutdown writes them first.
 */
const WRITE_DELAY_MS = 1000;
/** Longest {@link HistoryOptions.writeDelayMs}. */
const MAX_WRITE_DELAY_MS = 60_000;
/**
 * Most characters of cells waiting to be written: past it they are written at once (cells of up
 * to {@link MAX_INPUT} characters sent quickly would otherwise pile up for the whole delay).
 */
const MAX_UNWRITTEN_CHARS = 1 << 20;
/**
 * When a lock no kernel renews is taken over (its holder renews it every half of that): a kernel
 * killed in the middle of a write (Jupyter's restart kills it right after a reply) leaves its lock.
 */
const LOCK_STALE_MS = 10_000;
/**
 * Longest wait for another kernel's lock: past {@link LOCK_STALE_MS}, so that a killed kernel's
 * lock is taken over (with a wait of 5 s, the kernel a restart started at once failed to open the
 * file, and kept none of its session's cells).
 */
const LOCK_WAIT_MS = LOCK_STALE_MS + 3000;

/** Options of {@link History.open}. */
export interface HistoryOptions {
  /** Size of the file past which the oldest entries are dropped (the newest half kept). */
  maxBytes?: number;
  /** Where problems go (the kernel's log): the history never fails a cell. */
  log?: (line: string) => void;
  /**
   * How long a recorded cell waits to be written, in milliseconds (default 1000, at most 60000):
   * the cells of that time are written together. A query, {@link History.flushed} and more than
   * a MiB of waiting cells write them at once.
   */
  writeDelayMs?: number;
  /**
   * The secret values the kernel knows now (its session's token and credential cookies, the
   * password it logged in with): a cell whose input or result holds one is not kept, whatever
   * its names (`const t = session.xToken`, then `t`). Asked at each cell: a short list.
   */
  secrets?: () => Iterable<string>;
}

function withoutBackslashes(text: string): string {
  return text.includes('\\') ? text.replaceAll('\\', '') : text;
}

/** The history's folder and file are the user's alone. */
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;

/** One entry of `history_reply`: session, line, and the input, or `[input, output]` when asked. */
export type HistoryItem = [number, number, string | [string, string | null]];

/** A `history_request`'s content (the messaging spec's fields). */
export interface HistoryRequest {
  hist_access_type?: unknown;
  output?: unknown;
  session?: unknown;
  start?: unknown;
  stop?: unknown;
  n?: unknown;
  pattern?: unknown;
  unique?: unknown;
}

interface Entry {
  s: number;
  l: number;
  i: string;
  o?: string | null;
}

interface SessionStart {
  s: number;
  start: string;
}

/** The history file for an environment (see the file's comment). */
export function historyFile(env: NodeJS.ProcessEnv): string {
  if (env.SCRATCHLAB_HISTORY_DIR) return join(env.SCRATCHLAB_HISTORY_DIR, 'history.jsonl');
  const data =
    env.JUPYTER_DATA_DIR ||
    (env.XDG_DATA_HOME ? join(env.XDG_DATA_HOME, 'jupyter') : join(homedir(), '.local', 'share', 'jupyter'));
  return join(data, 'scratchlab', 'history.jsonl');
}

/** One kernel's view of the shared history file: its own session, and queries over every session. */
export class History {
  readonly #file: string;
  readonly #maxBytes: number;
  readonly #log: (line: string) => void;
  readonly #writeDelayMs: number;
  readonly #secrets: () => Iterable<string>;
  /** Every change and query, in order: a query sees the cells recorded before it. */
  #queue: Promise<unknown> = Promise.resolve();
  #session = 0;

  private constructor(file: string, options: HistoryOptions) {
    this.#file = file;
    this.#maxBytes = options.maxBytes ?? MAX_BYTES;
    this.#log = options.log ?? (() => {});
    this.#writeDelayMs = options.writeDelayMs ?? WRITE_DELAY_MS;
    this.#secrets = options.secrets ?? (() => []);
  }

  /** Opens `file` (created when missing) and claims the next session number in it. */
  static open(file: string, options: HistoryOptions = {}): History {
    if (typeof file !== 'string' || file === '') throw new TypeError('file must be a non-empty path');
    const maxBytes = options.maxBytes ?? MAX_BYTES;
    if (!Number.isInteger(maxBytes) || maxBytes < 1024)
      throw new RangeError('maxBytes must be an integer ≥ 1024');
    const delay = options.writeDelayMs ?? WRITE_DELAY_MS;
    if (!Number.isInteger(delay) || delay < 0 || delay > MAX_WRITE_DELAY_MS)
      throw new RangeError(`writeDelayMs must be an integer from 0 to ${MAX_WRITE_DELAY_MS}`);
    const history = new History(file, options);
    history.#enqueue(async () => {
      await mkdir(dirname(file), { recursive: true, mode: FOLDER_MODE });
      // A folder or file made before (0755, 0644) is made private too.
      await chmod(dirname(file), FOLDER_MODE);
      await history.#locked(async () => {
        const lines = await history.#read();
        const last = lines.reduce((max, line) => Math.max(max, line.s), 0);
        history.#session = last + 1;
        const start: SessionStart = { s: history.#session, start: new Date().toISOString() };
        await appendFile(file, `${JSON.stringify(start)}\n`, { mode: FILE_MODE });
        await chmod(file, FILE_MODE);
      });
    }, 'opening');
    return history;
  }

  /** This kernel's session number (0 until the file has been opened). */
  get session(): number {
    return this.#session;
  }

  /** Settles once everything recorded so far is written (or has failed and been logged). */
  flushed(): Promise<void> {
    this.#write();
    return this.#queue.then(() => undefined);
  }

  /**
   * Records cell `line`'s input and the plain text of its result. A cell that may hold a secret
   * (its input or its result names a login, a password, a token, or holds a secret value the
   * kernel knows) is not kept: passwords are never stored.
   */
  record(line: number, input: string, output: string | null): void {
    if (input.length > MAX_INPUT) {
      this.#log(`history: cell ${line} is longer than ${MAX_INPUT} characters, not kept`);
      return;
    }
    const kept = output !== null && output.length > MAX_OUTPUT ? `${output.slice(0, MAX_OUTPUT)}…` : output;
    if (mayHoldSecret(input) || (kept !== null && mayHoldSecret(kept)) || this.#holdsSecret(input, output)) {
      this.#log(`history: cell ${line} may hold a secret (a login, password or token), not kept`);
      return;
    }
    this.#unwritten.push({ l: line, i: input, o: kept });
    this.#unwrittenChars += input.length + (kept?.length ?? 0);
    if (this.#unwrittenChars > MAX_UNWRITTEN_CHARS) this.#write();
    else this.#writeTimer ??= setTimeout(() => this.#write(), this.#writeDelayMs);
  }

  /** Whether `input` or `output` (whole, before any cut) holds a secret value the kernel knows. */
  #holdsSecret(input: string, output: string | null): boolean {
    try {
      // A value shown is inspect's text (a string in quotes, `\` and quotes escaped, of a JSON
      // text escaped again): the secret is looked for as written, as inspect and JSON escape it,
      // and in texts without their backslashes (escaped once or twice alike).
      const texts = new Set([input, output ?? ''].flatMap((text) => [text, withoutBackslashes(text)]));
      for (const secret of this.#secrets()) {
        // Only text counts (a `null` would match the word "null"); an empty one matches anything.
        if (typeof secret !== 'string' || secret === '') continue;
        const forms = [secret, inspect(secret).slice(1, -1), JSON.stringify(secret).slice(1, -1)];
        for (const form of new Set([...forms, ...forms.map(withoutBackslashes)]))
          if (form !== '' && [...texts].some((text) => text.includes(form))) return true;
      }
      return false;
    } catch (error) {
      // Not knowing the secrets, nothing is kept rather than one of them.
      this.#log(`history: the secret values could not be read (${String(error)}); the cell is not kept`);
      return true;
    }
  }

  /** Cells recorded and not yet written (their session is set when they are), and their size. */
  #unwritten: Omit<Entry, 's'>[] = [];
  #unwrittenChars = 0;
  #writeTimer: NodeJS.Timeout | null = null;

  /** Queues the write of the cells recorded so far, under one lock. */
  #write(): void {
    if (this.#writeTimer) clearTimeout(this.#writeTimer);
    this.#writeTimer = null;
    const cells = this.#unwritten;
    if (cells.length === 0) return;
    this.#unwritten = [];
    this.#unwrittenChars = 0;
    const lines = cells.length === 1 ? `${cells[0]!.l}` : `${cells[0]!.l}-${cells.at(-1)!.l}`;
    this.#enqueue(async () => {
      if (this.#session === 0) return; // the file could not be opened (logged)
      const text = cells
        .map(({ l, i, o }) => `${JSON.stringify({ s: this.#session, l, i, o } satisfies Entry)}\n`)
        .join('');
      await this.#locked(async () => {
        await appendFile(this.#file, text, { mode: FILE_MODE });
        const { size } = await stat(this.#file);
        if (size > this.#maxBytes) await this.#compact();
      });
    }, `recording cells ${lines}`);
  }

  /** The `history` list of a `history_reply` for `request`; throws a `TypeError` for a malformed one. */
  query(request: HistoryRequest): Promise<HistoryItem[]> {
    const output = request.output === true;
    const kind = request.hist_access_type;
    let select: (entries: Entry[]) => Entry[];
    if (kind === 'tail') {
      const n = count(request.n, 'n');
      select = (entries) => lastOf(entries, n);
    } else if (kind === 'range') {
      const session = integer(request.session ?? 0, 'session');
      const start = integer(request.start ?? 0, 'start');
      const stop = request.stop === null || request.stop === undefined ? null : integer(request.stop, 'stop');
      select = (entries) => {
        // As IPython: 0 is this session, -1 the one before, and so on.
        const wanted = session > 0 ? session : this.#session + session;
        return entries.filter((e) => e.s === wanted && e.l >= start && (stop === null || e.l < stop));
      };
    } else if (kind === 'search') {
      if (typeof request.pattern !== 'string') throw new TypeError('pattern must be a string');
      const matches = globMatcher(request.pattern);
      const n = count(request.n, 'n');
      const unique = request.unique === true;
      select = (entries) => {
        let found = entries.filter((e) => typeof e.i === 'string' && matches(e.i));
        if (unique) {
          const last = new Map<string, Entry>();
          for (const entry of found) {
            last.delete(entry.i);
            last.set(entry.i, entry);
          }
          found = [...last.values()];
        }
        return lastOf(found, n);
      };
    } else {
      throw new TypeError(
        `hist_access_type must be 'tail', 'range' or 'search', not ${JSON.stringify(kind)}`,
      );
    }
    this.#write();
    return this.#enqueue(async () => {
      const entries = (await this.#read()).filter((line): line is Entry => 'i' in line);
      return select(entries).map((e): HistoryItem => [e.s, e.l, output ? [e.i, e.o ?? null] : e.i]);
    });
  }

  /** Runs `task` after everything before it; `what` names a failure in the log (else it rejects). */
  #enqueue<T>(task: () => Promise<T>, what?: string): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch((error: unknown) => {
      if (what)
        this.#log(`history: ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
    return run;
  }

  async #locked(task: () => Promise<void>): Promise<void> {
    const release = await lockfile.lock(this.#file, {
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: { retries: Math.ceil(LOCK_WAIT_MS / 25), factor: 1, minTimeout: 25, maxTimeout: 25 },
    });
    try {
      await task();
    } finally {
      await release();
    }
  }

  /** The file's lines, at most its last `maxBytes` (a partly written last line is skipped). */
  async #read(): Promise<(Entry | SessionStart)[]> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.#file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    let text: string;
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, this.#maxBytes * 2);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, size - length);
      text = buffer.toString('utf8');
      if (length < size) text = text.slice(text.indexOf('\n') + 1);
    } finally {
      await handle.close();
    }
    const lines: (Entry | SessionStart)[] = [];
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        const parsed = JSON.parse(line) as Entry | SessionStart;
        if (typeof parsed === 'object' && parsed !== null && isSessionNumber(parsed.s)) lines.push(parsed);
      } catch {
        // A line cut by a full disk or a killed writer: the others still count.
      }
    }
    return lines;
  }

  /**
   * Keeps the newest lines that fit in half of `maxBytes` (called with the lock held), and the
   * start of the newest session, so that session numbers are never given out twice.
   */
  async #compact(): Promise<void> {
    const all = await this.#read();
    const lines = all.map((line) => `${JSON.stringify(line)}\n`);
    let size = 0;
    let first = lines.length;
    while (first > 0 && size + Buffer.byteLength(lines[first - 1]!) <= this.#maxBytes / 2) {
      first--;
      size += Buffer.byteLength(lines[first]!);
    }
    const newest = all.reduce((max, line) => Math.max(max, line.s), 0);
    const kept = lines.slice(first);
    if (!all.slice(first).some((line) => line.s === newest)) {
      kept.unshift(`${JSON.stringify({ s: newest, start: 'compacted' } satisfies SessionStart)}\n`);
    }
    // Written aside and renamed: a reader sees the old file or the new one, never half of it.
    const temporary = `${this.#file}.${process.pid}.tmp`;
    await writeFile(temporary, kept.join(''), { mode: FILE_MODE });
    await chmod(temporary, FILE_MODE); // one left by a killed writer of the same pid may be 0644
    await rename(temporary, this.#file);
  }
}

/**
 * A session number a kernel could have written: a whole number from 1 to {@link MAX_SESSION}. A
 * damaged line's `1e308` would otherwise make every later kernel claim the same number (`1e308 + 1`
 * is `1e308`).
 */
function isSessionNumber(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_SESSION;
}

/** The last `n` of `list` (all of it for `null`). */
function lastOf<T>(list: T[], n: number | null): T[] {
  if (n === null) return list;
  return n === 0 ? [] : list.slice(-n);
}

/** A non-negative integer or nothing (`null`). */
function count(value: unknown, name: string): number | null {
  if (value === undefined || value === null) return null;
  const n = integer(value, name);
  if (n < 0) throw new RangeError(`${name} must be ≥ 0`);
  return n;
}

function integer(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new TypeError(`${name} must be an integer`);
  return value;
}

/** One part of a search pattern: any text, one character, a set of characters, or a character. */
type GlobPart = { any: true } | { one: (c: string) => boolean };

/**
 * IPython's search pattern: SQLite's GLOB over the whole input (`*` any text, `?` one character,
 * `[…]` a set, `[^…]` its complement), case-sensitive. Not a path glob: `*` crosses `/` and new
 * lines. Matched without a regular expression's backtracking, in at most (input × pattern) steps:
 * a pattern such as `*a*a*a*b` over a long cell would otherwise keep the kernel busy for hours.
 * @throws TypeError when a set is not valid (`[z-a]`)
 */
export function globMatcher(pattern: string): (text: string) => boolean {
  const parts: GlobPart[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (!('any' in (parts.at(-1) ?? {}))) parts.push({ any: true });
    } else if (c === '?') parts.push({ one: () => true });
    else if (c === '[' && pattern.indexOf(']', i + 2) !== -1) {
      const close = pattern.indexOf(']', i + 2);
      const body = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
      let set: RegExp;
      try {
        set = new RegExp(body.startsWith('^') ? `^[^${body.slice(1)}]$` : `^[${body}]$`);
      } catch {
        throw new TypeError(`pattern has a set that is not valid: [${pattern.slice(i + 1, close)}]`);
      }
      parts.push({ one: (x) => set.test(x) });
      i = close;
    } else parts.push({ one: (x) => x === c });
  }
  return (text) => {
    // The two-pointer wildcard match: on a mismatch, the last `*` takes one more character.
    let t = 0;
    let p = 0;
    let starPart = -1;
    let starText = 0;
    while (t < text.length) {
      const part = parts[p];
      if (part && 'any' in part) {
        starPart = p++;
        starText = t;
      } else if (part?.one(text[t]!)) {
        p++;
        t++;
      } else if (starPart >= 0) {
        p = starPart + 1;
        t = ++starText;
      } else return false;
    }
    while (p < parts.length && 'any' in parts[p]!) p++;
    return p === parts.length;
  };
}
