#!/usr/bin/env node
/**
 * The process Jupyter starts for a scratchlab kernel (see kernel.json):
 *
 *     node dist/kernel/launch.js --config-path {connection_file} [--sandbox]
 *
 * It assembles a kernel from tslab's parts (converter, executor, ZeroMQ server) with these
 * additions: the protocol as IPython speaks it (./server.ts), cells that resolve the `scratchlab`
 * package by name, values shown as tables and charts (./cell-runner.ts), errors with the cells'
 * own lines (./traceback.ts), progress outputs for downloads and walks (./display/progress.ts),
 * and `session`, `sandbox`, `show`, `plot`, `live`, `display`, `store`, `sql`, `md`, `html`,
 * `svg`, `image`, `clearOutput` and the
 * package's exports declared for the cells (a small hidden preload and globals: ./preload.ts).
 *
 * Cells run with their types stripped (./execution/script-converter.ts) while a worker process
 * type-checks them (./execution/type-checker.ts), started with the kernel so its TypeScript is warm
 * by the first cell. The session (the embedded sandbox and its login) and the preload start on
 * first use or a second after start-up (./first-use.ts): a cell that names none of them does not
 * wait for them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RunningLives } from './display/live.js';
import { TypeChecker } from './execution/type-checker.js';
import { kernelLog } from './protocol/kernel-log.js';
import type { QuickInfo } from './protocol/quick-info.js';

const { values: args } = parseArgs({
  options: { 'config-path': { type: 'string' }, sandbox: { type: 'boolean', default: false } },
});
const configPath = args['config-path'];
if (!configPath) {
  process.stderr.write('usage: launch.js --config-path CONNECTION_FILE [--sandbox]\n');
  process.exit(2);
}
const useSandbox = args.sandbox === true;
const log = kernelLog();

// Started first, before this thread loads tslab and TypeScript: the worker's TypeScript and first
// program (seconds: the first cell's `idle` waits for them) are the start-up's longest part.
const checker = new TypeChecker({ log });

const [
  { createClearOutput },
  { PendingDisplays },
  { CellRunner, errorClassesOf },
  { warmUpCellScripts },
  { exportedNames },
  { mentionsAny, OnFirstUse },
  { OpenClouds },
  { mainDeclarations, packageRoot, resolvePackageForRequire, resolvePackageForTypes },
  { defineGlobals, GLOBALS_MODULE, globalsDeclarations, KERNEL_GLOBAL_KEY, PRELOAD_NAMES, preloadSource },
  { scriptConverters },
  { whenParentEnds },
  { loginHint, loginState },
  { KernelServer },
  { executor, jupyter, tslabTypeScript },
] = await Promise.all([
  import('./display/clear-output.js'),
  import('./display/pending-displays.js'),
  import('./execution/cell-runner.js'),
  import('./execution/cell-script.js'),
  import('./execution/exported-names.js'),
  import('./execution/first-use.js'),
  import('./execution/open-clouds.js'),
  import('./execution/package-resolution.js'),
  import('./execution/preload.js'),
  import('./execution/script-converter.js'),
  import('./parent-watch.js'),
  import('./protocol/login-state.js'),
  import('./protocol/server.js'),
  import('./tslab.js'),
]);

// Before anything compiles or requires a cell.
resolvePackageForRequire([GLOBALS_MODULE]);
const typescript = tslabTypeScript();
const root = packageRoot();
let globalsText: string | null = null;
const globalsModule = GLOBALS_MODULE.slice(GLOBALS_MODULE.indexOf('/') + 1);
resolvePackageForTypes(
  typescript.sys,
  process.cwd(),
  root,
  new Map([[globalsModule, () => (globalsText ??= globalsDeclarations(names()))]]),
);
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string })
  .version;

let siteUrl: string | undefined;
let banner = 'session: starting in the background (the first cell that uses it waits for it)';
const pending = new PendingDisplays();
/** Every cloud connection the cells open, closed at shutdown. */
const clouds = new OpenClouds();
/** The live displays, once the helpers are loaded. */
let lives: RunningLives | null = null;
let sdkErrors: ReturnType<typeof errorClassesOf> = [];
/** Closes the preloaded store (its recorders store what they received first), once it exists. */
let closeStore = async (): Promise<number> => 0;

/**
 * The secret values the kernel knows (kept out of the history): the password in its environment,
 * and once the session has started, its token, its credential cookies and the password it logged
 * in with.
 */
let knownSecrets = (): string[] => [process.env.SCRATCH_PASSWORD ?? ''];

/** Whether `plot` showed this chart in the running cell (from the helpers, once loaded). */
let shownByPlot = (_value: unknown): boolean => false;

/** The session and the preload: on first use, or in the background shortly after start-up. */
const session = new OnFirstUse(async () => {
  const [
    sdk,
    { openWorkbench },
    helpers,
    { createLive, RunningLives },
    { createDisplay },
    presentation,
    { ProgressDisplay },
  ] = await Promise.all([
    import('scratchlab'),
    import('scratchlab/workbench'),
    import('./display/helpers.js'),
    import('./display/live.js'),
    import('./display/display-helper.js'),
    import('scratchlab/presentation'),
    import('./display/progress.js'),
  ]);
  // The DuckDB store: opened (and DuckDB loaded) on its first query, not here.
  const { defaultStore } = await import('scratchlab/data');
  const store = defaultStore();
  closeStore = () => store.close();
  sdkErrors = errorClassesOf(sdk);
  // Downloads and walks show an updating output, unless the cell passes its own onProgress.
  presentation.installAutoProgress((label) => new ProgressDisplay(label));
  shownByPlot = helpers.shownByPlot;
  const workbench = await openWorkbench({ sandbox: useSandbox, env: process.env });
  siteUrl = workbench.session.siteHost;
  const { session: signedIn, sandbox } = workbench;
  knownSecrets = () => [
    ...signedIn.http.secretsFor(signedIn.siteHost),
    process.env.SCRATCH_PASSWORD ?? '',
    // The sandbox's session logged in as its first demo account (openWorkbench).
    sandbox?.accounts[0]?.password ?? '',
  ];
  // Shown in kernel_info's banner, not logged: under `jupyter console` the kernel's stderr is the
  // user's terminal, where a late line would land in the middle of their input.
  banner = loginState(workbench, useSandbox);
  lives = new RunningLives();
  const context = { pending, siteUrl: () => siteUrl, running: lives, store };
  Reflect.set(globalThis, Symbol.for(KERNEL_GLOBAL_KEY), {
    session: workbench.session,
    sandbox: workbench.sandbox,
  });
  defineGlobals(sdk, names(), {
    show: helpers.createShow(context),
    plot: helpers.createPlot(context),
    live: createLive(context),
    display: createDisplay(context),
    store,
    sql: store.sql,
    md: presentation.md,
    html: presentation.html,
    svg: presentation.svg,
    image: presentation.image,
    clearOutput: createClearOutput((wait) => server.clearOutput(wait)),
  });
  const source = preloadSource({ sandbox: workbench.sandbox !== null, declared: scripts.declared });
  const problems = await runner.preload(source);
  if (problems.length > 0) {
    for (const problem of problems) log(`preload: ${problem}`);
    throw new Error(`the scratchlab preload failed: ${problems[0]}`);
  }
  return workbench;
});

let exported: string[] | null = null;
/** The package's exported names (parsed once from its declarations). */
const names = () => {
  exported ??= exportedNames(typescript, mainDeclarations(root));
  return exported;
};
let preloadNames: Set<string> | null = null;

const scripts = scriptConverters({ declarations: () => checker.declarations });
const runner = new CellRunner({
  scripts,
  checker,
  log,
  prepare: async (code) => {
    if (!session.started) {
      preloadNames ??= new Set([...PRELOAD_NAMES, ...names()]);
      if (!mentionsAny(code, preloadNames)) return;
    }
    await session.get();
  },
  pending,
  errorClasses: () => sdkErrors,
  siteUrl: () => siteUrl,
  hints: { LoginRequiredError: loginHint(useSandbox) },
  shownAlready: (value) => shownByPlot(value),
});
const inner = executor.createExecutor(process.cwd(), scripts, runner.console);
runner.attach(inner);

const handler = new jupyter.JupyterHandlerImpl(inner, false);
const server = new KernelServer(handler, configPath, {
  run: (code, file) => runner.run(code, file),
  info: async () => ({
    implementationVersion: version ?? '0.0.0',
    typescriptVersion: typescript.version,
    banner: `scratchlab ${version ?? ''}: TypeScript ${typescript.version} on tslab\n${banner}\n`,
  }),
  inspect: (code, position) => inner.inspect(code, position) as QuickInfo | undefined,
  log,
  secrets: () => knownSecrets(),
  // The live displays stop drawing, the cells' cloud connections close with a close frame, and
  // the sandbox stops (its server would keep the process alive).
  shutdown: async () => {
    lives?.endAll();
    // Before the clouds close: a recorder stores what it received, a load finishes its move.
    const unstored = await closeStore().catch((error: unknown) => {
      log(`the store did not close cleanly: ${String(error)}`);
      return 0;
    });
    if (unstored > 0) log(`${unstored} received cloud sets could not be stored`);
    await clouds.closeAll();
    await checker.close();
    const workbench = session.started ? await session.get().catch(() => null) : null;
    await workbench?.close();
  },
});

// After a shutdown request (or SIGTERM) the server ends the cells' work and closes its sockets;
// timers the cells left would keep the process alive.
void server.closed.then(() => process.exit(0));
process.on('SIGINT', () => runner.interrupt());
process.on('SIGTERM', () => server.close());
// A front end that ended without a shutdown request (its terminal closed): the same as SIGTERM.
whenParentEnds(process.env, () => server.close());
// Outside any cell's control flow: shown in the cell running now (or the last one), never fatal.
const stray = (error: unknown) => {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(`Uncaught (in a callback or an un-awaited promise): ${text}\n`);
};
process.on('uncaughtException', stray);
process.on('unhandledRejection', stray);

await server.init();
// What starts in the background waits for the checker's TypeScript to be ready: started while the
// worker still builds its program, it took the cores the first cell's check needed (its cell's
// `idle` waits for it), and a one-cell notebook took 1.13x plain tslab's time.
void checker.ready().then(() => {
  // esbuild's helper process: only the cells oxc leaves to it (decorators, syntax errors) need it
  // (one that comes before starts it), and the server need not wait for it to answer.
  void warmUpCellScripts();
  // Interactive users type for a while: the session starts meanwhile, unless a cell needed it first.
  session.startAfter(1000);
});
