/**
 * A terminal for tests: a private tmux server (its own socket, never the user's tmux) that runs a
 * command in a pane of a fixed size, takes keys, and shows its screen as a person sees it. Tests wait
 * for the text they expect on the screen, never for a time.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { toolPath } from '../support/tools.js';

const run = promisify(execFile);

/** Longest a tmux command may take (the server answers in milliseconds). */
const TMUX_TIMEOUT_MS = 10_000;
/** How often the screen is read while waiting. */
const POLL_MS = 50;
/** Most lines kept above the visible screen. */
const SCROLLBACK = 5_000;

/** A private tmux server; every session it starts has the size given here. */
export class Tmux {
  /** The server's socket, in a folder of its own (tmux leaves the file behind when it ends). */
  readonly socket: string;
  readonly #env: Record<string, string>;
  readonly #cols: number;
  readonly #rows: number;

  /** `env` is the whole environment of the panes (nothing of the test's own environment leaks in). */
  constructor(env: Record<string, string>, size: { cols: number; rows: number }) {
    // A short path under the system's temporary folder: a socket's path is limited to 107 bytes.
    this.socket = join(mkdtempSync(join(tmpdir(), 'scratchlab-tmux-')), 'socket');
    this.#env = env;
    this.#cols = size.cols;
    this.#rows = size.rows;
  }

  /** Runs one tmux command on this server. */
  async tmux(...args: string[]): Promise<string> {
    const { stdout } = await run(toolPath('tmux'), ['-S', this.socket, '-f', '/dev/null', ...args], {
      env: this.#env,
      timeout: TMUX_TIMEOUT_MS,
    });
    return stdout;
  }

  /**
   * Starts `argv` in a new session `name`, in `cwd`. The pane stays after the command ends
   * ("Pane is dead"), so its last screen can still be read.
   */
  async start(name: string, cwd: string, argv: string[]): Promise<void> {
    await this.tmux(
      'start-server',
      ';',
      'set-option',
      '-g',
      'remain-on-exit',
      'on',
      ';',
      'set-option',
      '-g',
      'history-limit',
      String(SCROLLBACK),
      ';',
      'new-session',
      '-d',
      '-s',
      name,
      '-c',
      cwd,
      '-x',
      String(this.#cols),
      '-y',
      String(this.#rows),
      ...argv,
    );
  }

  /** Types `text` as it is (no key names), without Enter. */
  async type(name: string, text: string): Promise<void> {
    // tmux reads an argument that ends with `;` as the end of its command, unless escaped.
    const literal = text.endsWith(';') ? `${text.slice(0, -1)}\\;` : text;
    await this.tmux('send-keys', '-t', name, '-l', literal);
  }

  /**
   * Types `line`, waits until the screen's last line shows it, then presses Enter: one batch of keys
   * at a time, as a person types. (jupyter console 6.4 reads keys that arrive while it waits for the
   * kernel inside a key handler into a nested event loop, and fails with "cannot enter context".)
   */
  async enter(name: string, line: string, timeoutMs = 30_000): Promise<void> {
    await this.type(name, line);
    await this.waitForScreen(
      name,
      (lines) => (lines.at(-1) ?? '').endsWith(line),
      `the echo of ${line}`,
      timeoutMs,
    );
    await this.press(name, 'Enter');
  }

  /** Presses keys by tmux's names (`Enter`, `Up`, `C-d`). */
  async press(name: string, ...keys: string[]): Promise<void> {
    await this.tmux('send-keys', '-t', name, ...keys);
  }

  /** The pane's lines, scrollback included, wrapped lines joined, without trailing blank lines. */
  async screen(name: string): Promise<string[]> {
    const text = await this.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', name);
    const lines = text.split('\n').map((line) => line.trimEnd());
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines;
  }

  /**
   * Waits until the screen of `name` passes `done`, and answers it; past `timeoutMs` it fails,
   * saying what it waited for and showing the screen.
   */
  waitForScreen(
    name: string,
    done: (lines: string[]) => boolean,
    what: string,
    timeoutMs = 30_000,
  ): Promise<string[]> {
    return this.#poll(name, what, timeoutMs, async () => {
      const lines = await this.screen(name);
      return done(lines) ? lines : null;
    });
  }

  /**
   * Waits until the command in `name` has ended, and answers its last screen. (tmux's own
   * "Pane is dead" line comes only once it has reaped the process, which may take long.)
   */
  waitForExit(name: string, what: string, timeoutMs = 30_000): Promise<string[]> {
    return this.#poll(name, what, timeoutMs, async () => {
      const dead = await this.tmux('display-message', '-p', '-t', name, '#{pane_dead}');
      return dead.trim() === '1' ? this.screen(name) : null;
    });
  }

  /** Calls `probe` until it answers something; past `timeoutMs` fails, showing the screen of `name`. */
  async #poll<T>(name: string, what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await probe();
      if (answer !== null) return answer;
      if (Date.now() > deadline)
        throw new Error(
          `waited ${timeoutMs} ms for ${what}; the screen:\n${(await this.screen(name)).join('\n')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Ends the server and everything running in it (it may have ended already), and removes its socket. */
  async kill(): Promise<void> {
    await this.tmux('kill-server').catch(() => undefined);
    rmSync(join(this.socket, '..'), { recursive: true, force: true });
  }
}
