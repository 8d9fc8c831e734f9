/**
 * REPL input → JavaScript a `vm.Script` can run: TypeScript types stripped by esbuild, `import`
 * declarations turned into `await import()`, top-level `await` wrapped in an async function
 * (node-repl-await), top-level declarations made re-declarable (./redeclarable.ts), and incomplete
 * input recognised so the REPL asks for more lines.
 */
import { Recoverable } from 'node:repl';
import type { TransformOptions, TransformResult } from 'esbuild';
import { resolveScratchlabImports } from './module-loader.js';

/** JavaScript ready to run. */
interface Transpiled {
  /** The script's source. */
  readonly code: string;
  /** True when `code` is an async function call: its value is the promise of the input's value. */
  readonly async: boolean;
}

interface EsbuildLocation {
  line: number;
  column: number;
  lineText: string;
}

interface EsbuildMessage {
  /** The kind of a warning, e.g. `assign-to-constant`. */
  id?: string;
  text: string;
  location: EsbuildLocation | null;
}

interface EsbuildFailure {
  errors: EsbuildMessage[];
}

type Transform = (code: string, options: TransformOptions) => Promise<TransformResult>;

interface Tools {
  transform: Transform;
  processTopLevelAwait: (code: string) => string | null;
  redeclarable: (code: string) => string;
}

let tools: Promise<Tools> | undefined;

/**
 * esbuild (which starts a helper process), node-repl-await and ./redeclarable.ts (which load a
 * parser) are loaded on first use, so the prompt does not wait for them.
 */
function loadTools(): Promise<Tools> {
  tools ??= Promise.all([import('esbuild'), import('node-repl-await'), import('./redeclarable.js')]).then(
    ([esbuild, nra, { redeclarable }]) => {
      const transform: Transform = esbuild.transform;
      return {
        async transform(code, options) {
          try {
            return await transform(code, options);
          } catch (error) {
            // Ctrl-C in a runaway loop sends SIGINT to the whole process group, esbuild's helper
            // process included. `stop()` forgets the dead helper; the next call starts a new one.
            if (!(error instanceof Error && /service (is no longer running|was stopped)/.test(error.message)))
              throw error;
            await esbuild.stop();
            return transform(code, options);
          }
        },
        processTopLevelAwait: (code: string) => nra.processTopLevelAwait(code) || null,
        redeclarable,
      };
    },
  );
  tools.catch(() => {
    tools = undefined; // let the next input try again
  });
  return tools;
}

/** Loads the tools and starts esbuild's helper process ahead of the first input. */
export function warmUpTranspiler(): void {
  void loadTools()
    .then(({ transform }) => transform('', { loader: 'ts' }))
    .catch(() => undefined);
}

const TS_OPTIONS: TransformOptions = {
  loader: 'ts',
  // What this Node lacks is lowered, as tsc lowers it (an `accessor` field Node 20 cannot parse).
  target: `node${process.versions.node}`,
  // Keep every import: TypeScript would drop one whose names are unused yet, but in a REPL they
  // are used by the next line.
  // Decorators as TypeScript has long compiled them (the kernel's cells too).
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, experimentalDecorators: true } },
};

/**
 * node-repl-await parses ES2020 only. When the input uses newer syntax next to a top-level
 * `await`, it is lowered to ES2020 first (keeping the `await`).
 */
const LOWER_OPTIONS: TransformOptions = {
  loader: 'js',
  target: 'es2020',
  supported: { 'top-level-await': true },
};

function isFailure(error: unknown): error is EsbuildFailure {
  return typeof error === 'object' && error !== null && Array.isArray((error as EsbuildFailure).errors);
}

/** Input that parses as an object literal, e.g. `{ a: 1 }`, is one (not a block), as in node's REPL. */
function looksLikeObjectLiteral(code: string): boolean {
  return /^\s*\{/.test(code) && /\}\s*$/.test(code);
}

/** esbuild's words for input that stops early: an open bracket or block, an open comment. */
function stopsEarly(failure: EsbuildFailure): boolean {
  const first = failure.errors[0];
  return first !== undefined && /end of file|to terminate multi-line comment/.test(first.text);
}

/** Whether esbuild failed only because the input stops early: an open bracket, comment or template. */
async function isIncomplete(transform: Transform, code: string, failure: EsbuildFailure): Promise<boolean> {
  if (stopsEarly(failure)) return true;
  if (failure.errors[0]?.text !== 'Unterminated string literal') return false;
  // Quotes cannot span lines, template literals can: closing the template makes the input parse,
  // or stop early at a bracket still open around it (`String(\`a` + `\``: `)` expected).
  try {
    await transform(`${code}\``, TS_OPTIONS);
    return true;
  } catch (error) {
    return isFailure(error) && stopsEarly(error);
  }
}

/** `error` with a stack that points at the place in the input instead of a stack trace. */
function pointingAt<E extends Error>(error: E, at: EsbuildLocation | null | undefined): E {
  let stack = `${error.name}: ${error.message}`;
  if (at) {
    const text = at.lineText.replace(/\t/g, ' ');
    stack += `\n${text}\n${' '.repeat(Math.max(0, at.column))}^`;
  }
  error.stack = stack;
  return error;
}

/** A `SyntaxError` whose message points at the place, without a stack trace. */
function syntaxError(failure: EsbuildFailure): SyntaxError {
  const first = failure.errors[0];
  return pointingAt(new SyntaxError(first?.text ?? 'invalid input'), first?.location);
}

/**
 * The input's top-level `const`s become `var`s (./redeclarable.ts; an input that awaits makes them
 * globals too), which would let an assignment to one pass silently. esbuild finds those
 * assignments, scopes considered: the input is refused before it runs, as a cell is by the
 * kernel's type check, instead of V8's `TypeError` when the line runs.
 */
function refuseConstantAssignment(result: TransformResult): void {
  const warning = (result.warnings as EsbuildMessage[]).find((w) => w.id === 'assign-to-constant');
  if (!warning) return;
  const name = /"([^"]+)" is a constant/.exec(warning.text)?.[1];
  const message = name ? `Assignment to constant variable '${name}'.` : 'Assignment to constant variable.';
  throw pointingAt(new TypeError(message), warning.location);
}

/** The names of an import clause as a pattern: `a, { b as c }` → `{ default: a, b: c }`. */
function destructuring(clause: string): string {
  const parts: string[] = [];
  const named = /\{([\s\S]*)\}/.exec(clause);
  const head = clause
    .replace(/\{[\s\S]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  if (head) parts.push(`default: ${head}`);
  if (named) {
    for (const item of named[1]!.split(',')) {
      const [name, alias] = item.trim().split(/\s+as\s+/);
      if (name) parts.push(alias ? `${name}: ${alias}` : name);
    }
  }
  return `{ ${parts.join(', ')} }`;
}

/**
 * Static imports cannot run in a script: each becomes a dynamic import bound to the same names.
 * Works on esbuild's output, where imports are normalised (double quotes, one per statement).
 */
export function rewriteImports(js: string): string {
  // An input is no module: `export` of a declaration declares it (as a notebook cell's does).
  return js
    .replace(/^export (?=(?:var|let|const|function|async function|class) )/gm, '')
    .replace(/^import\s+("[^"\n]*");?$/gm, 'await import($1);')
    .replace(/^import\s+([\w$*\s{},]+?)\s+from\s+("[^"\n]*");?$/gm, (_, clause: string, from: string) => {
      const namespace = /\*\s+as\s+([\w$]+)/.exec(clause);
      if (namespace) {
        const rest = clause.replace(/,?\s*\*\s+as\s+[\w$]+/, '').trim();
        const extra = rest ? ` const ${destructuring(rest)} = ${namespace[1]};` : '';
        return `const ${namespace[1]} = await import(${from});${extra}`;
      }
      return `const ${destructuring(clause)} = await import(${from});`;
    });
}

async function stripTypes(transform: Transform, input: string): Promise<string> {
  let result: TransformResult | undefined;
  if (looksLikeObjectLiteral(input)) {
    try {
      result = await transform(`(${input.trim()})`, TS_OPTIONS);
    } catch {
      // Not an object literal after all: a block. Parse it as written below.
    }
  }
  try {
    result ??= await transform(input, TS_OPTIONS);
  } catch (error) {
    if (!isFailure(error)) throw error;
    if (await isIncomplete(transform, input, error)) throw new Recoverable(syntaxError(error));
    throw syntaxError(error);
  }
  refuseConstantAssignment(result);
  return result.code;
}

/**
 * Turns one REPL input (possibly several lines) into JavaScript.
 *
 * @throws Recoverable when the input is incomplete (the REPL then reads another line).
 * @throws SyntaxError when it cannot be parsed.
 */
export async function transpile(input: string): Promise<Transpiled> {
  const { transform, processTopLevelAwait, redeclarable } = await loadTools();
  let js = resolveScratchlabImports(rewriteImports(await stripTypes(transform, input)));
  if (!/\bawait\b/.test(js)) return { code: redeclarable(js), async: false };
  let wrapped = processTopLevelAwait(js);
  if (!wrapped) {
    try {
      js = (await transform(js, LOWER_OPTIONS)).code;
      wrapped = processTopLevelAwait(js);
    } catch {
      // Leave it to V8, whose message will say what is wrong.
    }
  }
  return wrapped ? { code: wrapped, async: true } : { code: redeclarable(js), async: false };
}
