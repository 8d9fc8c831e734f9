/**
 * What cells see without declaring it: `session`, `sandbox` (sandbox kernel only), `show`, `plot`,
 * `live`, `display`, `md`, `html`, `svg`, `image`, `clearOutput`, the package's namespace `scratchlab`, and each of its exports by name.
 *
 * tslab keeps every cell's declarations as a declaration file that it re-parses, re-resolves and
 * re-prints for every later cell, so its size is paid by each cell (a trivial cell cost 1.5x plain
 * tslab's with the 200 exports imported there). Hence two parts:
 * - the hidden preload, run before the first cell that needs it, stays a few short lines: the
 *   namespace `scratchlab` and `session`/`sandbox`, whose declarations also keep the globals file
 *   in every cell's program;
 * - a declaration file the kernel shows TypeScript ({@link GLOBALS_MODULE}, parsed once and then
 *   reused by every cell's program) declares the package's exports and the helpers as globals, and
 *   the kernel defines their values on `globalThis` ({@link defineGlobals}).
 * A cell's own declaration of one of these names shadows the global, as an import did.
 *
 * The values of the preload come from the kernel process through one global symbol. Types are
 * written as `import('…').X` so that no helper type name leaks into the cells' scope. (Top-level
 * names starting with `__` break in tslab preloads: none are used.)
 */

/** `Symbol.for` key of the object through which the kernel hands its values to the preload. */
export const KERNEL_GLOBAL_KEY = 'scratchlab.kernel';

/** Helpers declared as globals (the kernel's other names are the preload's). */
export const GLOBAL_HELPERS = [
  'show',
  'plot',
  'live',
  'display',
  'store',
  'sql',
  'md',
  'html',
  'svg',
  'image',
  'clearOutput',
] as const;

/** Names the kernel declares itself; an export with one of these names is not made a global. */
export const PRELOAD_NAMES: readonly string[] = ['scratchlab', 'session', 'sandbox', ...GLOBAL_HELPERS];

/**
 * The module, shown to TypeScript only (beside the package's own declarations), that declares the
 * globals; at run time it is the package's main entry point (./package-resolution.ts).
 */
export const GLOBALS_MODULE = 'scratchlab/kernel-globals';

/** Options of {@link preloadSource}. */
export interface PreloadOptions {
  /** Declare `sandbox` (the sandbox kernel). */
  sandbox: boolean;
  /** Names the cells have declared themselves already: the preload leaves them alone. */
  declared?: ReadonlySet<string>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

// The types of the helpers, as cells see them: the package's own (presentation/cell-helpers.ts),
// which the kernel's implementations are typed with too, so the two cannot drift.
const PACKAGE = 'scratchlab';
const PRESENTATION = "import('scratchlab/presentation')";
const STORE_TYPE = "import('scratchlab/data').Store";

/** The package's exports that become globals: identifiers, none of the kernel's own names. */
export function globalExports(exports: readonly string[]): string[] {
  const reserved = new Set(PRELOAD_NAMES);
  return exports.filter((n) => n !== 'default' && IDENTIFIER.test(n) && !reserved.has(n));
}

/**
 * The text of {@link GLOBALS_MODULE}: the package's namespace, and globals for `exports` (aliases,
 * so classes, generic types and namespaces keep every meaning) and the helpers. (TypeScript flags
 * aliases in a global augmentation, but only in a declaration file, which tslab never checks.)
 */
export function globalsDeclarations(exports: readonly string[]): string {
  return [
    `import * as scratchlab from ${JSON.stringify(PACKAGE)};`,
    `export * from ${JSON.stringify(PACKAGE)};`,
    'declare global {',
    ...globalExports(exports).map((name) => `  export import ${name} = scratchlab.${name};`),
    `  const show: ${PRESENTATION}.Show;`,
    `  const plot: ${PRESENTATION}.Plot;`,
    `  const live: ${PRESENTATION}.Live;`,
    `  const display: ${PRESENTATION}.Display;`,
    `  const store: ${STORE_TYPE};`,
    `  const sql: ${STORE_TYPE}['sql'];`,
    ...['md', 'html', 'svg'].map((name) => `  const ${name}: ${PRESENTATION}.RichTemplate;`),
    `  const image: typeof ${PRESENTATION}.image;`,
    '  const clearOutput: (options?: { wait?: boolean }) => void;',
    '}',
    '',
  ].join('\n');
}

/**
 * Defines the globals that {@link globalsDeclarations} declares: the package's runtime exports and
 * the helpers. Not enumerable, and never over a global that exists already.
 */
export function defineGlobals(
  sdk: Record<string, unknown>,
  exports: readonly string[],
  helpers: Readonly<Record<(typeof GLOBAL_HELPERS)[number], unknown>>,
): void {
  const values: [string, unknown][] = [
    ...globalExports(exports)
      .filter((name) => Object.hasOwn(sdk, name))
      .map((name): [string, unknown] => [name, sdk[name]]),
    ...GLOBAL_HELPERS.map((name): [string, unknown] => [name, helpers[name]]),
  ];
  for (const [name, value] of values) {
    if (name in globalThis) continue;
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }
}

/** The preload's TypeScript source. */
export function preloadSource(options: PreloadOptions): string {
  const declared = options.declared ?? new Set<string>();
  const from = `Reflect.get(globalThis, Symbol.for(${JSON.stringify(KERNEL_GLOBAL_KEY)}))`;
  const globals = `import(${JSON.stringify(GLOBALS_MODULE)})`;
  // `scratchlab` comes from the globals module (the same namespace), so that it keeps that module in
  // the program; if a cell took the name before the preload ran, another name does.
  const namespace = declared.has('scratchlab') ? 'scratchlab_kernel' : 'scratchlab';
  const lines = [
    `import * as ${namespace} from ${JSON.stringify(GLOBALS_MODULE)};`,
    `const session: ${globals}.Session = ${from}.session;`,
    options.sandbox ? `const sandbox: import('scratchlab/sandbox').Sandbox = ${from}.sandbox;` : '',
  ];
  // `const NAME: …` lines of names the cells declared are left out.
  const ownName = (line: string) => /^const ([\w$]+)/.exec(line)?.[1];
  return lines
    .filter((line) => line !== '')
    .filter((line) => {
      const name = ownName(line);
      return name === undefined || !declared.has(name);
    })
    .join('\n');
}
