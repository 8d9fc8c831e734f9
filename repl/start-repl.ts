/**
 * Starting the REPL: print the banner and show the prompt first, then, while the user types, open
 * the workbench (the sandbox, a saved or real login) and load the rich layer (SDK globals, tables,
 * charts). The first input waits for the rich layer, and for the session only if it names
 * `session` or `sandbox`.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writer as nodeWriter, type REPLServer, start } from 'node:repl';
import { inspect } from 'node:util';
import { Script } from 'node:vm';
import type { Session } from 'scratchlab';
import type { Workbench } from 'scratchlab/workbench';
import { OutputNotes } from './display/display.js';
import { installCompletionFilter } from './evaluation/completion.js';
import { createEvaluator } from './evaluation/evaluate.js';
import { installGlobals, setGlobal } from './evaluation/globals.js';
import { warmUpTranspiler } from './evaluation/transpile.js';
import { defineCommands, whoami as whoamiText } from './session/commands.js';
import { openSession } from './session/open-session.js';
import { Activity } from './terminal/activity.js';
import { banner } from './terminal/banner.js';
import { queueLines } from './terminal/line-queue.js';
import { style } from './terminal/style.js';
import { processTerminal } from './terminal/terminal.js';
import type { Toolkit } from './toolkit.js';

/** Inputs that name these wait for the session (and the sandbox) to be ready. */
const NEEDS_SESSION = /\b(session|sandbox)\b/;

/** Options of {@link startRepl}. */
export interface StartReplOptions {
  /** Start the embedded sandbox and log in its demo account. */
  sandbox?: boolean;
  /** Environment (`SCRATCH_USERNAME`, `SCRATCH_PASSWORD`, `HOME`, `XDG_*`, `NO_COLOR`). */
  env?: Record<string, string | undefined>;
  /**
   * The session: one already being opened, or how to open it (called once the prompt is shown).
   * By default `openSession` is called with `sandbox` and `env`.
   */
  workbench?: Promise<Workbench> | (() => Promise<Workbench>);
}

/** A running REPL. */
export interface RunningRepl {
  repl: REPLServer;
  /** Settles once the session (and the sandbox, if any) is ready. */
  workbench: Promise<Workbench>;
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

  let session: Session | undefined;

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

  const sandboxed = options.sandbox === true;
  output.write(banner({ sandbox: sandboxed, color }));
  let workbench!: Promise<Workbench>;

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
      prerequisite: (code) => (NEEDS_SESSION.test(code) ? workbench : undefined),
      afterEach: () => noticeNewSession(),
    }),
  });
  installCompletionFilter(repl);

  // The prompt is on screen: now the slow parts, in the background.
  const given = options.workbench ?? (() => openSession({ sandbox: sandboxed, env, terminal }));
  workbench = typeof given === 'function' ? given() : given;
  const say = (text: string) => {
    if (!isTerminal) return void output.write(`${text}\n`);
    // Above the prompt when it is shown; in the flow of output while an input runs.
    output.write(`\r\x1b[K${text}\n`);
    if (!activity.busy) repl.displayPrompt(true);
  };
  const opened = workbench.then(
    (bench) => {
      session = bench.session;
      installGlobals({}, { session, ...(bench.sandbox ? { sandbox: bench.sandbox } : {}) });
      say(paint.dim(bench.description));
      return bench;
    },
    (error: unknown) => {
      say(paint.red(`could not start: ${error instanceof Error ? error.message : String(error)}`));
      repl.close();
      process.exitCode = 1;
      return null;
    },
  );
  const current = async (): Promise<Session> => {
    await workbench;
    return session!;
  };

  /** `const session = new Session()` at the prompt: the prompt's session is that one now. */
  let SessionClass: (new (...args: never[]) => Session) | undefined;
  const readSession = new Script('typeof session === "undefined" ? undefined : session');
  const noticeNewSession = () => {
    if (!SessionClass || session === undefined) return;
    let seen: unknown;
    try {
      seen = readSession.runInThisContext();
    } catch {
      return; // `let session` declared and not yet initialised
    }
    if (seen === session || !(seen instanceof SessionClass)) return;
    session = seen;
    output.write(
      `${paint.yellow('note:')} \`session\` is now the Session made at the prompt (${whoamiText(seen)}); the preloaded one is no longer used (.whoami reports this one)\n`,
    );
  };

  // Defined before any await: a command typed at once must find them.
  const commands = {
    current,
    replace: (next: Session) => {
      session = next;
      setGlobal('session', next);
    },
    sandbox: () => opened.then((bench) => bench?.sandbox ?? null),
    env,
    terminal: terminal.prompt,
    activity,
    color,
    historyFile: null as string | null,
  };
  defineCommands(repl, commands);

  const ready = import('./toolkit.js').then(
    ({ createToolkit }) => {
      const built = createToolkit({
        output,
        others: [process.stderr],
        activity,
        notes,
        color,
        isTerminal,
        size,
        cursorRow: () => repl.getCursorPos().rows,
        redrawPrompt: () => repl.displayPrompt(true),
      });
      write = built.writer;
      stopLive = built.stopLive;
      SessionClass = built.sdk.Session as typeof SessionClass;
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
    if (stopLive() > 0) {
      // The chart is stopped; the half-typed line goes too, as a Ctrl-C at the prompt would.
      (repl as REPLServer & { clearLine(): void }).clearLine();
      repl.clearBufferedCommand();
      repl.displayPrompt();
      return;
    }
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
  const history = isTerminal ? (await import('scratchlab/workbench')).historyFile(env) : null;
  commands.historyFile = history;
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
        // Recorders store what they received and loads finish their move before the store closes.
        const unstored = await (await toolkit.catch(() => null))?.closeStore().catch((error: unknown) => {
          process.stderr.write(`the store did not close cleanly: ${String(error)}\n`);
          return 0;
        });
        if (unstored) process.stderr.write(`${unstored} received cloud sets could not be stored\n`);
        await (await opened)?.close().catch(() => undefined);
        resolve();
      })();
    });
  });
  // The first input should not wait for esbuild's helper process to start.
  void ready.then(() => setImmediate(warmUpTranspiler));
  return { repl, workbench, ready, closed };
}
