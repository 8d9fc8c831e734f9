// The kernel as Jupyter runs it: nbconvert executes generated notebooks on the installed kernels and
// the outputs are checked cell by cell.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type Cell,
  executeNotebook,
  hasJupyter,
  installKernels,
  type JupyterHome,
  jupyterHome,
  makeNotebook,
  text,
  writeNotebook,
} from './jupyter.js';
import { SECRET_PATTERNS } from './secrets.js';

const VEGA_LITE = 'application/vnd.vegalite.v5+json';

const streams = (cell: Cell, name: 'stdout' | 'stderr') =>
  (cell.outputs ?? [])
    .filter((o) => o.output_type === 'stream' && o.name === name)
    .map((o) => text(o.text))
    .join('');
const displays = (cell: Cell) => (cell.outputs ?? []).filter((o) => o.output_type === 'display_data');
/** The cell's `Out[n]` bundle. */
const result = (cell: Cell) => {
  const found = (cell.outputs ?? []).filter((o) => o.output_type === 'execute_result');
  expect(found.length, JSON.stringify(cell.outputs)).toBe(1);
  return found[0]!.data as Record<string, string | string[]>;
};
const plain = (cell: Cell) => text(result(cell)['text/plain']);
const errorOf = (cell: Cell) =>
  (cell.outputs ?? []).find((o) => o.output_type === 'error') as
    | { ename: string; evalue: string; traceback: string[] }
    | undefined;

describe.skipIf(!hasJupyter)('the kernel under Jupyter', () => {
  let home: JupyterHome;
  /** Notebooks must sit inside the npm project (tslab finds @types/node from the kernel's folder). */
  let folder: string;

  beforeAll(async () => {
    home = jupyterHome('kernel');
    folder = join(home.dir, 'notebooks');
    await installKernels(home);
  });

  const execute = async (
    name: string,
    cells: string[],
    options: { kernel?: string; allowErrors?: boolean } = {},
  ) => {
    const path = join(folder, `${name}.ipynb`);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder, { recursive: true });
    writeNotebook(path, makeNotebook(cells, options.kernel));
    return executeNotebook(home, path, { allowErrors: options.allowErrors });
  };

  it('has the session, the sandbox, the exports and the helpers, and renders values', {
    timeout: 90_000,
  }, async () => {
    const cells = [
      /* 0 */ 'session',
      /* 1 */ 'const me: User = await session.users.get(session.username!);\nme',
      /* 2 */ 'session.users.followers(sandbox.samples.popularUser)',
      /* 3 */ "show(await session.studios.get(sandbox.samples.studio));\n'after show'",
      /* 4 */ 'const n: number = sandbox.samples.studio; const s: Session = session; [typeof Session, typeof ApiError, typeof PagedList, typeof scratchlab.Session, typeof Cloud]',
      /* 5 */ [
        'const t0 = Date.UTC(2024, 0, 1);',
        "const logs: CloudLogEntry[] = Array.from({ length: 1000 }, (_, i) => ({ user: 'u' + (i % 7), verb: 'set' as const, name: i % 3 ? 'score' : 'level', value: String(i), timestamp: t0 + i * 1000 }));",
        'await plot(logs)',
      ].join('\n'),
      /* 6 */ 'show(session.users.projects(session.username!, { limit: 3 })); // not awaited',
      /* 7 */ 'show([1, 2, 3]); plot(Promise.resolve([] as CloudLogEntry[]))',
      /* 8 */ 'await session.projects.get(1)',
      /* 9 */ "const wrong: number = 'text';",
      /* 10 */ [
        "const { EventEmitter } = await import('node:events');",
        'const feed = new EventEmitter();',
        "const handle = live(feed as never, { window: 10, title: 'Test feed' });",
      ].join('\n'),
      /* 11 */ [
        "for (let i = 0; i < 5; i++) { feed.emit('set', { name: 'score', value: String(i * 10) }); await new Promise((r) => setTimeout(r, 100)); }",
        'await handle.stop();',
        'handle.data.length',
      ].join('\n'),
      /* 12 */ 'JSON.stringify(session)',
      /* 13 */ '(await session.users.followers(sandbox.samples.popularUser, { limit: 800 }).all()).length',
      // The helpers' types are the real ones: a field the hand-written copy lacked type-checks.
      /* 14 */ 'const skipped: number = handle.skipped;\nskipped',
    ];
    const { notebook } = await execute('behaviour', cells, { allowErrors: true });
    const c = notebook.cells;

    // Every code cell has its count: In [n] / Out[n].
    expect(c.map((cell) => (cell as unknown as { execution_count: number }).execution_count)).toEqual(
      c.map((_, i) => i + 1),
    );
    // The session prints redacted, as the cell's value.
    expect(plain(c[0]!)).toMatch(
      /^Session \{ user: "demo_scratcher", loggedIn: true, .*xToken: \[redacted\]/,
    );
    expect(streams(c[0]!, 'stdout')).toBe('');
    // A record as a cell's value: one table bundle, as Out[2].
    expect(Object.keys(result(c[1]!)).sort()).toEqual(['text/html', 'text/plain']);
    expect(text(result(c[1]!)['text/html'])).toContain('demo_scratcher');
    // A PagedList value is awaited: its first page as a table.
    expect(text(result(c[2]!)['text/html'])).toMatch(/users: first 40 — \.all\(\) fetches all/);
    // show() in the middle of a cell, then the cell's value.
    expect(displays(c[3]!)).toHaveLength(1);
    expect(plain(c[3]!)).toBe("'after show'");
    // Exports and types are visible.
    expect(plain(c[4]!)).toBe("[ 'function', 'function', 'function', 'function', 'function' ]");
    // plot: one bundle of three MIME types.
    const chart = displays(c[5]!);
    expect(chart).toHaveLength(1);
    expect(Object.keys(chart[0]!.data!).sort()).toEqual([VEGA_LITE, 'image/svg+xml', 'text/plain'].sort());
    expect(text(chart[0]!.data!['image/svg+xml'] as string)).toMatch(/^<svg/);
    expect(text(chart[0]!.data!['text/plain'] as string)).toMatch(/^1,000 cloud log entries/);
    // Un-awaited show()/plot(): the cell waits for them, and their promises print nothing.
    expect(displays(c[6]!)).toHaveLength(1);
    expect(displays(c[7]!)).toHaveLength(2);
    expect(streams(c[7]!, 'stdout')).toBe('');
    // An ApiError: one line, no stack, as an error output (not stderr).
    expect(errorOf(c[8]!)?.traceback).toEqual([
      expect.stringMatching(/^ApiError: GET http:\/\/127\.0\.0\.1:\d+\/api\/projects\/1 → 404: NotFound$/),
    ]);
    expect(streams(c[8]!, 'stderr')).toBe('');
    // A type error does not stop the cell: a warning under it names its cell, line and column.
    expect(errorOf(c[9]!)).toBeUndefined();
    expect(streams(c[9]!, 'stderr')).toBe(
      "Cell In[10], line 1, column 7: warning TS2322: Type 'string' is not assignable to type 'number'.\n" +
        "    const wrong: number = 'text';\n" +
        '          ^\n',
    );
    // live(): one display, updated in place to the final chart.
    const liveOut = displays(c[10]!);
    expect(liveOut).toHaveLength(1);
    expect(Object.keys(liveOut[0]!.data!)).toContain('image/svg+xml');
    expect(text(liveOut[0]!.data!['text/plain'] as string)).toMatch(/score 40 \(5 changes\)\n\(stopped\)$/);
    expect(plain(c[11]!)).toBe('5');
    expect(plain(c[12]!)).not.toMatch(/token/i);
    // A walk long enough to show progress: one output, updated in place, kept as a summary.
    expect(plain(c[13]!)).toBe('800');
    expect(errorOf(c[14]!)).toBeUndefined();
    expect(plain(c[14]!)).toBe('0');
    const progress = displays(c[13]!);
    expect(progress).toHaveLength(1);
    expect(text(progress[0]!.data!['text/plain'] as string)).toMatch(
      /^all pages: 800 rows · 20 pages · [\d.]+ s \(done\)$/,
    );

    const all = JSON.stringify(notebook);
    for (const pattern of SECRET_PATTERNS) expect(all).not.toMatch(pattern);
  });

  it('fails a cell with the reason in the execute reply (what nbconvert reports)', async () => {
    await expect(execute('failing', ['1 + 1', "await session.users.get('nobody_here_x')"])).rejects.toThrow(
      /ApiError: GET http:\/\/127\.0\.0\.1:\d+\/api\/users\/nobody_here_x → 404/,
    );
  });

  it('catches secrets with its patterns when a cell does print them (control)', async () => {
    const { notebook } = await execute('leaky', [
      'session.xToken',
      "session.jar.getCookieStringSync(session.siteHost).split('; ').find((c) => c.startsWith('scratchsessionsid='))",
    ]);
    const all = JSON.stringify(notebook);
    for (const pattern of SECRET_PATTERNS) expect(all).toMatch(pattern);
  });

  it('starts the site kernel without a saved session as anonymous, without network', async () => {
    const { notebook } = await execute('site', ['[session.loggedIn, session.siteHost]', 'typeof ApiError'], {
      kernel: 'scratchlab',
    });
    expect(plain(notebook.cells[0]!)).toBe("[ false, 'https://scratch.mit.edu' ]");
    expect(plain(notebook.cells[1]!)).toBe("'function'");
  });

  it('on the site kernel, explains a LoginRequiredError with the environment variables, never a password in a cell', async () => {
    const { notebook } = await execute('login-required', ["session.requireAuth('reading your messages')"], {
      kernel: 'scratchlab',
      allowErrors: true,
    });
    const error = errorOf(notebook.cells[0]!);
    expect(error?.ename).toBe('LoginRequiredError');
    const shown = [error?.evalue, ...(error?.traceback ?? [])].join('\n');
    expect(shown).toMatch(/SCRATCH_USERNAME and SCRATCH_PASSWORD/);
    expect(shown).not.toMatch(/session\.login\(|password\)/);
  });
});
