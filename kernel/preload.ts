/**
 * The hidden TypeScript the kernel runs before the first cell. tslab keeps the declarations of
 * every executed cell for the next ones, so what the preload declares is visible, with its types,
 * in every cell: `session`, `sandbox` (sandbox kernel only), `show`, `plot`, `live`, `display`, the
 * package's namespace `scratchlab`, and each of its exports by name.
 *
 * The values come from the kernel process through one global symbol; the preload only gives them
 * names and types. Types are written as `import('…').X` so that no helper type name leaks into the
 * cells' scope. (Top-level names starting with `__` break in tslab preloads: none are used.)
 */

/** `Symbol.for` key of the object through which the kernel hands its values to the preload. */
export const KERNEL_GLOBAL_KEY = 'scratchlab.kernel';

/** Names the preload declares itself; an export with one of these names is not imported. */
export const PRELOAD_NAMES: readonly string[] = [
  'scratchlab',
  'session',
  'sandbox',
  'show',
  'plot',
  'live',
  'display',
];

/** Options of {@link preloadSource}. */
export interface PreloadOptions {
  /** Names exported by the `scratchlab` package (values and types). */
  exports: readonly string[];
  /** Declare `sandbox` (the sandbox kernel). */
  sandbox: boolean;
  /** Names the cells have declared themselves already: the preload leaves them alone. */
  declared?: ReadonlySet<string>;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

// The types of the helpers, as cells see them. They mirror kernel/helpers.ts and kernel/live.ts.
const SDK = "import('scratchlab')";
const PRESENTATION = "import('scratchlab/presentation')";
const SHOW_TYPE = `(value: unknown, options?: { rows?: number; kind?: ${PRESENTATION}.RecordKind }) => Promise<void>`;
const PROJECTS = `(${SDK}.Project | ${SDK}.UserProjectRow)[]`;
const PLOT_INPUT = [
  `readonly ${SDK}.CloudLogEntry[]`,
  `readonly ${PROJECTS}`,
  `PromiseLike<readonly ${SDK}.CloudLogEntry[]>`,
  `PromiseLike<readonly ${PROJECTS}>`,
  `${PRESENTATION}.VegaLiteSpec`,
].join(' | ');
const PLOT_OPTIONS = `${PRESENTATION}.LogsChartOptions & { metrics?: readonly ${PRESENTATION}.ProjectMetric[] }`;
const PLOT_TYPE = `(data: ${PLOT_INPUT}, options?: ${PLOT_OPTIONS}) => Promise<${PRESENTATION}.Chart>`;
const LIVE_SOURCE =
  "{ on(event: 'set' | 'sent', listener: (event: { name: string; value: string }) => void): unknown;" +
  " off(event: 'set' | 'sent', listener: (event: { name: string; value: string }) => void): unknown;" +
  ' connect?(): unknown; getAllVars?(): Record<string, string> }';
const LIVE_OPTIONS = '{ variables?: readonly string[]; window?: number; title?: string }';
const LIVE_HANDLE =
  `{ stop(): Promise<void>; chart(): ${PRESENTATION}.Chart; save(file: string): Promise<${PRESENTATION}.SavedFile>;` +
  ` readonly data: readonly ${PRESENTATION}.LivePoint[] }`;
const DISPLAY_OPTIONS = `{ rows?: number; kind?: ${PRESENTATION}.RecordKind }`;
const DISPLAY_TYPE = `(value: unknown, options?: ${DISPLAY_OPTIONS}) => { readonly id: string; update(value: unknown, options?: ${DISPLAY_OPTIONS}): Promise<void> }`;
const LIVE_TYPE = `(cloud: ${LIVE_SOURCE}, options?: ${LIVE_OPTIONS}) => ${LIVE_HANDLE}`;

/** The preload's TypeScript source. */
export function preloadSource(options: PreloadOptions): string {
  const reserved = new Set(PRELOAD_NAMES);
  const declared = options.declared ?? new Set<string>();
  const names = options.exports.filter(
    (n) => n !== 'default' && IDENTIFIER.test(n) && !reserved.has(n) && !declared.has(n),
  );
  const from = `Reflect.get(globalThis, Symbol.for(${JSON.stringify(KERNEL_GLOBAL_KEY)}))`;
  const lines = [
    "import * as scratchlab from 'scratchlab';",
    names.length > 0 ? `import { ${names.join(', ')} } from 'scratchlab';` : '',
    `const session: ${SDK}.Session = ${from}.session;`,
    options.sandbox ? `const sandbox: import('scratchlab/sandbox').Sandbox = ${from}.sandbox;` : '',
    `const show: ${SHOW_TYPE} = ${from}.show;`,
    `const plot: ${PLOT_TYPE} = ${from}.plot;`,
    `const live: ${LIVE_TYPE} = ${from}.live;`,
    `const display: ${DISPLAY_TYPE} = ${from}.display;`,
  ];
  // `const NAME: …` and `import * as NAME` lines of names the cells declared are left out.
  const ownName = (line: string) => /^(?:const|import \* as) ([\w$]+)/.exec(line)?.[1];
  return lines
    .filter((line) => line !== '')
    .filter((line) => {
      const name = ownName(line);
      return name === undefined || !declared.has(name);
    })
    .join('\n');
}
