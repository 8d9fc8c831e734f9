/**
 * Runs one cell on tslab's executor and answers what Jupyter shows for it: the cell's value as
 * an `execute_result` bundle, or its failure as `ename`/`evalue`/`traceback`, and, later, the
 * warnings of its type check.
 *
 * A cell runs with its types stripped (./cell-script.ts), as the REPL runs an input: a type error
 * does not stop it. Once its reply is out, its type check runs in a worker (./type-checker.ts); its
 * problems come as a warning under the cell (`later`), at their cell lines and columns.
 *
 * tslab's executor reports through a console: `log(value)` for the cell's last expression,
 * `error(thrown)` for a failure, `error('%s%d:%d - %s', …)` for each TypeScript diagnostic. That
 * console is this runner's, so nothing of it reaches the cell's stdout or stderr (those carry only
 * what the user's code writes).
 *
 * A value left un-awaited is awaited (a `PagedList` shows its first page, a resolved promise its
 * value, a rejected one fails the cell), and the cell ends only once the displays it started have
 * been sent.
 */

import { inspect } from 'node:util';
import type { PendingDisplays } from '../display/pending-displays.js';
import type { CellOutcome } from '../protocol/server.js';
import {
  type CellError,
  CellSources,
  cellError,
  cellFileName,
  type Diagnostic,
  diagnosticsError,
} from '../protocol/traceback.js';
import type { Executor, ExecutorConsole, MimeBundle } from '../tslab.js';
import { runAs } from './cell-files.js';
import { type CellScript, CellScriptError } from './cell-script.js';
import { isThenable } from './thenable.js';
import type { TypeProblem } from './type-check-messages.js';
import { typeWarnings } from './type-warnings.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** A type check of cells in the order they run (./type-checker.ts). */
export interface TypeCheck {
  /**
   * The problems of `source` (`label` names it in the log), or `null` if not known within `waitMs`
   * of its check's start, or at once when not `waited` for (its problems then go to the log).
   */
  check(
    source: string,
    label: string,
    waitMs: number,
    waited?: boolean,
  ): Promise<readonly TypeProblem[] | null>;
  /** Whether checks answer quickly now (the first one builds the checker's program). */
  readonly warm: boolean;
  /** Whether checks sent earlier are not answered yet (a new one waits for them). */
  readonly busy: boolean;
  /** Answers `null` now to the checks being waited for (their problems go to the log). */
  stopWaiting(): void;
}

/** What the runner needs from the kernel. */
export interface CellRunnerOptions {
  /**
   * Settles when what `code` needs is there (the session and the preload, for a cell that names
   * them); a rejection fails the cell with its message.
   */
  prepare(code: string): Promise<void>;
  pending: PendingDisplays;
  /** The SDK's error classes (once loaded): their failures show as one line, without frames. */
  errorClasses(): readonly ErrorClass[];
  /** The site's base URL, for links in tables. */
  siteUrl(): string | undefined;
  /** Whether a value was shown already by the cell (a chart `plot` showed): it shows no result. */
  shownAlready?(value: unknown): boolean;
  /** A hint added under an error of this name (e.g. how to log in under `LoginRequiredError`). */
  hints?: Readonly<Record<string, string>>;
  /** Converts a cell for the executor's next run (./script-converter.ts). */
  scripts: { prepare(source: string): Promise<CellScript | CellScriptError> };
  /** The type check beside the runs (./type-checker.ts); none: cells are not checked. */
  checker?: TypeCheck;
  /** The kernel's log, for the preload's type problems. */
  log?(line: string): void;
}

/**
 * How long a cell's `idle` waits for its type check (the check of a cell takes tens of
 * milliseconds; the first, while TypeScript loads, a second or two). Past it the problems go to
 * the kernel's log: a front end drops output that comes after `idle`.
 */
export const CHECK_WAIT_MS = 10_000;

/** The SDK's error classes among a module namespace's exports (so new ones count automatically). */
export function errorClassesOf(namespace: Record<string, unknown>): ErrorClass[] {
  return Object.values(namespace).filter(
    (value): value is ErrorClass =>
      typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error,
  );
}

const NOTHING = Symbol('no value');

export class CellRunner {
  readonly cells = new CellSources();
  readonly #options: CellRunnerOptions;
  #executor: Executor | null = null;
  #value: unknown = NOTHING;
  #thrown: { value: unknown } | null = null;
  #diagnostics: Diagnostic[] = [];
  #interrupt: (() => void) | null = null;
  /** Interrupts so far (a cell's check started after one is not waited for). */
  #interrupts = 0;
  /**
   * A cell being executed (from after its `prepare` to its end) and the preload being run. They
   * share tslab's executor, which keeps one set of declarations: run together (the preload starts
   * in the background), the one that ends last would drop the other's. Each waits for the other.
   */
  #executing: Promise<unknown> | null = null;
  #preloading: Promise<unknown> | null = null;

  constructor(options: CellRunnerOptions) {
    this.#options = options;
  }

  /** The console to create tslab's executor with. */
  readonly console: ExecutorConsole = {
    log: (...args: unknown[]) => {
      this.#value = args[0];
    },
    error: (...args: unknown[]) => {
      if (args.length === 1) {
        this.#thrown ??= { value: args[0] };
        return;
      }
      // A diagnostic: `console.error('%s%d:%d - %s', file, line, column, message)`.
      const [, file, line, column, message] = args as [string, string, number, number, string];
      const name = file.trim();
      this.#diagnostics.push({ file: name || undefined, line, column, message: String(message) });
    },
  };

  /** The executor created with {@link console}. */
  attach(executor: Executor): void {
    this.#executor = executor;
  }

  /** Runs the preload: its failure is the kernel's, not a cell's. Answers its problems (none: it ran). */
  async preload(source: string): Promise<string[]> {
    while (this.#executing) await this.#executing;
    const work = this.#preload(source);
    this.#preloading = work;
    try {
      return await work;
    } finally {
      this.#preloading = null;
    }
  }

  async #preload(source: string): Promise<string[]> {
    this.#reset();
    const script = await this.#options.scripts.prepare(source);
    if (!(script instanceof CellScriptError))
      void this.#options.checker?.check(source, 'the preload', CHECK_WAIT_MS).then((problems) => {
        for (const p of problems ?? [])
          this.#options.log?.(`preload type check: ${p.line}:${p.column}: ${p.message}`);
      });
    const ok = await runAs('scratchlab preload', this.cells, () => this.#inner().execute(source));
    const problems = this.#diagnostics.map(
      (d) => `${d.file ?? 'preload'}:${d.line}:${d.column}: ${d.message}`,
    );
    if (this.#thrown) problems.push(String(this.#thrown.value));
    if (!ok && problems.length === 0) problems.push('it failed');
    return problems;
  }

  /** Stops waiting for the cell's un-awaited value, and for its type check (Ctrl-C / interrupt). */
  interrupt(): void {
    this.#interrupts++;
    this.#executor?.interrupt();
    this.#interrupt?.();
    this.#options.checker?.stopWaiting();
  }

  /** Runs `code` as cell `count` (`Cell In[count]`), or under the file name `cell` (./traceback.ts). */
  async run(code: string, cell: number | string): Promise<CellOutcome> {
    try {
      await this.#options.prepare(code);
    } catch (error) {
      return this.#failed(this.#error(error));
    }
    // Not while the preload runs (a cell waiting in `prepare` for the preload is not executing).
    while (this.#preloading) await this.#preloading.catch(() => {});
    const execution = this.#execute(code, typeof cell === 'number' ? cellFileName(cell) : cell);
    this.#executing = execution.catch(() => {});
    try {
      return await execution;
    } finally {
      this.#executing = null;
    }
  }

  async #execute(code: string, file: string): Promise<CellOutcome> {
    this.#reset();
    this.cells.add(file, code);
    const script = await this.#options.scripts.prepare(code);
    if (!(script instanceof CellScriptError)) this.cells.locate(file, script.sourceAt);
    const outcome = await this.#outcome(code, file);
    // Checked once it has run (a check beside the run would take the CPU it needs): its reply goes
    // out meanwhile and its `idle` follows the check. While the checker is cold (its first check
    // takes up to seconds) or busy with earlier checks (the preload's, started by this very cell,
    // or ones no cell waits for), the check comes first: `idle` could otherwise lag its reply that
    // long (Jupyter's conformance suite waits 0.1 s for it).
    const checker = this.#options.checker;
    if (!checker || script instanceof CellScriptError) return outcome;
    const interrupts = this.#interrupts;
    // An object literal cell runs in parentheses: its check reads it so (not as a block of labels).
    const checked = script.objectLiteral ? `(${code}\n)` : code;
    const later = () => this.#checked(checker, checked, file, interrupts !== this.#interrupts);
    return { ...outcome, later, checkFirst: !checker.warm || checker.busy };
  }

  /**
   * The warning text of the type check of cell `file`, or `null` (no problems, or no answer in
   * time). Once an interrupt came after the cell ran, nothing waits for the check (its problems go
   * to the log), as for a check under way when it came.
   */
  async #checked(
    checker: TypeCheck,
    code: string,
    file: string,
    interrupted: boolean,
  ): Promise<string | null> {
    const problems = await checker.check(code, file, CHECK_WAIT_MS, !interrupted);
    return problems && problems.length > 0 ? typeWarnings(problems, file, code) : null;
  }

  async #outcome(code: string, file: string): Promise<CellOutcome> {
    let ok = await runAs(file, this.cells, () => this.#inner().execute(code));
    let value = this.#value;
    if (ok && isThenable(value) && !this.#options.pending.isTracked(value)) {
      try {
        value = await this.#interruptible(value);
      } catch (error) {
        this.#thrown ??= { value: error };
        ok = false;
      }
    }
    await this.#options.pending.settle((error) => {
      this.#thrown ??= { value: error };
    });
    if (this.#diagnostics.length > 0)
      return this.#failed(diagnosticsError(this.#diagnostics, file, this.cells));
    if (this.#thrown) return this.#failed(this.#error(this.#thrown.value));
    if (!ok)
      return this.#failed({
        ename: 'Error',
        evalue: 'the cell failed',
        traceback: ['Error: the cell failed'],
      });
    if (
      value === NOTHING ||
      value === undefined ||
      this.#options.pending.isTracked(value) ||
      this.#options.shownAlready?.(value)
    ) {
      return { status: 'ok', result: null };
    }
    try {
      return { status: 'ok', result: await this.#bundle(value) };
    } catch (error) {
      return this.#failed(this.#error(error));
    }
  }

  /** A plain value as text at once; objects through the presentation layer (loaded on first use). */
  async #bundle(value: unknown): Promise<MimeBundle> {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) {
      return { 'text/plain': inspect(value) };
    }
    const { resultBundle } = await import('../display/display.js');
    return resultBundle(value, { siteUrl: this.#options.siteUrl(), quoteStrings: true });
  }

  #inner(): Executor {
    if (!this.#executor) throw new Error('CellRunner.attach was not called');
    return this.#executor;
  }

  #reset(): void {
    this.#value = NOTHING;
    this.#thrown = null;
    this.#diagnostics = [];
  }

  #error(thrown: unknown): CellError {
    const isSdk =
      thrown instanceof Error && this.#options.errorClasses().some((cls) => thrown instanceof cls);
    const hint = thrown instanceof Error ? this.#options.hints?.[thrown.name] : undefined;
    const error = cellError(thrown, this.cells, { oneLine: isSdk, hint });
    if (hint === undefined) return error;
    // The SDK's own advice ("call session.login(username, password)") would put a password in a
    // notebook: the hint replaces it.
    const evalue = error.evalue.replace(/:\s*call session\.login\(.*$/s, '');
    const traceback = error.traceback.map((line) => line.replace(/:\s*call session\.login\(.*$/s, ''));
    return { ...error, evalue, traceback };
  }

  #failed(error: CellError): CellOutcome {
    return { status: 'error', ...error };
  }

  #interruptible<T>(value: PromiseLike<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#interrupt = () => reject(new Error('Interrupted'));
      Promise.resolve(value).then(resolve, reject);
    }).finally(() => {
      this.#interrupt = null;
    });
  }
}
