#!/usr/bin/env node
/**
 * The process Jupyter starts for a scratchlab kernel (see kernel.json):
 *
 *     node dist/kernel/launch.js --config-path {connection_file} [--sandbox]
 *
 * It assembles a kernel from tslab's parts (converter, executor, ZeroMQ server) with these
 * additions: the protocol as IPython speaks it (./server.ts), cells that resolve the `scratchlab`
 * package by name, values shown as tables and charts (./cell-runner.ts), errors with the cells'
 * own lines (./traceback.ts), and a hidden preload declaring `session`, `sandbox`, `show`, `plot`,
 * `live`, `display` and the package's exports before the first cell.
 *
 * The ZeroMQ server starts first, so Jupyter's kernel_info request is answered at once; the login
 * (and the embedded sandbox) and the preload run meanwhile, and the first cell waits for them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CellRunner, errorClassesOf } from './cell-runner.js';
import { createDisplay } from './display-helper.js';
import { exportedNames } from './exported-names.js';
import { createPlot, createShow, shownByPlot } from './helpers.js';
import { createLive } from './live.js';
import { loginHint, loginState } from './login-state.js';
import {
  mainDeclarations,
  packageRoot,
  resolvePackageForRequire,
  resolvePackageForTypes,
} from './package-resolution.js';
import { PendingDisplays } from './pending-displays.js';
import { KERNEL_GLOBAL_KEY, preloadSource } from './preload.js';
import type { QuickInfo } from './quick-info.js';
import { KernelServer, kernelLog } from './server.js';
import { converterSet, executor, jupyter, tslabTypeScript } from './tslab.js';

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

// Before anything compiles or requires a cell.
resolvePackageForRequire();
const typescript = tslabTypeScript();
const root = packageRoot();
resolvePackageForTypes(typescript.sys, process.cwd(), root);
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string })
  .version;

const sdk = await import('scratchlab');
const { openWorkbench } = await import('scratchlab/workbench');
// Started before the server binds; the first cell waits for it (see `ready`).
const opening = openWorkbench({ sandbox: useSandbox, env: process.env });
opening.catch(() => {}); // reported by the first cell

let siteUrl: string | undefined;
let banner = 'starting';
const pending = new PendingDisplays();
const context = { pending, siteUrl: () => siteUrl };
const show = createShow(context);
const plot = createPlot(context);
const live = createLive(context);
const display = createDisplay(context);

let resolveReady!: () => void;
let rejectReady!: (error: unknown) => void;
const ready = new Promise<void>((resolve, reject) => {
  resolveReady = resolve;
  rejectReady = reject;
});
ready.catch(() => {}); // reported by every cell

const runner = new CellRunner({
  ready,
  pending,
  errorClasses: errorClassesOf(sdk),
  siteUrl: () => siteUrl,
  hints: { LoginRequiredError: loginHint(useSandbox) },
  shownAlready: shownByPlot,
});
const convs = converterSet();
const inner = executor.createExecutor(process.cwd(), convs, runner.console);
runner.attach(inner);

const starting = (async () => {
  const workbench = await opening;
  siteUrl = workbench.session.siteHost;
  banner = loginState(workbench, useSandbox);
  log(banner);
  Reflect.set(globalThis, Symbol.for(KERNEL_GLOBAL_KEY), {
    session: workbench.session,
    sandbox: workbench.sandbox,
    show,
    plot,
    live,
    display,
  });
  const names = exportedNames(typescript, mainDeclarations(root));
  const problems = await runner.preload(
    preloadSource({ exports: names, sandbox: workbench.sandbox !== null }),
  );
  if (problems.length > 0) {
    for (const problem of problems) log(`preload: ${problem}`);
    throw new Error(`the scratchlab preload failed: ${problems[0]}`);
  }
  return workbench;
})();
starting.then(
  () => resolveReady(),
  (error: unknown) => {
    log(`start-up failed: ${error instanceof Error ? error.message : String(error)}`);
    rejectReady(error);
  },
);

const handler = new jupyter.JupyterHandlerImpl(inner, false);
const server = new KernelServer(handler, configPath, {
  run: (code, count) => runner.run(code, count),
  info: async () => {
    // The banner says who is logged in: wait a little for the start-up (the first cell waits anyway).
    await Promise.race([ready.catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
    return {
      implementationVersion: version ?? '0.0.0',
      typescriptVersion: typescript.version,
      banner: `scratchlab ${version ?? ''}: TypeScript ${typescript.version} on tslab\n${banner}\n`,
    };
  },
  inspect: (code, position) => inner.inspect(code, position) as QuickInfo | undefined,
  log,
});

let closing = false;
/** Stops the sandbox (its server would keep the process alive) and exits. */
async function shutDown(code: number): Promise<never> {
  if (!closing) {
    closing = true;
    const workbench = await starting.catch(() => null);
    await workbench?.close().catch(() => {});
  }
  process.exit(code);
}

// tslab closes its sockets after a shutdown request and expects the process to end by itself.
const closeHandler = handler.close.bind(handler);
handler.close = () => {
  closeHandler();
  void shutDown(0);
};
process.on('SIGINT', () => runner.interrupt());
process.on('SIGTERM', () => void shutDown(0));
// Outside any cell's control flow: shown in the cell running now (or the last one), never fatal.
const stray = (error: unknown) => {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.stderr.write(`Uncaught (in a callback or an un-awaited promise): ${text}\n`);
};
process.on('uncaughtException', stray);
process.on('unhandledRejection', stray);

await server.init();
