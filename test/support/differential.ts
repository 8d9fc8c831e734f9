/**
 * The oracle of the differential suite (test/kernel/differential.test.ts): a session of cells run
 * as ONE TypeScript module, compiled by tsc (`transpileModule`, the compiler's own emit) and run
 * by Node, reporting for each cell what the kernel reports for it: its value (`util.inspect`'s
 * text at the kernel's depth, 4; nothing for `undefined` and `null`, as the kernel shows nothing), or its error (name,
 * message, and the `[cell, line]` of each frame in the session's cells, innermost first, mapped
 * back through tsc's source map by Node's `--enable-source-maps`).
 *
 * Each cell becomes its own lines of the module, unchanged but for `__record(i, (…))` around its
 * last expression (on its lines). A cell that declares nothing at its top level is wrapped in
 * `try { … } catch` (a block: it has no names to lose), so it may fail and the session goes on,
 * as in the kernel; a cell that declares names cannot be wrapped, so it may fail only as the
 * session's last cell.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** A session: cells run in order in one kernel, and as one module. */
export interface DiffSession {
  readonly name: string;
  readonly cells: readonly string[];
  /** Why the REPL means it otherwise (test/repl/differential.test.ts leaves it out), if it does. */
  readonly replDiffers?: string;
}

/** What a cell showed or threw. */
export type CellOutcome =
  | { readonly value: string }
  | { readonly nothing: true }
  | {
      readonly error: {
        readonly name: string;
        readonly message: string;
        readonly frames: [number, number][];
      };
    }
  | { readonly notRun: true };

/** A session as one module: its text, and the module line (1-based) where each cell starts. */
export interface SessionModule {
  readonly source: string;
  readonly starts: readonly number[];
  readonly lineCounts: readonly number[];
}

function declaresNames(statement: ts.Statement): boolean {
  return (
    ts.isVariableStatement(statement) ||
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement) ||
    ts.isImportDeclaration(statement) ||
    ts.isImportEqualsDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement)
  );
}

/** The module of `session` (see the file's comment). */
export function sessionModule(session: DiffSession): SessionModule {
  const lines: string[] = [];
  const starts: number[] = [];
  const lineCounts: number[] = [];
  session.cells.forEach((cell, i) => {
    const file = ts.createSourceFile(`cell${i}.ts`, cell, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const last = file.statements.at(-1);
    let text = cell;
    if (last && ts.isExpressionStatement(last)) {
      const start = last.expression.getStart(file);
      const end = last.expression.end;
      text = `${cell.slice(0, start)}__record(${i}, (${cell.slice(start, end)}))${cell.slice(end)}`;
    }
    const wrapped = !file.statements.some(declaresNames);
    if (wrapped) lines.push('try {');
    starts.push(lines.length + 1);
    const cellLines = text.split('\n');
    lineCounts.push(cellLines.length);
    lines.push(...cellLines);
    lines.push(`;__done(${i});`);
    if (wrapped) lines.push(`} catch (__error) { __fail(${i}, __error); }`);
  });
  lines.push('export {};');
  return { source: lines.join('\n'), starts, lineCounts };
}

/** Compiles `module` with tsc as `dir/name.ts` → `dir/name.mjs` (inline source map). */
function compile(module: SessionModule, dir: string, name: string): string {
  const out = ts.transpileModule(module.source, {
    fileName: `${name}.ts`,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      inlineSourceMap: true,
      experimentalDecorators: true,
      verbatimModuleSyntax: true,
    },
  });
  writeFileSync(join(dir, `${name}.ts`), module.source);
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, out.outputText);
  return file;
}

/** The driver run by Node: imports each module in turn, recording its cells' outcomes. */
const DRIVER = `
import { inspect } from 'node:util';
const files = JSON.parse(process.argv[2]);
const results = [];
for (const file of files) {
  const cells = [];
  globalThis.__record = (i, value) => {
    cells[i] = value === undefined || value === null ? { nothing: true } : { value: inspect(value, { depth: 4 }) };
    return value;
  };
  globalThis.__done = (i) => { cells[i] ??= { nothing: true }; };
  const described = (error) =>
    error instanceof Error
      ? { name: error.name || error.constructor?.name || 'Error', message: error.message, stack: String(error.stack) }
      : { name: 'Uncaught', message: inspect(error, { depth: 2 }), stack: '' };
  globalThis.__fail = (i, error) => { cells[i] = { error: described(error) }; };
  let died = null;
  try {
    await import(new URL('file://' + file).href);
  } catch (error) {
    died = described(error);
  }
  results.push({ cells, died });
}
process.stdout.write(JSON.stringify(results));
`;

interface RawError {
  name: string;
  message: string;
  stack: string;
}
type RawOutcome = { value: string } | { nothing: true } | { error: RawError };

/** The `[cell, line]` of each frame of `stack` in the module `name`. */
function framesOf(stack: string, file: string, module: SessionModule): [number, number][] {
  const frames: [number, number][] = [];
  // Node names a source-mapped frame by its path, another by its URL.
  const names = [file, pathToFileURL(file).href];
  for (const line of stack.split('\n')) {
    const name = names.find((n) => line.includes(`${n}:`));
    if (name === undefined || !/^\s*at /.test(line)) continue;
    const place = /^:(\d+):\d+/.exec(line.slice(line.indexOf(`${name}:`) + name.length));
    if (!place) continue;
    const moduleLine = Number(place[1]);
    const cell = module.starts.findLastIndex((start) => start <= moduleLine);
    if (cell === -1) continue;
    const cellLine = moduleLine - module.starts[cell]! + 1;
    if (cellLine <= module.lineCounts[cell]!) frames.push([cell, cellLine]);
  }
  return frames;
}

/**
 * Each session's cells' outcomes in Node, the sessions compiled into `dir` and run by one Node
 * process (within `timeoutMs`).
 */
export async function runInNode(
  sessions: readonly DiffSession[],
  dir: string,
  timeoutMs: number,
): Promise<CellOutcome[][]> {
  mkdirSync(dir, { recursive: true });
  const modules = sessions.map(sessionModule);
  const files = modules.map((module, i) => compile(module, dir, `session${i}`));
  const driver = join(dir, 'driver.mjs');
  writeFileSync(driver, DRIVER);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      ['--enable-source-maps', driver, JSON.stringify(files)],
      { timeout: timeoutMs, maxBuffer: 64 << 20, cwd: dir },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    );
  });
  const raw = JSON.parse(stdout) as { cells: (RawOutcome | null)[]; died: RawError | null }[];
  return raw.map(({ cells, died }, s) => {
    const module = modules[s]!;
    const tsFile = join(dir, `session${s}.ts`);
    const outcome = (error: RawError): CellOutcome => ({
      error: { name: error.name, message: error.message, frames: framesOf(error.stack, tsFile, module) },
    });
    let stopped = false;
    return sessions[s]!.cells.map((_, i): CellOutcome => {
      const cell = cells[i];
      if (cell) return 'error' in cell ? outcome(cell.error) : cell;
      // The first cell that did not finish is the one the module died in; the rest never ran.
      if (died && !stopped) {
        stopped = true;
        return outcome(died);
      }
      return { notRun: true };
    });
  });
}

/** The REPL's driver: each cell through the REPL's own transpile and script run (repl/evaluation/). */
const REPL_DRIVER = `
import { Script } from 'node:vm';
import { inspect, types } from 'node:util';
const [dist, cellsJson] = process.argv.slice(2);
const { transpile } = await import(dist + '/repl/evaluation/transpile.js');
const { importOption } = await import(dist + '/repl/evaluation/module-loader.js');
const outcomes = [];
for (const [i, cell] of JSON.parse(cellsJson).entries()) {
  try {
    const transpiled = await transpile(cell + '\\n');
    const script = new Script(transpiled.code, { filename: 'REPL' + (i + 1), ...importOption(transpiled.code) });
    let value = script.runInThisContext({ displayErrors: false });
    if (transpiled.async || types.isPromise(value)) value = await value;
    outcomes.push(value === undefined || value === null ? { nothing: true } : { value: inspect(value, { depth: 4 }) });
  } catch (error) {
    outcomes.push(
      error instanceof Error
        ? { error: { name: error.name, message: error.message } }
        : { error: { name: 'Uncaught', message: inspect(error, { depth: 2 }) } },
    );
  }
}
process.stdout.write(JSON.stringify(outcomes));
process.exit(0);
`;

/** What the REPL shows for a cell: its value, or its error's name and message (its lines are the REPL's own). */
export type ReplOutcome =
  | { readonly value: string }
  | { readonly nothing: true }
  | { readonly error: { readonly name: string; readonly message: string } };

/**
 * A session's cells as the REPL runs its inputs (its transpile, a script in the main context,
 * awaited when it awaits), in a Node process of its own (the REPL's names are its globals).
 */
export async function runInRepl(
  cells: readonly string[],
  dist: string,
  dir: string,
  timeoutMs: number,
): Promise<ReplOutcome[]> {
  mkdirSync(dir, { recursive: true });
  const driver = join(dir, 'repl-driver.mjs');
  writeFileSync(driver, REPL_DRIVER);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [driver, dist, JSON.stringify(cells)],
      { timeout: timeoutMs, maxBuffer: 64 << 20, cwd: dir },
      (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
    );
  });
  return JSON.parse(stdout) as ReplOutcome[];
}
