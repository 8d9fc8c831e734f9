/**
 * What the prompt sees: the SDK's exports, node's built-in modules (lazily, as in node's REPL),
 * `require`, and the REPL's own values and helpers. The REPL runs in the main context, so these
 * are properties of `globalThis`.
 */
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';

/** Defines a writable global unless one of that name exists (a later SDK export never hides a builtin). */
function define(name: string, value: unknown, overwrite: boolean): void {
  if (!overwrite && name in globalThis) return;
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

/**
 * Installs the globals. `sdk` is the `scratchlab` namespace: spreading it means every export (and
 * any added later, such as `Cloud`) is there without listing it here.
 */
export function installGlobals(
  sdk: Readonly<Record<string, unknown>>,
  own: Readonly<Record<string, unknown>>,
): void {
  const require = createRequire(join(process.cwd(), 'repl'));
  for (const name of builtinModules) {
    if (name.startsWith('_') || name.includes('/') || name in globalThis) continue;
    // Loaded on first use: requiring them all would slow the start.
    Object.defineProperty(globalThis, name, {
      get(): unknown {
        const value: unknown = require(`node:${name}`);
        define(name, value, true);
        return value;
      },
      set(value: unknown) {
        define(name, value, true);
      },
      configurable: true,
      enumerable: false,
    });
  }
  define('require', require, false);
  for (const [name, value] of Object.entries(sdk)) define(name, value, false);
  for (const [name, value] of Object.entries(own)) define(name, value, true);
}

/** Replaces one of the REPL's own globals (e.g. `session` after `.login`). */
export function setGlobal(name: string, value: unknown): void {
  define(name, value, true);
}
