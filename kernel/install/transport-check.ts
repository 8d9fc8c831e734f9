/**
 * Whether the kernel's transport loads: tslab talks to Jupyter through `zeromq`, a native addon.
 * zeromq 6 ships prebuilt addons for the common platforms, so it loads even when npm 11 skipped
 * its install script (dependencies' scripts are blocked unless allowed); elsewhere the script
 * must build it. `scratchlab kernel install` checks, and says exactly what to run.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Loads zeromq as tslab does (from tslab's folder); answers why it failed, or `null`. */
export function transportProblem(): string | null {
  try {
    createRequire(require.resolve('tslab/dist/jupyter'))('zeromq');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0]! : String(error);
  }
}

/**
 * The command that builds zeromq for the package installed at `root`: in the project that
 * depends on it, globally, or in a checkout.
 */
export function rebuildCommand(root: string): string {
  const parent = dirname(root);
  if (basename(parent) === 'node_modules') {
    const project = dirname(parent);
    const global = basename(project) === 'lib' || !existsSync(join(project, 'package.json'));
    if (global) return 'npm rebuild -g zeromq --allow-scripts=zeromq';
    return `cd ${JSON.stringify(project)} && npm rebuild zeromq --allow-scripts=zeromq`;
  }
  return `cd ${JSON.stringify(root)} && npm rebuild zeromq --allow-scripts=zeromq`;
}
