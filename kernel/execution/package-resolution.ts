/**
 * How notebook cells find the `scratchlab` package by its own name, at run time and for types.
 *
 * tslab compiles each cell to CommonJS and type-checks it with `moduleResolution: node10`. Neither
 * sees this package the way ESM code does: `require('scratchlab')` is refused because the package
 * only exports an `import` condition, and node10 resolution neither follows `exports` nor knows a
 * package's own name (there is no `node_modules/scratchlab` inside the package itself).
 *
 * Both are bridged here, for `scratchlab` and its subpaths only:
 * - `require` resolves them as ESM `import` does (`import.meta.resolve` from inside the package), so
 *   cells load the very module instances the kernel uses (`instanceof ApiError` holds everywhere).
 * - TypeScript is shown small virtual declaration files under `<cwd>/node_modules/scratchlab/` that
 *   re-export the real declarations, one per entry of the package's `exports`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'scratchlab';

/** The folder of the installed package (the one holding its package.json). */
export function packageRoot(): string {
  return dirname(fileURLToPath(import.meta.resolve(`${PACKAGE}/package.json`)));
}

interface ExportsEntry {
  types?: string;
}

interface Manifest {
  version?: string;
  exports?: Record<string, ExportsEntry | string>;
}

function readManifest(root: string): Manifest {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
}

/** The declaration file of the package's main entry point (its `exports['.'].types`). */
export function mainDeclarations(root: string = packageRoot()): string {
  const main = readManifest(root).exports?.['.'];
  if (typeof main !== 'object' || typeof main.types !== 'string') {
    throw new Error(`${join(root, 'package.json')} names no types for its main entry point`);
  }
  return join(root, main.types);
}

function isOwnRequest(request: string): boolean {
  return request === PACKAGE || request.startsWith(`${PACKAGE}/`);
}

interface ModuleInternals {
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
}

let requirePatched = false;

/**
 * Lets `require('scratchlab…')` load the package's ESM entry points (Node ≥ 20.19 runs them).
 * `aliases` name more specifiers for the main entry point (modules only TypeScript sees).
 */
export function resolvePackageForRequire(aliases: readonly string[] = []): void {
  if (requirePatched) return;
  requirePatched = true;
  const internals = createRequire(import.meta.url)('node:module') as ModuleInternals;
  const original = internals._resolveFilename;
  internals._resolveFilename = function (request, parent, isMain, options) {
    if (isOwnRequest(request)) {
      try {
        return fileURLToPath(import.meta.resolve(aliases.includes(request) ? PACKAGE : request));
      } catch {
        // not an export of the package: let Node report it as usual
      }
    }
    return original.call(this, request, parent, isMain, options);
  };
}

/** The parts of TypeScript's `sys` that module resolution reads. */
export interface TypeScriptSys {
  fileExists(path: string): boolean;
  readFile(path: string, encoding?: string): string | undefined;
  directoryExists(path: string): boolean;
}

/**
 * The virtual declaration files: `index.d.ts` and `package.json` for the package itself, and
 * `<subpath>.d.ts` for each subpath export (node10 looks for `name/sub.d.ts` before anything else).
 */
export function virtualDeclarations(root: string, folder: string): Map<string, string> {
  const manifest = readManifest(root);
  const files = new Map<string, string>();
  files.set(
    join(folder, 'package.json'),
    JSON.stringify({ name: PACKAGE, version: manifest.version ?? '0.0.0', types: 'index.d.ts' }),
  );
  for (const [subpath, entry] of Object.entries(manifest.exports ?? {})) {
    if (typeof entry !== 'object' || typeof entry.types !== 'string') continue;
    const target = join(root, entry.types).replace(/\.d\.ts$/, '');
    const name = subpath === '.' ? 'index' : subpath.replace(/^\.\//, '');
    files.set(join(folder, `${name}.d.ts`), `export * from ${JSON.stringify(target)};\n`);
  }
  return files;
}

/**
 * Shows TypeScript (tslab's copy, through its `sys`) the package's declarations under
 * `<cwd>/node_modules/scratchlab`, over a real installed copy if there is one: node10 resolution
 * finds a real copy's main entry but none of its subpaths (`scratchlab/sandbox`), which only its
 * `exports` name. The virtual files point at the very package the kernel runs from.
 */
export function resolvePackageForTypes(
  sys: TypeScriptSys,
  cwd: string,
  root: string = packageRoot(),
  extra: ReadonlyMap<string, () => string> = new Map(),
): void {
  const folder = join(cwd, 'node_modules', PACKAGE);
  const files = virtualDeclarations(root, folder);
  // More modules beside the package's (`kernel-globals` → `kernel-globals.d.ts`), written on first read.
  const lazy = new Map([...extra].map(([name, text]) => [join(folder, `${name}.d.ts`), text]));
  const { fileExists, readFile, directoryExists } = sys;
  sys.fileExists = (path) => files.has(path) || lazy.has(path) || fileExists.call(sys, path);
  sys.readFile = (path, encoding) => {
    const text = files.get(path) ?? lazy.get(path)?.();
    if (text !== undefined) return text;
    return readFile.call(sys, path, encoding);
  };
  sys.directoryExists = (path) => path === folder || directoryExists.call(sys, path);
}
