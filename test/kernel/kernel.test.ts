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

  it('has the session, the sandbox, the exports and the helpers, and renders values', async () => {
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
    ];
    const { notebook } = await execute('behaviour', cells, { allowErrors: true });
    const c = notebook.cells;

    // The session prints redacted.
    expect(streams(c[0]!, 'stdout')).toMatch(
      /^Session \{ user: "demo_scratcher", loggedIn: true, .*xToken: \[redacted\]/,
    );
    // A record as a cell's value: one table bundle.
    expect(displays(c[1]!)).toHaveLength(1);
    expect(Object.keys(displays(c[1]!)[0]!.data!).sort()).toEqual(['text/html', 'text/plain']);
    expect(text(displays(c[1]!)[0]!.data!['text/html'] as string)).toContain('demo_scratcher');
    // A PagedList value is awaited: its first page as a table, which says it is a window.
    expect(text(displays(c[2]!)[0]!.data!['text/html'] as string)).toMatch(
      /users: first 40 — \.all\(\) fetches all/,
    );
    // show() in the middle of a cell.
    expect(displays(c[3]!)).toHaveLength(1);
    expect(streams(c[3]!, 'stdout')).toContain('after show');
    // Exports and types are visible.
    expect(streams(c[4]!, 'stdout')).toContain(
      "[ 'function', 'function', 'function', 'function', 'function' ]",
    );
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
    // An ApiError: one line, no stack.
    const apiError = streams(c[8]!, 'stderr');
    expect(apiError).toMatch(/^ApiError: GET http:\/\/127\.0\.0\.1:\d+\/api\/projects\/1 → 404: NotFound\n$/);
    // A type error is reported with its position.
    expect(streams(c[9]!, 'stderr')).toMatch(/1:7 - Type 'string' is not assignable to type 'number'/);
    // live(): one display, updated in place to the final chart.
    const liveOut = displays(c[10]!);
    expect(liveOut).toHaveLength(1);
    expect(Object.keys(liveOut[0]!.data!)).toContain('image/svg+xml');
    expect(text(liveOut[0]!.data!['text/plain'] as string)).toMatch(/score 40 \(5 changes\)\n\(stopped\)$/);
    expect(streams(c[11]!, 'stdout')).toBe('5\n');
    expect(streams(c[12]!, 'stdout')).not.toMatch(/token/i);

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
    expect(streams(notebook.cells[0]!, 'stdout')).toBe("[ false, 'https://scratch.mit.edu' ]\n");
    expect(streams(notebook.cells[1]!, 'stdout')).toBe('function\n');
  });
});
