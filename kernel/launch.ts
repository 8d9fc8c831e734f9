#!/usr/bin/env node
/**
 * The process Jupyter starts for a scratchlab kernel (see kernel.json):
 *
 *     node dist/kernel/launch.js --config-path {connection_file} [--sandbox]
 *
 * It assembles tslab's kernel from its parts (converter, executor, ZeroMQ server) the way
 * `tslab kernel` does, with three additions: cells resolve the `scratchlab` package by name, the
 * executor's console renders results (tables, one-line errors), and a hidden preload declares
 * `session`, `sandbox`, `show`, `plot`, `live` and the package's exports before the first cell.
 *
 * The ZeroMQ server starts first, so Jupyter's kernel_info request is answered at once; the login
 * (and the embedded sandbox) and the preload run meanwhile, and the first cell waits for them.
 */
import { parseArgs } from 'node:util';
import { createCellOutput, errorClassesOf } from './cell-output.js';
import { completeExecuteProtocol } from './execute-protocol.js';
import { exportedNames } from './exported-names.js';
import { createPlot, createShow } from './helpers.js';
import { kernelExecutor } from './kernel-executor.js';
import { createLive } from './live.js';
import { mainDeclarations, resolvePackageForRequire, resolvePackageForTypes } from './package-resolution.js';
import { PendingDisplays } from './pending-displays.js';
import { KERNEL_GLOBAL_KEY, preloadSource } from './preload.js';
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

// Before anything compiles or requires a cell.
resolvePackageForRequire();
const typescript = tslabTypeScript();
resolvePackageForTypes(typescript.sys, process.cwd());

const sdk = await import('scratchlab');
const { openWorkbench } = await import('scratchlab/workbench');
// Started before the server binds; the first cell waits for it (see `ready`).
const opening = openWorkbench({ sandbox: useSandbox, env: process.env });
opening.catch(() => {}); // reported by the first cell

let siteUrl: string | undefined;
const pending = new PendingDisplays();
const context = { pending, siteUrl: () => siteUrl };
const show = createShow(context);
const plot = createPlot(context);
const live = createLive(context);
const output = createCellOutput({
  pending,
  show,
  pagedList: sdk.PagedList,
  errorClasses: errorClassesOf(sdk),
  siteUrl: () => siteUrl,
});

const convs = converterSet();
const inner = executor.createExecutor(process.cwd(), convs, output.console);

const ready = (async () => {
  const workbench = await opening;
  siteUrl = workbench.session.siteHost;
  Reflect.set(globalThis, Symbol.for(KERNEL_GLOBAL_KEY), {
    session: workbench.session,
    sandbox: workbench.sandbox,
    show,
    plot,
    live,
  });
  const names = exportedNames(typescript, mainDeclarations());
  const ok = await inner.execute(preloadSource({ exports: names, sandbox: workbench.sandbox !== null }));
  if (!ok) throw new Error('the scratchlab preload failed to compile (see the kernel log)');
  return workbench;
})();
ready.catch(() => {}); // reported by every cell

const handler = new jupyter.JupyterHandlerImpl(
  kernelExecutor(inner, {
    ready: ready.then(() => {}),
    pending,
    printError: output.printError,
  }),
  false,
);
completeExecuteProtocol(handler, output.takeFailure);
const server = new jupyter.ZmqServer(handler, configPath);

let closing = false;
/** Stops the sandbox (its server would keep the process alive) and exits. */
async function shutDown(code: number): Promise<never> {
  if (!closing) {
    closing = true;
    const workbench = await ready.catch(() => null);
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
process.on('SIGINT', () => inner.interrupt());
process.on('SIGTERM', () => void shutDown(0));
process.on('uncaughtException', (error) => output.printError(error));
process.on('unhandledRejection', (reason) => output.printError(reason));

await server.init();
