/**
 * Starting the REPL: open the workbench (sandbox or saved/real login), print the banner, run
 * node's REPL with our evaluator, then load the rich layer (SDK globals, tables, charts) while the
 * user reads the prompt.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writer as nodeWriter, type REPLServer, start } from 'node:repl';
import { inspect } from 'node:util';
import type { Session } from 'scratchlab';
import { historyFile as historyPath, type Workbench } from 'scratchlab/workbench';
import { Activity } from './activity.js';
import { banner } from './banner.js';
import { defineCommands } from './commands.js';
import { OutputNotes } from './display.js';
import { createEvaluator } from './evaluate.js';
import { installGlobals, setGlobal } from './globals.js';
import { queueLines } from './line-queue.js';
import { openSession } from './open-session.js';
import { style } from './style.js';
import { processTerminal } from './terminal.js';
import type { Toolkit } from './toolkit.js';
import { warmUpTranspiler } from './transpile.js';

/** Options of {@link startRepl}. */
export interface StartReplOptions {
  /** Start the embedded sandbox and log in its demo account. */
  sandbox?: boolean;
  /** Environment (`SCRATCH_USERNAME`, `SCRATCH_PASSWORD`, `HOME`, `XDG_*`, `NO_COLOR`). */
  env?: Record<string, string | undefined>;
  /** A session already being opened (see `open-session.ts`); by default one is opened here. */
  workbench?: Promise<Workbench>;
}

/** A running REPL. */
export interface RunningRepl {
  repl: REPLServer;
  workbench: Workbench;
  /** Settles once the SDK globals and helpers are in place. */
  ready: Promise<void>;
  /** Settles when the REPL has exited and the sandbox (if any) is closed. */
  closed: Promise<void>;
}

const PROMPT = 'scratchlab> ';

/** Starts the REPL on this process's stdin/stdout. */
export async function startRepl(options: StartReplOptions = {}): Promise<RunningRepl> {
  const env = options.env ?? process.env;
  const terminal = processTerminal(env);
  const { input, output, isTerminal, color } = terminal;
  const router = terminal.prompt?.router ?? null;
  const paint = style(color);

  const workbench = await (options.workbench ?? openSession({ sandbox: options.sandbox, env, terminal }));
  let session: Session = workbench.session;

  const activity = new Activity();
  const notes = new OutputNotes();
  const size = () => ({ width: output.columns || 80, height: output.rows || 24 });
  let loaded!: (toolkit: Toolkit) => void;
  let failed!: (error: unknown) => void;
  const toolkit = new Promise<Toolkit>((resolve, reject) => {
    loaded = resolve;
    failed = reject;
  });
  // Until the rich layer is in, values print as node would (nothing is printed before it is: the
  // evaluator waits for it).
  let write: Toolkit['writer'] = (value) => inspect(value, { colors: color });
  let stopLive = () => 0;

  output.write(banner({ description: workbench.description, sandbox: workbench.sandbox !== null, color }));

  // Node prints "Uncaught:" on a line of its own when an error's text (colour codes included) is
  // longer than its default writer's breakLength. Our writer never uses those options, and our
  // error lines are one line by design, so only that decision changes here.
  nodeWriter.options.breakLength = Number.POSITIVE_INFINITY;
  const repl = start({
    prompt: paint.cyan(PROMPT),
    input,
    output,
    terminal: isTerminal,
    useColors: color,
    useGlobal: true,
    preview: false,
    writer: (value) => write(value),
    eval: createEvaluator({
      activity,
      notes,
      hold: router ? (onInterrupt) => router.hold(onInterrupt) : undefined,
      input: isTerminal ? input : undefined,
      toolkit,
    }),
  });

  installGlobals({}, { session, ...(workbench.sandbox ? { sandbox: workbench.sandbox } : {}) });
  const history = isTerminal ? historyPath(env) : null;
  defineCommands(repl, {
    current: () => session,
    replace: (next) => {
      session = next;
      setGlobal('session', next);
    },
    sandbox: workbench.sandbox,
    env,
    terminal: terminal.prompt,
    activity,
    color,
    historyFile: history,
  });

  const ready = import('./toolkit.js').then(
    ({ createToolkit }) => {
      const built = createToolkit({
        output,
        others: [process.stderr],
        activity,
        notes,
        color,
        size,
        cursorRow: () => repl.getCursorPos().rows,
        redrawPrompt: () => repl.displayPrompt(true),
      });
      write = built.writer;
      stopLive = built.stopLive;
      installGlobals(built.sdk, built.helpers);
      loaded(built);
    },
    (error: unknown) => {
      failed(error);
      process.stderr.write(`the REPL's helpers failed to load: ${String(error)}\n`);
    },
  );

  // Ctrl-C at the prompt stops a live chart first; otherwise node's handling (clear the line,
  // "press Ctrl-C again to exit").
  const nodeSigint = repl.listeners('SIGINT') as (() => void)[];
  repl.removeAllListeners('SIGINT');
  repl.on('SIGINT', () => {
    if (stopLive() > 0) return;
    for (const listener of nodeSigint) listener.call(repl);
  });

  // Errors from callbacks and forgotten promises are printed, not fatal, as in node's REPL.
  const printAsync = (error: unknown) => {
    output.write(`\r\x1b[K${paint.red('Uncaught (in a callback or promise)')} ${repl.writer(error)}\n`);
    if (!activity.busy) repl.displayPrompt(true);
  };
  process.on('uncaughtException', printAsync);
  process.on('unhandledRejection', printAsync);

  const lines = isTerminal ? null : queueLines(repl, activity);
  if (history) {
    try {
      await mkdir(dirname(history), { recursive: true, mode: 0o700 });
      repl.setupHistory(history, (error) => {
        if (error) process.stderr.write(`history will not be kept: ${error.message}\n`);
      });
    } catch (error) {
      process.stderr.write(`history will not be kept: ${(error as Error).message}\n`);
    }
  }

  const closed = new Promise<void>((resolve) => {
    repl.once('exit', () => {
      void (async () => {
        await lines?.drained();
        stopLive();
        await workbench.close().catch(() => undefined);
        resolve();
      })();
    });
  });
  // The first input should not wait for esbuild's helper process to start.
  void ready.then(() => setImmediate(warmUpTranspiler));
  return { repl, workbench, ready, closed };
}
