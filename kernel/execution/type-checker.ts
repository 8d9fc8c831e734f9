/**
 * Cells' type check, off their critical path: a worker thread (./type-check-worker.ts) checks each
 * cell, in the order the cells ran, while the kernel runs it and the next ones. The worker starts
 * with the kernel, so its TypeScript is warm by the first cell.
 *
 * Everything is bounded: the checks waiting (past {@link MAX_WAITING} a check is skipped), and
 * the wait for one answer (a caller gets `null` past its limit; a later answer goes to the log).
 */
import { clearTimeout, setTimeout } from 'node:timers'; // not a cell's replaced globals (./server.ts)
import { Worker } from 'node:worker_threads';
import type { CheckReply, TypeProblem } from './type-check-messages.js';

/** Checks waiting at most; more are skipped (and say so in the log, once). */
export const MAX_WAITING = 500;

/** Problems named in the log line of a late answer (a huge cell has thousands); the rest are counted. */
const LOGGED_PROBLEMS = 5;
/** Longest problem message in the log (a deep type's message runs to kilobytes). */
const LOGGED_MESSAGE_CHARS = 150;

/** `problems` as one bounded log line. */
function loggedProblems(problems: readonly TypeProblem[]): string {
  const named = problems
    .slice(0, LOGGED_PROBLEMS)
    .map((p) =>
      p.message.length > LOGGED_MESSAGE_CHARS ? `${p.message.slice(0, LOGGED_MESSAGE_CHARS)}…` : p.message,
    );
  const more = problems.length - named.length;
  return named.join('; ') + (more > 0 ? `; … and ${more} more` : '');
}

/** What the checker needs. */
export interface TypeCheckerOptions {
  /** The kernel's own log (never a cell's output). */
  log(line: string): void;
  /** The folder cells resolve modules from. */
  cwd?: string;
}

interface Waiting {
  label: string;
  settle(problems: TypeProblem[] | null): void;
  /** Set once the caller stopped waiting: the answer then goes to the log. */
  late: boolean;
}

export class TypeChecker {
  readonly #log: (line: string) => void;
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  #next = 0;
  #failed: string | null = null;
  #skipping = false;
  #declarations = '';
  readonly #ready: Promise<void>;
  #markReady: () => void = () => {};

  constructor(options: TypeCheckerOptions) {
    this.#log = options.log;
    this.#ready = new Promise((resolve) => {
      this.#markReady = resolve;
    });
    // Its own stdout and stderr: what TypeScript prints must not land in a cell's output.
    this.#worker = new Worker(new URL('./type-check-worker.js', import.meta.url), {
      workerData: { cwd: options.cwd ?? process.cwd() },
      // A runaway check ends the worker (cells then run unchecked, as logged), not the kernel.
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
      stdout: true,
      stderr: true,
    });
    this.#worker.unref();
    for (const stream of [this.#worker.stdout, this.#worker.stderr]) {
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        for (const line of text.split('\n')) if (line.trim()) this.#log(`type check: ${line.slice(0, 500)}`);
      });
    }
    this.#worker.on('message', (reply: CheckReply) => this.#answer(reply));
    this.#worker.on('error', (error) => this.#fail(error.message));
    this.#worker.on('exit', (code) => this.#fail(`the worker exited (${code})`));
  }

  /** Every declaration of the cells checked so far, as tslab keeps them (for Tab and Shift-Tab). */
  get declarations(): string {
    return this.#declarations;
  }

  /**
   * Whether a check has been answered: the first one (the preload's, or the first cell's) builds
   * the worker's program and takes up to seconds; the later ones tens of milliseconds.
   */
  get warm(): boolean {
    return this.#warm;
  }

  #warm = false;

  /** Settles once the worker's TypeScript is loaded (or it failed). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /**
   * Checks `source` after the sources sent before it. Answers its problems, or `null` when it was
   * not checked (the worker failed, too many checks wait) or not within `waitMs` (at once when
   * an earlier check is past its own wait).
   */
  check(source: string, label: string, waitMs: number): Promise<TypeProblem[] | null> {
    if (this.#failed !== null) return Promise.resolve(null);
    if (this.#waiting.size >= MAX_WAITING) {
      if (!this.#skipping) this.#log(`type check: ${MAX_WAITING} cells wait already; skipping (${label})`);
      this.#skipping = true;
      return Promise.resolve(null);
    }
    this.#skipping = false;
    const id = this.#next++;
    // Behind a check that went past its wait (a huge cell: a minute), this one would wait its
    // whole limit too, and every cell after it: it is sent (later cells need its declarations)
    // but not waited for; its answer goes to the log.
    const behind = [...this.#waiting.values()].some((w) => w.late);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiting: Waiting = {
        label,
        late: false,
        settle: (problems) => {
          clearTimeout(timer);
          resolve(problems);
        },
      };
      this.#waiting.set(id, waiting);
      this.#worker.postMessage({ id, source });
      if (behind) {
        waiting.late = true;
        resolve(null);
        return;
      }
      timer = setTimeout(() => {
        waiting.late = true;
        resolve(null);
      }, waitMs);
      timer.unref();
    });
  }

  /**
   * Stops waiting for the checks sent so far (an interrupt: the user wants the kernel back, not
   * the warnings): they answer `null` now; their problems go to the log when they come.
   */
  stopWaiting(): void {
    for (const waiting of this.#waiting.values()) {
      if (waiting.late) continue;
      waiting.late = true;
      waiting.settle(null);
    }
  }

  /** Stops the worker. */
  async close(): Promise<void> {
    this.#failed ??= 'closed';
    await this.#worker.terminate();
  }

  #answer(reply: CheckReply): void {
    this.#declarations = reply.declarations;
    if (reply.id === -1) {
      this.#markReady();
      return;
    }
    this.#warm = true;
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if ('failure' in reply) {
      this.#log(`type check of ${waiting.label} failed: ${reply.failure}`);
      waiting.settle(null);
      return;
    }
    if (waiting.late && reply.problems.length > 0)
      this.#log(`type check of ${waiting.label}, after its cell ended: ${loggedProblems(reply.problems)}`);
    waiting.settle(reply.problems);
  }

  #fail(reason: string): void {
    if (this.#failed === null) this.#log(`type check: ${reason}; cells run unchecked from now on`);
    this.#failed ??= reason;
    this.#warm = true; // nothing to wait for: checks answer `null` at once
    this.#markReady();
    for (const waiting of this.#waiting.values()) waiting.settle(null);
    this.#waiting.clear();
  }
}
