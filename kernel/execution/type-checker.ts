/**
 * Cells' type check, off their critical path: a worker (./type-check-worker.ts) checks each cell,
 * in the order the cells ran, while the kernel runs it and the next ones. The worker starts with
 * the kernel, so its TypeScript is warm by the first cell.
 *
 * The worker is a child process in a session of its own, not a thread of the kernel: Linux shares
 * the CPU between sessions (autogroup), so a thread's check (tens of milliseconds a cell) was
 * charged to the kernel, whose next cell then waited for the CPU behind every other session: a
 * 200-cell session's replies took 1.0-1.6 times Deno's kernel's on a loaded machine, 0.75-0.87 with
 * the check in its own session. Its own session also keeps Jupyter's interrupt (a SIGINT to the
 * kernel's process group) from killing it, and Jupyter's kill too: it exits when the kernel's IPC
 * channel closes, or once the kernel's process has gone, in the middle of a check too.
 *
 * Everything is bounded: the checks waiting (past {@link MAX_WAITING} a check is skipped), and
 * the wait for one answer (a caller gets `null` past its limit; a later answer goes to the log).
 */

import { type ChildProcess, fork } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers'; // not a cell's replaced globals (./server.ts)
import { mayHoldSecret } from '../protocol/may-hold-secret.js';
import type { CheckReply, CheckRequest, TypeProblem } from './type-check-messages.js';

/** How long {@link TypeChecker.close} waits for the worker to end before it kills it. */
const CLOSE_MS = 2000;

/**
 * Times a worker that ended by itself (killed by someone, by the OOM killer, out of its heap) is
 * started again in a kernel's life, with the declarations of the cells checked before; past that,
 * cells run unchecked (as logged).
 */
export const MAX_RESTARTS = 3;

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
  /** Its own time, from when the worker starts it (past it, it has overrun). */
  waitMs: number;
  timer?: NodeJS.Timeout;
  /** Whether its caller still waits for it (else its answer goes to the log). */
  waited: boolean;
  /** Set once it has taken longer than its `waitMs`: the checks behind it are not waited for. */
  overran: boolean;
  settle(problems: TypeProblem[] | null): void;
}

/**
 * V8's collections run in tasks once a thread has nothing else to do: the check's (a check leaves
 * megabytes) would run right after its answer, beside the kernel's next cell. Without those tasks,
 * V8 collects as it allocates: within the check. A runaway check ends the worker (cells then run
 * unchecked, as logged), not the kernel.
 */
const WORKER_FLAGS = ['--no-minor-gc-task', '--no-incremental-marking-task', '--max-old-space-size=1024'];

/**
 * The kernel's environment without the variables whose names may hold a secret
 * (`SCRATCH_PASSWORD`, a token): the worker needs none, and a process of its own would otherwise
 * hold them too (in its `/proc/PID/environ`, in a core dump of its heap's end).
 */
function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !mayHoldSecret(name)));
}

export class TypeChecker {
  readonly #log: (line: string) => void;
  readonly #cwd: string;
  #worker: ChildProcess;
  #restarts = 0;
  /** The declarations a worker started again begins from (sent with its first check), if any. */
  #seed: string | null = null;
  /** The checks sent and not answered, in the order the worker takes them (its first is under way). */
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
    this.#cwd = options.cwd ?? process.cwd();
    this.#worker = this.#start();
  }

  /** A worker process, its output going to the log. */
  #start(): ChildProcess {
    // Its own stdout and stderr: what TypeScript prints must not land in a cell's output. Its cwd
    // is the cells' (their imports resolve from it); its flags its own, not the kernel's.
    // It ends with the kernel's process, whose id it is given (./type-check-watchdog.ts).
    const worker = fork(new URL('./type-check-worker.js', import.meta.url), [String(process.pid)], {
      cwd: this.#cwd,
      env: withoutSecrets(process.env),
      detached: true, // a session of its own (see the file's comment)
      execArgv: WORKER_FLAGS,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    // Neither it nor its channel keeps the kernel's process alive.
    worker.unref();
    worker.channel?.unref();
    for (const stream of [worker.stdout, worker.stderr]) {
      if (!stream) continue;
      stream.setEncoding('utf8');
      stream.on('data', (text: string) => {
        for (const line of text.split('\n')) if (line.trim()) this.#log(`type check: ${line.slice(0, 500)}`);
      });
    }
    // A worker replaced (it had ended) is heard no more.
    worker.on('message', (reply: CheckReply) => {
      if (worker === this.#worker) this.#answer(reply);
    });
    worker.on('error', (error) => {
      if (worker !== this.#worker) return;
      // It could not start; else a check sent as it ended (its exit starts another) or a kill.
      if (worker.pid === undefined) this.#fail(error.message);
      else this.#log(`type check: ${error.message}`);
    });
    worker.on('exit', (code, signal) => {
      if (worker === this.#worker) this.#exited(signal ?? code);
    });
    return worker;
  }

  /**
   * The worker ended by itself: its checks under way answer `null`, and a new one takes the next
   * ones from the declarations of the cells checked so far, {@link MAX_RESTARTS} times at most.
   */
  #exited(how: string | number | null): void {
    const reason = `the worker exited (${how})`;
    if (this.#failed !== null || this.#restarts >= MAX_RESTARTS) {
      this.#fail(reason);
      return;
    }
    this.#restarts++;
    const lost = this.#waiting.size;
    this.#log(
      `type check: ${reason}; started again (${this.#restarts} of ${MAX_RESTARTS})` +
        (lost > 0 ? `, ${lost} cells unchecked` : ''),
    );
    this.#clearWaiting();
    this.#seed = this.#declarations;
    this.#worker = this.#start();
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

  /** Whether checks sent earlier are not answered yet (a new one waits for them). */
  get busy(): boolean {
    return this.#waiting.size > 0;
  }

  /** Settles once the worker's TypeScript is loaded (or it failed). */
  ready(): Promise<void> {
    return this.#ready;
  }

  /**
   * Checks `source` after the sources sent before it. Answers its problems, or `null` when it was
   * not checked (the worker failed, too many checks wait), not `waited` for (answered at once),
   * or not within `waitMs` of the worker starting it. The checks ahead of it do not count against
   * its time; but behind a check that overran its own (a huge cell: a minute), it is sent (later
   * cells need its declarations) and not waited for (each cell would otherwise wait that long).
   * A check that is not waited for never makes the checks after it wait less.
   */
  check(source: string, label: string, waitMs: number, waited = true): Promise<TypeProblem[] | null> {
    if (this.#failed !== null) return Promise.resolve(null);
    if (this.#waiting.size >= MAX_WAITING) {
      if (!this.#skipping) this.#log(`type check: ${MAX_WAITING} cells wait already; skipping (${label})`);
      this.#skipping = true;
      return Promise.resolve(null);
    }
    this.#skipping = false;
    const id = this.#next++;
    const behind = [...this.#waiting.values()].some((w) => w.overran);
    return new Promise((resolve) => {
      const waiting: Waiting = { label, waitMs, waited: waited && !behind, overran: false, settle: resolve };
      this.#waiting.set(id, waiting);
      const request: CheckRequest =
        this.#seed === null ? { id, source } : { id, source, declarations: this.#seed };
      this.#seed = null;
      this.#worker.send(request);
      if (!waiting.waited) resolve(null);
      if (this.#waiting.size === 1) this.#started(waiting);
    });
  }

  /**
   * Stops waiting for the checks sent so far (an interrupt: the user wants the kernel back, not
   * the warnings): they answer `null` now; their problems go to the log when they come. They have
   * not overrun for that: the checks sent after them are waited for as usual.
   */
  stopWaiting(): void {
    for (const waiting of this.#waiting.values()) this.#release(waiting);
  }

  /** The worker has started the check `waiting`: its own time runs from now. */
  #started(waiting: Waiting): void {
    waiting.timer = setTimeout(() => {
      waiting.overran = true;
      // It and every check behind it: not waited for any longer.
      for (const other of this.#waiting.values()) this.#release(other);
    }, waiting.waitMs);
    waiting.timer.unref();
  }

  /** Its caller stops waiting: it answers `null` now. */
  #release(waiting: Waiting): void {
    if (!waiting.waited) return;
    waiting.waited = false;
    waiting.settle(null);
  }

  /** The worker's process id (`undefined` if it could not start). */
  get pid(): number | undefined {
    return this.#worker.pid;
  }

  /** Stops the worker: SIGTERM, and SIGKILL if it has not exited {@link CLOSE_MS} later. */
  async close(): Promise<void> {
    this.#failed ??= 'closed';
    const worker = this.#worker;
    if (worker.pid === undefined || worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.kill();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), CLOSE_MS);
    });
    if (await Promise.race([exited.then(() => false), late])) {
      worker.kill('SIGKILL');
      await exited;
    }
    clearTimeout(timer);
  }

  #answer(reply: CheckReply): void {
    if (reply.id === -1) {
      // A worker started again has none yet: the cells' are sent with its first check.
      this.#markReady();
      return;
    }
    this.#declarations = reply.declarations;
    this.#warm = true;
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.#waiting.delete(reply.id);
    // The worker takes the next check now.
    const next = this.#waiting.values().next();
    if (!next.done) this.#started(next.value);
    if ('failure' in reply) {
      this.#log(`type check of ${waiting.label} failed: ${reply.failure}`);
      this.#release(waiting);
      return;
    }
    if (!waiting.waited) {
      if (reply.problems.length > 0)
        this.#log(`type check of ${waiting.label}, after its cell ended: ${loggedProblems(reply.problems)}`);
      return;
    }
    waiting.waited = false;
    waiting.settle(reply.problems);
  }

  #fail(reason: string): void {
    if (this.#failed === null) this.#log(`type check: ${reason}; cells run unchecked from now on`);
    this.#failed ??= reason;
    this.#warm = true; // nothing to wait for: checks answer `null` at once
    this.#markReady();
    this.#clearWaiting();
  }

  /** The checks sent answer `null` now, and are forgotten. */
  #clearWaiting(): void {
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      this.#release(waiting);
    }
    this.#waiting.clear();
  }
}
