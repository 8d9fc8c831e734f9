// The kernel's parts in-process (no Jupyter): the preload, the package bridge, display bundles,
// tracebacks, Shift-Tab help, display() and pending displays.
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chartBundle, resultBundle, tableBundle } from '../../kernel/display/display.js';
import { createDisplay } from '../../kernel/display/display-helper.js';
import { plotBundle, valueBundle } from '../../kernel/display/helpers.js';
import { createLive, RunningLives } from '../../kernel/display/live.js';
import { PendingDisplays } from '../../kernel/display/pending-displays.js';
import type { CellRunner } from '../../kernel/execution/cell-runner.js';
import { cellScript } from '../../kernel/execution/cell-script.js';
import { exportedNames } from '../../kernel/execution/exported-names.js';
import { mainDeclarations, virtualDeclarations } from '../../kernel/execution/package-resolution.js';
import {
  defineGlobals,
  GLOBAL_HELPERS,
  globalExports,
  globalsDeclarations,
  KERNEL_GLOBAL_KEY,
  PRELOAD_NAMES,
  preloadSource,
} from '../../kernel/execution/preload.js';
import { quickInfoText } from '../../kernel/protocol/quick-info.js';
import {
  CellSources,
  cellError,
  diagnosticsError,
  sourceLineOf,
  stackFrames,
} from '../../kernel/protocol/traceback.js';
import { type DisplayMessage, jupyter, tslabTypeScript } from '../../kernel/tslab.js';
import * as sdk from '../../src/index.js';
import { logsChartSpec, VEGA_LITE_MIME } from '../../src/presentation/index.js';
import { SessionTable } from '../../src/sandbox/state/sessions.js';
import { waitFor } from '../cloud/support.js';
import { bigLog, project, user } from '../presentation/records.js';
import { testRunner } from './runner.js';
import { SESSION_ID, X_TOKEN } from './secrets.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Collects what would go to the notebook, in place of tslab's iopub writer. */
function captureDisplays(): DisplayMessage[] {
  const sent: DisplayMessage[] = [];
  jupyter.lastWriteDisplayData = (message, update) => {
    sent.push({ ...message, metadata: { ...message.metadata, update } });
  };
  return sent;
}

afterEach(() => {
  jupyter.lastWriteDisplayData = null;
  vi.restoreAllMocks();
});

describe('preload', () => {
  const names = exportedNames(tslabTypeScript(), mainDeclarations(ROOT));

  it('exposes every export of the package, values and types alike', () => {
    for (const name of [
      'Session',
      'ApiError',
      'LoginRequiredError',
      'PagedList',
      'User',
      'Project',
      'Studio',
    ])
      expect(names).toContain(name);
    // Every runtime export is found too, so later ones (e.g. Cloud) appear without kernel changes.
    for (const name of Object.keys(sdk)) expect(names).toContain(name);
  });

  it('keeps the preload to the namespace and the session, and no name starting with __', () => {
    const source = preloadSource({ sandbox: true });
    expect(source.split('\n')).toEqual([
      'import * as scratchlab from "scratchlab/kernel-globals";',
      `const session: import("scratchlab/kernel-globals").Session = Reflect.get(globalThis, Symbol.for("${KERNEL_GLOBAL_KEY}")).session;`,
      `const sandbox: import('scratchlab/sandbox').Sandbox = Reflect.get(globalThis, Symbol.for("${KERNEL_GLOBAL_KEY}")).sandbox;`,
    ]);
    expect(source).not.toMatch(/(^|[\s{,(])__\w+/);
    // A cell that took a name before the preload ran keeps it; the namespace then has another.
    const late = preloadSource({ sandbox: false, declared: new Set(['scratchlab', 'session']) });
    expect(late).toBe('import * as scratchlab_kernel from "scratchlab/kernel-globals";');
  });

  it('declares every export and the helpers as globals, with types', () => {
    const text = globalsDeclarations([...names, 'show', 'default', 'not-an-identifier']);
    expect(text).toContain('import * as scratchlab from "scratchlab";');
    expect(text).toContain('export * from "scratchlab";');
    const aliased = [...text.matchAll(/^ {2}export import (\w+) = scratchlab\.\1;$/gm)].map((m) => m[1]);
    expect(aliased).toEqual(names.filter((n) => !PRELOAD_NAMES.includes(n)));
    // The helpers' types are the package's own, which the kernel implements: nothing to drift.
    for (const [helper, type] of Object.entries({
      show: 'Show',
      plot: 'Plot',
      live: 'Live',
      display: 'Display',
    }))
      expect(text).toContain(`\n  const ${helper}: import('scratchlab/presentation').${type};\n`);
    expect(globalExports(['show', 'default', 'a-b', 'Session'])).toEqual(['Session']);
  });

  it('defines the runtime exports and helpers on globalThis, hidden, never over an existing global', () => {
    const show = () => {};
    const defined = ['ApiError', 'Session', ...GLOBAL_HELPERS, 'Map'];
    const before = defined.map((name) => Object.getOwnPropertyDescriptor(globalThis, name));
    try {
      defineGlobals(
        { ApiError: sdk.ApiError, Session: sdk.Session, Map: 1 },
        ['ApiError', 'Session', 'User', 'Map'],
        {
          show,
          plot: 2,
          live: 3,
          display: 4,
          store: 5,
          sql: 6,
          md: 7,
          html: 8,
          svg: 9,
          image: 10,
          clearOutput: 11,
        },
      );
      const g = globalThis as Record<string, unknown>;
      expect(g.ApiError).toBe(sdk.ApiError);
      expect(g.Session).toBe(sdk.Session);
      expect(g.show).toBe(show);
      expect(g.display).toBe(4);
      expect(g.store).toBe(5);
      expect(g.sql).toBe(6);
      expect(g.clearOutput).toBe(11);
      expect('User' in globalThis).toBe(false); // a type only
      expect(g.Map).toBe(Map);
      expect(Object.keys(globalThis)).not.toContain('ApiError');
    } finally {
      defined.forEach((name, i) => {
        if (name === 'Map') return;
        const descriptor = before[i];
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else Reflect.deleteProperty(globalThis, name);
      });
    }
  });

  it('declares sandbox only for the sandbox kernel', () => {
    expect(preloadSource({ sandbox: false })).not.toContain('const sandbox');
    expect(preloadSource({ sandbox: true })).toContain("const sandbox: import('scratchlab/sandbox').Sandbox");
  });
});

/** A cell runner on tslab's executor, as the kernel makes it, for `work`. */
async function withRunner(work: (runner: CellRunner) => Promise<void>): Promise<void> {
  const { runner, close } = testRunner();
  try {
    await work(runner);
  } finally {
    close();
  }
}

describe('cell runner', () => {
  it('runs a background preload after the cell that is executing, keeping the declarations of both', async () => {
    await withRunner(async (runner) => {
      // The cell awaits until the test lets it go: it hands out its release once it is awaiting.
      const handle = globalThis as { letCellGo?: () => void };
      const slow = runner.run(
        'const fromCell = 40;\nawait new Promise((r) => { globalThis.letCellGo = r; });\nfromCell',
        1,
      );
      await waitFor(() => handle.letCellGo, 'the cell to be awaiting');
      const preloaded = runner.preload('const fromPreload = 2;');
      handle.letCellGo!();
      delete handle.letCellGo;
      expect(await slow).toEqual({ status: 'ok', result: { 'text/plain': '40' } });
      expect(await preloaded).toEqual([]);
      expect(await runner.run('fromCell + fromPreload', 2)).toEqual({
        status: 'ok',
        result: { 'text/plain': '42' },
      });
    });
  }, 30_000);
});

describe('top-level await', () => {
  const awaitsAtTopLevel = async (source: string) => (await cellScript(source)).hasToplevelAwait;

  it('is decided from the syntax tree, `await (…)` and `for await` included, functions left out', async () => {
    for (const source of [
      'const j = await (await fetch(url)).json();',
      'await (x as any)',
      'await (<any>x)',
      'await (ok ? a : b)',
      'await [a][0]',
      'for await (const x of list) n++;',
      'if (ready) {\n  label: for (const p of await (list as any)) break label;\n}',
      'class A { [await (key)] = 1; [await (other)]() {} }',
      'class B { @log(await (level)) m() {} }',
      'class C { m(@arg(await (x)) p: number) {} }',
    ])
      expect(await awaitsAtTopLevel(source), source).toBe(true);
    for (const source of [
      'const a = 1;',
      '// await (later)',
      "const s = 'await (x)'; x.await(1)",
      'async function f() { await (x); for await (const y of z); }',
      'const g = async () => await (x);',
      'class A { async m() { await (x) } static { } }',
      'class B { @log(level) async m() { await (x) } }',
    ])
      expect(await awaitsAtTopLevel(source), source).toBe(false);
  });

  it('runs the cells that await in an async function, with their values and their errors at their lines', async () => {
    await withRunner(async (runner) => {
      const value = async (code: string, count: number) => {
        const outcome = await runner.run(code, count);
        expect(outcome, code).toMatchObject({ status: 'ok' });
        return (outcome as { result: Record<string, string> | null }).result?.['text/plain'];
      };
      await value(
        'const x: unknown = Promise.resolve(2); const ok = true; const response = { json: async () => 40 };',
        1,
      );
      expect(await value('const j = await (await Promise.resolve(response)).json();\nj', 2)).toBe('40');
      expect(await value('await (x as any)', 3)).toBe('2');
      expect(await value('await (<any>x)', 4)).toBe('2');
      expect(await value('await (ok ? x : 0)', 5)).toBe('2');
      expect(await value('let sum = 0;\nfor await (const n of [x, 3]) sum += n as number;\nsum', 6)).toBe(
        '5',
      );
      const failed = await runner.run(
        "const list = [1];\nfor await (const n of list) {\n  JSON.parse('{');\n}",
        7,
      );
      expect(failed).toMatchObject({ status: 'error', ename: 'SyntaxError' });
      expect((failed as { traceback: string[] }).traceback[0]).toMatch(/^Cell In\[7\], line 3\n/);
      // A decorator's argument is evaluated where its class is (tslab compiles it to `__decorate`).
      const decorated = [
        'const tags: string[] = [];',
        'const tag = (name: string) => (_: object, key: string) => void tags.push(key + ":" + name);',
        'class Tagged { @tag(await (Promise.resolve("t"))) m() {} }',
        'tags.join()',
      ].join('\n');
      expect(await value(decorated, 8)).toBe("'m:t'");
    });
  }, 30_000);
});

describe('package resolution for cells', () => {
  it("finds the main declarations from the package's exports", () => {
    expect(mainDeclarations(ROOT)).toBe(join(ROOT, 'dist', 'index.d.ts'));
  });

  it('re-exports the declarations of every entry point from node_modules/scratchlab', () => {
    const files = virtualDeclarations(ROOT, '/nb/node_modules/scratchlab');
    expect(JSON.parse(files.get('/nb/node_modules/scratchlab/package.json')!)).toMatchObject({
      name: 'scratchlab',
      types: 'index.d.ts',
    });
    expect(files.get('/nb/node_modules/scratchlab/index.d.ts')).toBe(
      `export * from ${JSON.stringify(join(ROOT, 'dist', 'index'))};\n`,
    );
    for (const sub of ['sandbox', 'presentation', 'workbench']) {
      expect(files.get(`/nb/node_modules/scratchlab/${sub}.d.ts`)).toBe(
        `export * from ${JSON.stringify(join(ROOT, 'dist', sub, 'index'))};\n`,
      );
    }
  });
});

describe('display bundles', () => {
  it('shows records as an HTML table with a plain-text twin, and nothing else as a table', () => {
    const bundle = tableBundle([user(1, 'alice'), user(2, 'bob')], { siteUrl: 'https://scratch.mit.edu' })!;
    expect(Object.keys(bundle).sort()).toEqual(['text/html', 'text/plain']);
    expect(bundle['text/html']).toContain('<table');
    expect(bundle['text/html']).toContain('href="https://scratch.mit.edu/users/alice/"');
    expect(bundle['text/plain']).toMatch(/alice/);
    expect(tableBundle([1, 2])).toBeNull();
    expect(tableBundle({ a: 1 })).toBeNull();
  });

  it('shows other arrays of objects as tables too (show only), and the rest as text', () => {
    const rows = valueBundle(
      [
        { title: 'A', loves: 1 },
        { title: 'B', loves: 2 },
      ],
      undefined,
      { rows: 1 },
    );
    expect(rows['text/html']).toContain('1 of 2 rows');
    expect(valueBundle('plain words', undefined)).toEqual({ 'text/plain': 'plain words' });
    expect(valueBundle([], undefined, { kind: 'project' })['text/html']).toContain(
      '<caption>no results</caption>',
    );
  });

  it("shows a plain object's secrets redacted, as the REPL does (a cell's value, show, display)", async () => {
    const answer = { username: 'alice', token: 'tok-12345678', nested: { password: 'pw-12345678' } };
    for (const bundle of [
      await resultBundle(answer, { quoteStrings: true }),
      valueBundle(answer, undefined),
      await resultBundle(answer, { anyValue: true }),
    ]) {
      const shown = JSON.stringify(bundle);
      expect(shown).toContain('alice');
      expect(shown).toContain('[redacted]');
      expect(shown).not.toContain('tok-12345678');
      expect(shown).not.toContain('pw-12345678');
    }
    expect(answer.token).toBe('tok-12345678');
  });

  it('sends a chart as Vega-Lite (v5 type and schema), SVG and text', async () => {
    const spec = logsChartSpec(bigLog(200));
    const bundle = await chartBundle(spec, 'summary');
    expect(Object.keys(bundle).sort()).toEqual([VEGA_LITE_MIME, 'image/svg+xml', 'text/plain'].sort());
    expect(VEGA_LITE_MIME).toBe('application/vnd.vegalite.v5+json');
    expect((bundle[VEGA_LITE_MIME] as { $schema: string }).$schema).toBe(
      'https://vega.github.io/schema/vega-lite/v5.json',
    );
    expect(bundle['image/svg+xml']).toMatch(/^<svg[^>]*>/);
    expect(bundle['text/plain']).toBe('summary');
  });

  // How fast is measured by test/bench/kernel.bench.mjs (b); timed assertions do not belong here.
  it('plots 100,000 log entries as one aggregated chart', async () => {
    const bundle = await plotBundle(bigLog(100_000));
    expect(bundle['text/plain']).toMatch(/^100,000 cloud log entries/);
    expect(String(bundle['image/svg+xml']).length).toBeLessThan(1_000_000);
  });

  it('plots projects as views and loves, and refuses other values', async () => {
    const bundle = await plotBundle([project(1, 'A', 'x', { views: 10, loves: 2 })]);
    expect(bundle['text/plain']).toBe('A: views 10, loves 2');
    await expect(plotBundle([user(1, 'a')])).rejects.toThrow(/plot\(\) draws/);
  });
});

describe('tracebacks', () => {
  it('finds the cell line of a compiled line by its words, ignoring type annotations and exports', () => {
    const source = [
      'interface X { a: number }',
      'const x: X = { a: 1 };',
      '',
      'function f(n: number) {',
      "  throw new Error('boom ' + n);",
      '}',
      'f(x.a)',
    ];
    const compiled = [
      '(function(exports, require) { Object.defineProperty(exports, "__esModule", { value: true });',
      'const x = { a: 1 };',
      'exports.x = x;',
      'function f(n) {',
      "    throw new Error('boom ' + n);",
      '}',
      'exports.tsLastExpr = f(x.a);',
      '})',
    ];
    expect(sourceLineOf(source, compiled, 2)).toBe(2);
    expect(sourceLineOf(source, compiled, 5)).toBe(5);
    expect(sourceLineOf(source, compiled, 7)).toBe(7);
  });

  it("keeps the cells' frames with their lines and drops the kernel's", () => {
    const cells = new CellSources();
    cells.add('Cell In[4]', "const a = 1;\nthrow new Error('x');");
    cells.compiled(
      'Cell In[4]',
      "(function(exports, require) { Object.defineProperty(exports, '__esModule', { value: true });\nconst a = 1;\nthrow new Error('x');\n})(__tslab__.exports, __tslab__.require)",
    );
    const stack = [
      'Error: x',
      '    at Cell In[4]:3:7',
      '    at Cell In[4]:4:3',
      '    at Script.runInThisContext (node:vm:137:12)',
      '    at Object.execute (/x/node_modules/tslab/dist/executor.js:160:38)',
      '    at evalmachine.<anonymous>:1:1',
      '    at CellRunner.run (/x/dist/kernel/execution/cell-runner.js:10:2)',
      '    at helper (/home/me/project/lib.js:3:9)',
    ].join('\n');
    expect(stackFrames(stack, cells)).toEqual([
      "Cell In[4], line 2\n      1 const a = 1;\n----> 2 throw new Error('x');",
      'at helper (/home/me/project/lib.js:3:9)',
    ]);
    const error = cellError(
      Object.assign(new TypeError('bad'), {
        stack: `TypeError: bad\n${stack.split('\n').slice(1).join('\n')}`,
      }),
      cells,
    );
    expect(error.ename).toBe('TypeError');
    expect(error.evalue).toBe('bad');
    expect(error.traceback.at(-1)).toBe('TypeError: bad');
    expect(JSON.stringify(error)).not.toMatch(/evalmachine|tslab|dist\/kernel/);
  });

  it('maps the frames of a cell resumed after an await (`at async Cell In[n]`) to its lines', () => {
    const cells = new CellSources();
    cells.add('Cell In[5]', "const text = 'x';\nconst parsed = await (await fetch(text)).json();");
    cells.compiled(
      'Cell In[5]',
      "(async function(exports, require) { Object.defineProperty(exports, '__esModule', { value: true });\nexports.parsed = exports.text = void 0;\nconst text = 'x';\nexports.text = text;\nconst parsed = await (await fetch(text)).json();\nexports.parsed = parsed;\n})(__tslab__.exports, __tslab__.require)",
    );
    const stack = [
      'SyntaxError: Unexpected token',
      '    at JSON.parse (<anonymous>)',
      '    at parseJSONFromBytes (node:internal/deps/undici/undici:5584:19)',
      '    at async helper (/home/me/project/lib.js:3:9)',
      '    at async Cell In[5]:5:16',
    ].join('\n');
    expect(stackFrames(stack, cells)).toEqual([
      'at async helper (/home/me/project/lib.js:3:9)',
      "Cell In[5], line 2\n      1 const text = 'x';\n----> 2 const parsed = await (await fetch(text)).json();",
    ]);
  });

  it('shows SDK errors as one line, thrown non-errors as values, and diagnostics with their line', () => {
    const cells = new CellSources();
    const api = new sdk.ApiError({
      status: 404,
      url: 'https://api.scratch.mit.edu/x',
      method: 'GET',
      reason: 'NotFound',
    });
    expect(cellError(api, cells, { oneLine: true }).traceback).toEqual([
      'ApiError: GET https://api.scratch.mit.edu/x → 404: NotFound',
    ]);
    expect(cellError('plain', cells)).toEqual({
      ename: 'Uncaught',
      evalue: "'plain'",
      traceback: ["Uncaught: 'plain'"],
    });
    cells.add('Cell In[2]', "const wrong: number = 'text';");
    const diag = diagnosticsError(
      [{ line: 1, column: 7, message: "Type 'string' is not assignable to type 'number'." }],
      'Cell In[2]',
      cells,
    );
    expect(diag.ename).toBe('TSError');
    expect(diag.evalue).toBe("Cell In[2], line 1: Type 'string' is not assignable to type 'number'.");
    expect(diag.traceback[0]).toBe(
      "Cell In[2], line 1, column 7\n    const wrong: number = 'text';\n          ^\nerror: Type 'string' is not assignable to type 'number'.",
    );
  });

  it('keeps the sources of the last 1,000 cells only', () => {
    const cells = new CellSources();
    for (let i = 1; i <= 1005; i++) cells.add(`Cell In[${i}]`, String(i));
    expect(cells.get('Cell In[5]')).toBeUndefined();
    expect(cells.get('Cell In[6]')?.source).toEqual(['6']);
  });
});

describe('Shift-Tab help', () => {
  it('renders {@link X} and {@link X | text} as text, and tags after the documentation', () => {
    const text = quickInfoText({
      displayParts: [{ text: 'get(username: string): Promise<User>', kind: 'text' }],
      documentation: [
        { text: "One user's profile. 404 → ", kind: 'text' },
        { text: '{@link ', kind: 'link' },
        { text: 'ApiError', kind: 'linkName' },
        { text: '}', kind: 'link' },
        { text: ' with status 404; see {@link Session | the session}.', kind: 'text' },
      ],
      tags: [
        {
          name: 'param',
          text: [
            { text: 'username', kind: 'parameterName' },
            { text: ' ', kind: 'space' },
            { text: 'whose', kind: 'text' },
          ],
        },
      ],
    });
    expect(text).toBe(
      "get(username: string): Promise<User>\n\nOne user's profile. 404 → ApiError with status 404; see the session.\n\n@param username whose",
    );
  });
});

describe('display()', () => {
  it('sends a table with a display id, then replaces it in place; Jupyter.display objects show their bundle', async () => {
    const sent = captureDisplays();
    const pending = new PendingDisplays();
    const display = createDisplay({ pending, siteUrl: () => undefined });
    const handle = display([{ name: 'a', n: 1 }]);
    await handle.update({ [Symbol.for('Jupyter.display')]: () => ({ 'text/html': '<b>own</b>' }) });
    expect(await pending.settle(() => {})).toBe(true);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.transient.display_id).toBe(handle.id);
    expect(sent[0]!.metadata.update).toBe(false);
    expect(sent[0]!.data['text/html']).toContain('<table');
    expect(sent[1]!.transient.display_id).toBe(handle.id);
    expect(sent[1]!.metadata.update).toBe(true);
    expect(sent[1]!.data['text/html']).toBe('<b>own</b>');
    expect(sent[1]!.data['text/plain']).toMatch(/Jupyter\.display/);
  });

  it('refuses a Jupyter.display method that answers no bundle', async () => {
    await expect(resultBundle({ [Symbol.for('Jupyter.display')]: () => 'nope' })).rejects.toThrow(TypeError);
    expect(await resultBundle('text', { quoteStrings: true })).toEqual({ 'text/plain': "'text'" });
  });
});

describe('live', () => {
  it('creates one display, updates it in place from set events, and stops', async () => {
    const sent = captureDisplays();
    const pending = new PendingDisplays();
    const live = createLive({ pending, running: new RunningLives() });
    const cloud = new EventEmitter();
    const handle = live(cloud, { variables: ['score'], window: 30 });
    expect(sent).toHaveLength(1);
    const id = sent[0]!.transient.display_id;
    expect(id).toBeTruthy();
    expect(sent[0]!.metadata.update).toBe(false);
    cloud.emit('set', { name: 'score', value: '10' });
    cloud.emit('set', { name: 'other', value: '5' });
    cloud.emit('set', { name: 'score', value: 'not a number' });
    cloud.emit('set', { name: 'score', value: '12' });
    await pending.settle(() => {});
    await handle.stop();
    cloud.emit('set', { name: 'score', value: '99' });
    expect(handle.data.map((p) => p.value)).toEqual([10, 12]);
    const updates = sent.slice(1);
    expect(updates.length).toBeGreaterThan(0);
    for (const u of updates) {
      expect(u.metadata.update).toBe(true);
      expect(u.transient.display_id).toBe(id);
    }
    const last = updates[updates.length - 1]!;
    expect(Object.keys(last.data)).toContain('image/svg+xml');
    expect(last.data['text/plain']).toMatch(/score 12 \(2 changes\)\n\(stopped\)$/);
    expect(cloud.listenerCount('set')).toBe(0);
  });

  it('keeps the latest 100,000 points, as in the REPL', async () => {
    const pending = new PendingDisplays();
    captureDisplays();
    const cloud = new EventEmitter();
    const handle = createLive({ pending, running: new RunningLives() })(cloud);
    for (let i = 0; i < 100_005; i++) cloud.emit('set', { name: 'n', value: String(i) });
    await handle.stop();
    expect(handle.data).toHaveLength(100_000);
    expect(handle.data[0]!.value).toBe(5);
    expect(handle.data.at(-1)!.value).toBe(100_004);
  });

  it('redraws a burst once, and a kernel shutdown ends every live display without drawing again', async () => {
    const pending = new PendingDisplays();
    const running = new RunningLives();
    const sent = captureDisplays();
    const clouds = [new EventEmitter(), new EventEmitter()];
    const handles = clouds.map((cloud) => createLive({ pending, running })(cloud));
    expect(running.size).toBe(2);
    for (let i = 0; i < 10_000; i++) clouds[0]!.emit('set', { name: 'n', value: String(i) });
    await pending.settle(() => {});
    // Two placeholders and two first charts; the 10,000 sets wait for one more drawing, not 10,000.
    expect(sent).toHaveLength(4);
    // The shutdown ends both: that drawing never comes, and later sets are not recorded.
    running.endAll();
    expect(running.size).toBe(0);
    for (const cloud of clouds) expect(cloud.listenerCount('set')).toBe(0);
    clouds[0]!.emit('set', { name: 'n', value: '1' });
    // The first one's redraw was due MIN_REDRAW_MS after its first chart. A live display started
    // now draws at once, then again MIN_REDRAW_MS after that, and again: its third chart proves
    // that the first's redraw came due a whole MIN_REDRAW_MS earlier, and did not draw.
    const lateCloud = new EventEmitter();
    const lateRunning = new RunningLives();
    createLive({ pending, running: lateRunning })(lateCloud);
    const late = () => sent.slice(4);
    for (let n = 1; n <= 3; n++) {
      await waitFor(() => late().length === n + 1, `the later display's chart ${n}`);
      if (n < 3) lateCloud.emit('set', { name: 'n', value: String(n) });
    }
    lateRunning.endAll();
    const lateId = late()[0]!.transient.display_id;
    expect(late().map((m) => m.transient.display_id === lateId)).toEqual([true, true, true, true]);
    expect(sent).toHaveLength(8);
    expect(handles[0]!.data).toHaveLength(10_000);
  });
});

describe('secret patterns', () => {
  it("match the sandbox's session ids and X-Tokens, and not each other", () => {
    const table = new SessionTable();
    for (let i = 0; i < 20; i++) {
      const session = table.create(1000 + i, `user_${i}`);
      expect(session.token).toMatch(new RegExp(`^${X_TOKEN.source}$`));
      expect(session.id).toMatch(new RegExp(`^${SESSION_ID.source}$`));
      expect(session.id).not.toMatch(X_TOKEN);
    }
  });
});
