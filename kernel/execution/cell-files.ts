/**
 * Gives each cell's code a file name, `Cell In[n]` (`Silent cell n` for a cell without a count),
 * so that its stack frames say which cell they are in (instead of `evalmachine.<anonymous>`), and
 * keeps the code run for each name so a frame's line can be traced back to the cell's
 * (../protocol/traceback.ts).
 *
 * tslab's executor runs a cell with `vm.runInThisContext(code, { breakOnSigint })` and offers no
 * option for a name: the call is wrapped here while a cell is being started.
 */
import { createRequire } from 'node:module';
import type * as vm from 'node:vm';
import type { CellSources } from '../protocol/traceback.js';

const require = createRequire(import.meta.url);

let current: string | null = null;
let sources: CellSources | null = null;

/** Wraps `vm.runInThisContext` (once) so code run while {@link runAs} is active gets its name. */
function patchVm(): void {
  const module = require('node:vm') as typeof vm;
  const original = module.runInThisContext;
  module.runInThisContext = (code: string, options?: vm.RunningScriptOptions | string) => {
    const name = current;
    if (name === null || typeof options === 'string') return original(code, options);
    sources?.compiled(name, code);
    return original(code, { ...options, filename: name });
  };
}

let patched = false;

/** Runs `work` (which starts one cell) with its code named `file`. */
export async function runAs<T>(file: string, cells: CellSources, work: () => Promise<T>): Promise<T> {
  if (!patched) {
    patched = true;
    patchVm();
  }
  sources = cells;
  current = file;
  try {
    return await work();
  } finally {
    current = null;
  }
}
