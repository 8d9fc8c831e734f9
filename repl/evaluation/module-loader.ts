/**
 * `import()` at the prompt (and `import x from 'y'`, rewritten to it): specifiers resolve as from a
 * file in the working directory (node's main loader does it, as in node's REPL), except
 * `scratchlab` itself, which always means the package running this REPL, wherever it was started.
 */
import { constants, type ScriptOptions } from 'node:vm';

const SCRATCHLAB_IMPORT = /\bimport\(\s*"(scratchlab(?:\/[^"\n]*)?)"/g;

/**
 * Points `import("scratchlab…")` at this package's files. Works on esbuild's output, where string
 * literals are double-quoted.
 */
export function resolveScratchlabImports(js: string): string {
  return js.replace(SCRATCHLAB_IMPORT, (whole, specifier: string) => {
    try {
      return `import(${JSON.stringify(import.meta.resolve(specifier))}`;
    } catch {
      return whole; // not an export of the package: let the import fail with node's message
    }
  });
}

let quieted = false;

/**
 * node 20 calls the main loader for scripts "experimental" and warns on first use; the warning
 * says nothing to a REPL user, so that one is dropped (every other warning still shows).
 */
function quietLoaderWarning(): void {
  if (quieted) return;
  quieted = true;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, ...args: Parameters<typeof emitWarning>) {
    const [warning] = args;
    const text = typeof warning === 'string' ? warning : warning.message;
    if (text.includes('USE_MAIN_CONTEXT_DEFAULT_LOADER')) return;
    Reflect.apply(emitWarning, this, args);
  } as typeof emitWarning;
}

/** The `importModuleDynamically` option for a script of `code` (none unless it imports). */
export function importOption(code: string): Pick<ScriptOptions, 'importModuleDynamically'> {
  if (!code.includes('import(')) return {};
  quietLoaderWarning();
  return { importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER };
}
