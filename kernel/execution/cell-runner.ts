/**
 * Runs one cell on tslab's executor and answers what Jupyter shows for it: the cell's value as
 * an `execute_result` bundle, or its failure as `ename`/`evalue`/`traceback`.
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
import { isThenable } from './thenable.js';

type ErrorClass = abstract new (...args: never[]) => Error;

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
}

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
    const ok = await runAs('scratchlab preload', this.cells, () => this.#inner().execute(source));
    const problems = this.#diagnostics.map(
      (d) => `${d.file ?? 'preload'}:${d.line}:${d.column}: ${d.message}`,
    );
    if (this.#thrown) problems.push(String(this.#thrown.value));
    if (!ok && problems.length === 0) problems.push('it failed');
    return problems;
  }

  /** Stops waiting for the cell's un-awaited value (Ctrl-C / interrupt). */
  interrupt(): void {
    this.#executor?.interrupt();
    this.#interrupt?.();
  }

  /** Runs `code` as cell `count`. */
  async run(code: string, count: number): Promise<CellOutcome> {
    try {
      await this.#options.prepare(code);
    } catch (error) {
      return this.#failed(this.#error(error));
    }
    // Not while the preload runs (a cell waiting in `prepare` for the preload is not executing).
    while (this.#preloading) await this.#preloading.catch(() => {});
    const execution = this.#execute(code, count);
    this.#executing = execution.catch(() => {});
    try {
      return await execution;
    } finally {
      this.#executing = null;
    }
  }

  async #execute(code: string, count: number): Promise<CellOutcome> {
    this.#reset();
    const file = cellFileName(count);
    this.cells.add(file, code);
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
