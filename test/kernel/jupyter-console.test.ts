// `jupyter console --kernel scratchlab-sandbox`, Debian's terminal front end, driven in a private tmux
// as a person uses it: the screen holds the banner and prompts and nothing else (no kernel log, no
// warnings), a function typed line by line gets continuation prompts from is_complete, a record list
// is a text table, and after quitting and starting again, Up recalls the last session's cell from the
// kernel's history file; closing the terminal under the console leaves no kernel running. Every step
// waits for the text it expects on the screen.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { installed, toolPath } from '../support/tools.js';
import { installKernels, type JupyterHome, jupyterHome } from './jupyter.js';
import { Tmux } from './tmux.js';

const hasConsole = installed('jupyter-console', 'tmux');

/** The pane's size: wide enough for the projects table. */
const SIZE = { cols: 140, rows: 40 };
/** Longest wait for the console and its kernel to start (a busy machine, the sandbox seeding). */
const START_MS = 90_000;
/** Longest wait for one answer. */
const ANSWER_MS = 60_000;

/** The prompts jupyter console prints, in the default (IPython) style. */
const PROMPT = /^In \[(\d+)\]: ?(.*)$/;
const CONTINUATION = /^ {3}\.\.\.: ?(.*)$/;
/** The banner's second line: the session's state, which the kernel may know by the time it is asked. */
const SESSION_STATE =
  /^(session: starting in the background \(the first cell that uses it waits for it\)|logged in as demo_scratcher on the embedded sandbox)$/;

/** The banner's lines: the console's, then the kernel's (blank lines left out). */
const BANNER = [
  expect.stringMatching(/^Jupyter console \d+\.\d+\.\d+$/),
  expect.stringMatching(/^scratchlab \d+\.\d+\.\d+\S*: TypeScript \d+\.\d+\.\d+ on tslab$/),
  expect.stringMatching(SESSION_STATE),
];

/** The lines a console wrote: without blank lines and tmux's note that the pane's command ended (when shown). */
const written = (lines: string[]): string[] =>
  lines.filter((line) => line !== '' && !line.startsWith('Pane is dead'));

/** A cell whose answer is a record list. */
const TABLE_CELL = 'await session.users.projects(sandbox.samples.popularUser, { limit: 5 })';

/** A cell that can never be valid (it ends with `;`, which tmux's arguments treat apart). */
const INVALID_CELL = 'const x = ;';

/** Whether the screen ends at an empty input prompt `In [n]:`. */
const atPrompt =
  (n: number) =>
  (lines: string[]): boolean =>
    lines.at(-1) === `In [${n}]:`;

/** The lines after the last input line that ends with `input`, up to the end of the screen. */
function after(lines: string[], input: string): string[] {
  for (let i = lines.length - 1; i >= 0; i--) {
    if ((PROMPT.test(lines[i]!) || CONTINUATION.test(lines[i]!)) && lines[i]!.endsWith(input))
      return lines.slice(i + 1);
  }
  throw new Error(`no input line ending with ${JSON.stringify(input)} on the screen:\n${lines.join('\n')}`);
}

/** Process ids of the kernels started with a connection file in `runtimeDir` (a console's own kernels). */
function kernelsOf(runtimeDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(join('/proc', entry, 'cmdline'), 'utf8').split('\0');
      if (argv.some((arg) => arg.endsWith('launch.js')) && argv.some((arg) => arg.startsWith(runtimeDir)))
        pids.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return pids;
}

describe.skipIf(!hasConsole)('jupyter console with the sandbox kernel', () => {
  const fixture = useSandbox();
  let home: JupyterHome;
  let tmux: Tmux;
  /** Where the console (and so its kernel) runs: inside the project (tslab finds @types/node up the tree), out of its files. */
  let cwd: string;
  const consoleArgv = [toolPath('jupyter-console'), '--kernel', 'scratchlab-sandbox'];

  /** Waits until the kernel processes of this home have ended. */
  async function kernelsEnded(): Promise<void> {
    const deadline = Date.now() + ANSWER_MS;
    while (kernelsOf(home.env.JUPYTER_RUNTIME_DIR).length > 0) {
      if (Date.now() > deadline)
        throw new Error(`the kernel did not end within ${ANSWER_MS} ms of the console`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Quits the console in `pane` as a person does (Ctrl-D, then `y`), and waits for it and its kernel to end. */
  async function quit(pane: string): Promise<string[]> {
    await tmux.press(pane, 'C-d');
    await tmux.waitForScreen(
      pane,
      (lines) => lines.at(-1) === 'Do you really want to exit ([y]/n)?',
      'the question on Ctrl-D',
      ANSWER_MS,
    );
    await tmux.enter(pane, 'y');
    const lines = await tmux.waitForExit(pane, 'the console to end', ANSWER_MS);
    await kernelsEnded();
    return lines;
  }

  beforeAll(async () => {
    home = jupyterHome('jupyter-console');
    cwd = join(home.dir, 'work');
    mkdirSync(cwd);
    await installKernels(home);
    tmux = new Tmux(home.env, SIZE);
  });

  afterAll(async () => {
    await tmux?.kill();
    // Ending the server hangs up on a console still running; its kernel goes with it, or here.
    for (const pid of home ? kernelsOf(home.env.JUPYTER_RUNTIME_DIR) : []) process.kill(pid, 'SIGTERM');
  });

  it('starts with the banner and the first prompt, and nothing else', {
    timeout: START_MS + 10_000,
  }, async () => {
    await tmux.start('first', cwd, consoleArgv);
    const lines = await tmux.waitForScreen('first', atPrompt(1), 'the first prompt', START_MS);
    expect(lines).toEqual([BANNER[0], '', BANNER[1], BANNER[2], '', 'In [1]:']);
  });

  it('takes a function line by line, with continuation prompts and indents, and runs it', {
    timeout: 4 * ANSWER_MS,
  }, async () => {
    // Each Enter asks the kernel is_complete; an open block gets a continuation line indented one level.
    const typed = ['function twice(x: number) {', 'const y = x * 2', 'return y'];
    for (const [i, line] of typed.entries()) {
      await tmux.enter('first', line);
      await tmux.waitForScreen(
        'first',
        // An empty continuation line (its indent is trailing space, trimmed here).
        (lines) => lines.at(-1) === '   ...:',
        `the continuation prompt after line ${i + 1}`,
        ANSWER_MS,
      );
    }
    await tmux.enter('first', '}');
    let lines = await tmux.waitForScreen('first', atPrompt(2), 'the prompt after the function', ANSWER_MS);
    expect(lines.slice(-6)).toEqual([
      'In [1]: function twice(x: number) {',
      '   ...:   const y = x * 2',
      '   ...:   return y',
      '   ...:   }',
      '',
      'In [2]:',
    ]);

    await tmux.enter('first', 'twice(21)');
    lines = await tmux.waitForScreen('first', atPrompt(3), 'the answer of twice(21)', ANSWER_MS);
    expect(after(lines, 'twice(21)')).toEqual(['Out[2]: 42', '', 'In [3]:']);
  });

  it("shows a list of projects as a text table of the sandbox's projects", {
    timeout: 2 * ANSWER_MS,
  }, async () => {
    const user = fixture.sandbox.samples.popularUser;
    // The same seed as the kernel's sandbox, read through the client here.
    const expected = await fixture.anonymous().users.projects(user, { limit: 5 });
    expect(expected).toHaveLength(5);

    const input = TABLE_CELL;
    await tmux.enter('first', input);
    const lines = await tmux.waitForScreen('first', atPrompt(4), 'the table', ANSWER_MS);
    const answer = after(lines, input);
    expect(answer[0]).toBe('Out[3]:');
    expect(answer[1]).toMatch(/^ +id {2}title +author +views +loves +favorites +remixes +shared$/);
    expect(answer[2]).toMatch(/^[─ ]+$/);
    const rows = answer.slice(3, 8);
    for (const [i, project] of expected.entries()) {
      const cells = rows[i]!.split(/ {2,}/);
      expect(cells.slice(0, 6)).toEqual([
        String(project.id),
        project.title,
        user,
        project.stats.views.toLocaleString('en-US'),
        project.stats.loves.toLocaleString('en-US'),
        project.stats.favorites.toLocaleString('en-US'),
      ]);
    }
    expect(answer.slice(8)).toEqual(['first 5 — .all() fetches all', '', 'In [4]:']);
  });

  it('runs code that can never be valid at once, showing its syntax error where it is', {
    timeout: ANSWER_MS + 10_000,
  }, async () => {
    // is_complete answers `invalid`, not `incomplete`: no continuation line that nothing could close.
    await tmux.enter('first', INVALID_CELL);
    const lines = await tmux.waitForScreen('first', atPrompt(5), 'the syntax error', ANSWER_MS);
    expect(after(lines, INVALID_CELL)).toEqual([
      'Cell In[4], line 1, column 11',
      `    ${INVALID_CELL}`,
      `    ${' '.repeat(10)}^`,
      expect.stringMatching(/^error: .*";"/),
      '',
      'In [5]:',
    ]);
  });

  it('recalls the last cell with Up after the console is quit and started again, and runs it', {
    timeout: START_MS + 6 * ANSWER_MS,
  }, async () => {
    const cell = "[...'yesterday'].length * 6";
    await tmux.enter('first', cell);
    let lines = await tmux.waitForScreen('first', atPrompt(6), `the answer of ${cell}`, ANSWER_MS);
    expect(after(lines, cell)).toEqual(['Out[5]: 54', '', 'In [6]:']);

    lines = await quit('first');
    // The whole first session: banner, inputs and answers, and no line from anywhere else.
    expect(written(lines)).toEqual([
      ...BANNER,
      'In [1]: function twice(x: number) {',
      '   ...:   const y = x * 2',
      '   ...:   return y',
      '   ...:   }',
      'In [2]: twice(21)',
      'Out[2]: 42',
      `In [3]: ${TABLE_CELL}`,
      'Out[3]:',
      ...Array.from({ length: 7 }, () => expect.any(String)), // the table, checked above
      'first 5 — .all() fetches all',
      `In [4]: ${INVALID_CELL}`,
      ...Array.from({ length: 4 }, () => expect.any(String)), // the syntax error, checked above
      `In [5]: ${cell}`,
      'Out[5]: 54',
      'In [6]:',
      'Do you really want to exit ([y]/n)? y',
      'Shutting down kernel',
    ]);

    await tmux.start('second', cwd, consoleArgv);
    await tmux.waitForScreen('second', atPrompt(1), 'the first prompt after the restart', START_MS);
    await tmux.press('second', 'Up');
    lines = await tmux.waitForScreen(
      'second',
      (lines) => lines.at(-1) === `In [1]: ${cell}`,
      "the last session's cell on Up",
      ANSWER_MS,
    );
    expect(lines).toEqual([BANNER[0], '', BANNER[1], BANNER[2], '', `In [1]: ${cell}`]);
    await tmux.press('second', 'Enter');
    lines = await tmux.waitForScreen('second', atPrompt(2), 'the recalled cell to run', ANSWER_MS);
    expect(after(lines, cell)).toEqual(['Out[1]: 54', '', 'In [2]:']);

    // The second console quits as cleanly, and leaves no kernel behind.
    lines = await quit('second');
    expect(written(lines)).toEqual([
      ...BANNER,
      `In [1]: ${cell}`,
      'Out[1]: 54',
      'In [2]:',
      'Do you really want to exit ([y]/n)? y',
      'Shutting down kernel',
    ]);
  });

  it('quits on `exit`, as with IPython, and its kernel ends', {
    timeout: START_MS + 2 * ANSWER_MS,
  }, async () => {
    await tmux.start('exit', cwd, consoleArgv);
    await tmux.waitForScreen('exit', atPrompt(1), 'the first prompt', START_MS);
    await tmux.enter('exit', 'exit');
    const lines = await tmux.waitForExit('exit', 'the console to end on exit', ANSWER_MS);
    await kernelsEnded();
    expect(lines.join('\n')).not.toMatch(/Error|is not defined|warning/);
    expect(written(lines)).toContain('In [1]: exit');
  });

  it('leaves no kernel behind when its terminal is closed under it', {
    timeout: START_MS + ANSWER_MS,
  }, async () => {
    await tmux.start('third', cwd, consoleArgv);
    await tmux.waitForScreen('third', atPrompt(1), 'the first prompt', START_MS);
    expect(kernelsOf(home.env.JUPYTER_RUNTIME_DIR)).toHaveLength(1);
    // The terminal goes: the console is hung up on and cannot ask its kernel to shut down.
    await tmux.tmux('kill-session', '-t', 'third');
    await kernelsEnded();
  });
});
