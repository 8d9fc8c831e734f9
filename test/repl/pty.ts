/**
 * Runs `node dist/cli.js repl …` in a real pseudo-terminal (node-pty), with `HOME` and `XDG_*` in
 * a temporary folder, and lets a test type into it and read the screen.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { Screen } from './screen.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
export const PROMPT = 'scratchlab> ';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07/g;

/** Output without ANSI escapes (and with CRLF as LF). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n/g, '\n');
}

export interface ReplProcessOptions {
  sandbox?: boolean;
  /** Extra environment (HOME and XDG_* point at the temporary folder unless given here). */
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** Use this folder as HOME (it is then not removed by `close`). */
  home?: string;
  /** Working directory (default: the repository). */
  cwd?: string;
  /** Milliseconds to wait for the first prompt (default 30 s: the sandbox seeds its data first). */
  startTimeout?: number;
  /**
   * Whether `start` also waits for the session to be open (the line saying who is logged in,
   * printed once the background start-up is done, and the prompt redrawn after it). Default true.
   */
  waitForSession?: boolean;
}

/** The line the REPL prints once its session is open, and the prompt drawn after it. */
export const SESSION_READY = /(logged in as|not logged in)[^\n]*\n[\s\S]*scratchlab> /;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a terminal shows between the echo of an input `line` and the next `prompt`, once that
 * prompt is drawn: `null` until then. The echo is the first row whose text, as last drawn (after
 * its last carriage return), ends with the line; an input typed without echo (a password) has
 * none, and then the answer starts at the first new line.
 */
export function answerAfterEcho(output: string, line: string, prompt: string): string | null {
  const trimmed = output.trimEnd();
  if (!trimmed.endsWith(prompt.trimEnd())) return null;
  const end = trimmed.length - prompt.trimEnd().length;
  const wanted = line.trimEnd();
  let start = -1;
  let rowStart = 0;
  for (;;) {
    const newline = output.indexOf('\n', rowStart);
    if (newline === -1 || newline >= end) break;
    const row = output.slice(rowStart, newline).replace(/\r+$/, '');
    if (
      row
        .slice(row.lastIndexOf('\r') + 1)
        .trimEnd()
        .endsWith(wanted)
    ) {
      start = newline + 1;
      break;
    }
    rowStart = newline + 1;
  }
  if (start === -1) start = output.indexOf('\n') + 1;
  if (start === 0 || start > end) return null;
  return output.slice(start, end).trimEnd();
}

/** A REPL in a pseudo-terminal. */
export class ReplProcess {
  readonly home: string;
  readonly screen: Screen;
  /** Everything the REPL wrote, escapes included. */
  raw = '';
  exitCode: number | null = null;
  readonly #pty: pty.IPty;
  readonly #ownHome: boolean;
  readonly #exited: Promise<number>;

  private constructor(options: ReplProcessOptions) {
    if (!existsSync(join(ROOT, 'dist', 'repl', 'cli.js'))) {
      throw new Error(
        'dist/repl/cli.js is missing: build first (npx tsc -p tsconfig.json && npx tsc -p repl/tsconfig.json)',
      );
    }
    this.#ownHome = options.home === undefined;
    this.home = options.home ?? mkdtempSync(join(tmpdir(), 'scratchlab-repl-'));
    const cols = options.cols ?? 120;
    const rows = options.rows ?? 40;
    this.screen = new Screen(cols, rows);
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      // Never let the machine's credentials (or a node option) leak into the child.
      if (value !== undefined && !/^(SCRATCH_|NODE_OPTIONS$|NO_COLOR$|FORCE_COLOR$)/.test(key))
        env[key] = value;
    }
    Object.assign(env, {
      HOME: this.home,
      XDG_CONFIG_HOME: join(this.home, 'config'),
      XDG_STATE_HOME: join(this.home, 'state'),
      TERM: 'xterm-256color',
      ...options.env,
    });
    const args = [CLI, 'repl', ...(options.sandbox ? ['--sandbox'] : [])];
    this.#pty = pty.spawn(process.execPath, args, {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: options.cwd ?? ROOT,
      env,
    });
    this.#pty.onData((data) => {
      this.raw += data;
      this.screen.write(data);
    });
    this.#exited = new Promise((resolve) =>
      this.#pty.onExit(({ exitCode }) => {
        this.exitCode = exitCode;
        resolve(exitCode);
      }),
    );
  }

  /** Starts a REPL without waiting for anything. */
  static spawn(options: ReplProcessOptions = {}): ReplProcess {
    return new ReplProcess(options);
  }

  /** Starts a REPL and waits for its first prompt. */
  static async start(options: ReplProcessOptions = {}): Promise<ReplProcess> {
    const repl = new ReplProcess(options);
    await repl.waitFor(
      () => stripAnsi(repl.raw).includes(PROMPT),
      options.startTimeout ?? 30_000,
      'the first prompt',
    );
    if (options.waitForSession !== false) {
      await repl.waitFor(
        () => SESSION_READY.test(stripAnsi(repl.raw)),
        options.startTimeout ?? 30_000,
        'the session',
      );
    }
    return repl;
  }

  /** Output since `offset` in `raw`, without escapes. */
  since(offset: number): string {
    return stripAnsi(this.raw.slice(offset));
  }

  /** Waits until `check()` is true. */
  async waitFor(check: () => boolean, timeout = 10_000, what = 'the condition'): Promise<void> {
    const end = Date.now() + timeout;
    while (!check()) {
      if (this.exitCode !== null)
        throw new Error(`the REPL exited (${this.exitCode}) waiting for ${what}:\n${this.screen.text()}`);
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}; screen:\n${this.screen.text()}`);
      await sleep(20);
    }
  }

  /** Sends keys as they are (`\r` is Enter, `\t` Tab, `\x03` Ctrl-C). */
  type(keys: string): void {
    this.#pty.write(keys);
  }

  /**
   * Types one line and Enter, waits for its answer and the next prompt, and answers what was
   * printed in between. The answer starts after the echo of the line itself, not after the first
   * new line: a live chart or a late message may redraw the prompt, or print rows, between the
   * keys and the echo.
   */
  async run(line: string, timeout = 15_000, prompt = PROMPT): Promise<string> {
    // From the start of the row the prompt is on: the echo is that row, prompt included.
    const offset = this.raw.lastIndexOf('\n') + 1;
    this.type(`${line}\r`);
    let answer: string | null = null;
    await this.waitFor(
      () => {
        // Moving to the first column (readline's redraw) starts the row again, as a carriage return.
        // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
        const shown = stripAnsi(this.raw.slice(offset).replace(/\x1b\[1?G/g, '\r'));
        answer = answerAfterEcho(shown, line, prompt);
        return answer !== null;
      },
      timeout,
      `the answer to ${JSON.stringify(line)} and the prompt after it`,
    );
    return answer ?? '';
  }

  /**
   * Runs a multi-line input as one, as a notebook cell runs (node's `.editor` mode, ended with
   * Ctrl-D), waits for the next prompt, and answers what it printed (the echoed input left out).
   */
  async runCell(source: string, timeout = 15_000): Promise<string> {
    const start = this.raw.length;
    this.type('.editor\r');
    await this.waitFor(() => this.since(start).includes('Entering editor mode'), timeout, 'the editor mode');
    this.type(source.split('\n').join('\r'));
    const last = source.split('\n').at(-1)!.trim();
    await this.waitFor(
      () => this.since(start).trimEnd().endsWith(last),
      timeout,
      `the echo of ${JSON.stringify(last)}`,
    );
    const offset = this.raw.length;
    this.type('\x04');
    const prompt = PROMPT.trimEnd();
    await this.waitFor(
      () => this.since(offset).trimEnd().endsWith(prompt),
      timeout,
      `the prompt after ${JSON.stringify(source)}`,
    );
    const out = this.since(offset).trimEnd();
    return out.slice(0, out.length - prompt.length).trim();
  }

  /**
   * The string value of `expression` in the REPL, read through a file so that it never appears in
   * the terminal (for secrets a test then checks the output never shows).
   */
  async secret(expression: string): Promise<string> {
    const file = join(this.home, `secret-${Date.now()}.txt`);
    await this.run(`fs.writeFileSync(${JSON.stringify(file)}, String(${expression}))`);
    return readFileSync(file, 'utf8');
  }

  /** Ends the REPL with Ctrl-D (then kills it if it lingers) and removes the temporary HOME. */
  async close(): Promise<number | null> {
    if (this.exitCode === null) {
      this.type('\x04');
      const timer = setTimeout(() => this.#pty.kill(), 5000);
      await this.#exited;
      clearTimeout(timer);
    }
    if (this.#ownHome) rmSync(this.home, { recursive: true, force: true });
    return this.exitCode;
  }

  /** Waits for the process to end by itself. */
  exited(): Promise<number> {
    return this.#exited;
  }
}
