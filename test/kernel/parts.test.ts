// The kernel's parts in-process (no Jupyter): the preload, the package bridge, display bundles,
// cell output and pending displays.
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCellOutput, errorClassesOf, oneLineError } from '../../kernel/cell-output.js';
import { chartBundle, tableBundle, VEGA_LITE_MIME } from '../../kernel/display.js';
import { exportedNames } from '../../kernel/exported-names.js';
import { createShow, plotBundle, valueBundle } from '../../kernel/helpers.js';
import { createLive } from '../../kernel/live.js';
import { mainDeclarations, virtualDeclarations } from '../../kernel/package-resolution.js';
import { PendingDisplays } from '../../kernel/pending-displays.js';
import { PRELOAD_NAMES, preloadSource } from '../../kernel/preload.js';
import { type DisplayMessage, jupyter, tslabTypeScript } from '../../kernel/tslab.js';
import * as sdk from '../../src/index.js';
import { logsChartSpec } from '../../src/presentation/index.js';
import { SessionTable } from '../../src/sandbox/sessions.js';
import { bigLog, project, user } from '../presentation/records.js';
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

  it('declares the helpers with types and no name starting with __', () => {
    const source = preloadSource({ exports: [...names, 'show', 'default'], sandbox: true });
    expect(source).toContain("import * as scratchlab from 'scratchlab';");
    expect(source).toMatch(/import \{[^}]*\bSession\b[^}]*\} from 'scratchlab';/);
    for (const name of PRELOAD_NAMES.filter((n) => n !== 'scratchlab'))
      expect(source).toMatch(new RegExp(`^const ${name}: `, 'm'));
    expect(source).not.toMatch(/(^|[\s{,(])__\w+/);
    // Our own names and `default` are not imported from the package.
    const imported = /import \{([^}]*)\} from 'scratchlab'/
      .exec(source)![1]!
      .split(',')
      .map((s) => s.trim());
    expect(imported).not.toContain('show');
    expect(imported).not.toContain('default');
  });

  it('declares sandbox only for the sandbox kernel', () => {
    expect(preloadSource({ exports: [], sandbox: false })).not.toContain('const sandbox');
    expect(preloadSource({ exports: [], sandbox: true })).toContain(
      "const sandbox: import('scratchlab/sandbox').Sandbox",
    );
  });
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

  it('plots 100,000 log entries in well under a second', async () => {
    await plotBundle(bigLog(100)); // vega's first load is not the plot's cost
    const entries = bigLog(100_000);
    const start = performance.now();
    const bundle = await plotBundle(entries);
    const ms = performance.now() - start;
    expect(bundle['text/plain']).toMatch(/^100,000 cloud log entries/);
    expect(ms).toBeLessThan(1000);
  });

  it('plots projects as views and loves, and refuses other values', async () => {
    const bundle = await plotBundle([project(1, 'A', 'x', { views: 10, loves: 2 })]);
    expect(bundle['text/plain']).toBe('A: views 10, loves 2');
    await expect(plotBundle([user(1, 'a')])).rejects.toThrow(/plot\(\) draws/);
  });
});

describe('cell output', () => {
  const setup = () => {
    const pending = new PendingDisplays();
    const show = createShow({ pending, siteUrl: () => undefined });
    const output = createCellOutput({
      pending,
      show,
      pagedList: sdk.PagedList,
      errorClasses: errorClassesOf(sdk),
      siteUrl: () => undefined,
    });
    return { pending, output };
  };

  it("turns a cell's records into a table and leaves other values to console.log", () => {
    const sent = captureDisplays();
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const { output } = setup();
    output.console.log([project(1, 'A')]);
    output.console.log(42);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data['text/html']).toContain('<table');
    expect(log).toHaveBeenCalledWith(42);
  });

  it('awaits a PagedList value, and the cell waits for it', async () => {
    const sent = captureDisplays();
    const { pending, output } = setup();
    const list = new sdk.PagedList(async () => [user(1, 'alice')]);
    output.console.log(list);
    expect(sent).toHaveLength(0);
    expect(await pending.settle(() => {})).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data['text/plain']).toMatch(/alice/);
  });

  it('prints SDK errors as one line and notes the failure for the execute reply', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const { output } = setup();
    const error = new sdk.ApiError({
      status: 404,
      url: 'https://api.scratch.mit.edu/x',
      method: 'GET',
      reason: 'NotFound',
    });
    output.console.error(error);
    expect(write).toHaveBeenCalledWith('ApiError: GET https://api.scratch.mit.edu/x → 404: NotFound\n');
    expect(output.takeFailure()).toEqual({
      ename: 'ApiError',
      evalue: 'GET https://api.scratch.mit.edu/x → 404: NotFound',
    });
    expect(output.takeFailure()).toBeNull();
    expect(oneLineError(new sdk.LoginRequiredError('x'))).not.toContain('\n');
  });

  it('reports an un-awaited failed show() once, at the end of the cell', async () => {
    captureDisplays();
    const { pending } = setup();
    const show = createShow({ pending, siteUrl: () => undefined });
    void show(Promise.reject(new Error('boom')));
    const reported: unknown[] = [];
    expect(await pending.settle((e) => reported.push(e))).toBe(false);
    expect(reported.map((e) => (e as Error).message)).toEqual(['boom']);
  });
});

describe('live', () => {
  it('creates one display, updates it in place from set events, and stops', async () => {
    const sent = captureDisplays();
    const pending = new PendingDisplays();
    const live = createLive({ pending });
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
