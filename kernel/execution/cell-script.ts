/**
 * A cell's TypeScript as the JavaScript tslab's executor runs, made without the type checker.
 *
 * tslab converts each cell with a TypeScript program that re-reads every earlier cell's
 * declarations (type check included): tens of milliseconds a cell, growing with the session. Here
 * oxc strips the types in this thread (hundredths of a millisecond); esbuild (a round trip to its
 * helper process, as the REPL does) converts what oxc leaves to it: decorators, syntax errors (its
 * messages are the ones shown), an assignment to one of the cell's constants. acorn finds the
 * top-level declarations, which become properties of the session's cell scope (an object of its
 * own, {@link createCellScope}), never of the global object: the cells run inside `with (scope)`,
 * so a later cell sees them, declares them again, and functions of earlier cells see the new
 * values, while the SDK, Node and the kernel keep their globals (a cell's `const URL` or
 * `class Map` is the cells' own). The cell's own code runs in a function of its own inside that
 * `with`, so a `'use strict'` cell is strict. The type check runs beside the cell
 * (./type-checker.ts) and only warns.
 *
 * The output is the body of the function tslab's executor wraps it in
 * (`(async) function (exports, require) { … }`): `import` becomes tslab's `require` with its
 * interop (so `scratchlab` resolves as before), `import()` too, the last expression statement's
 * value goes to `exports[lastExpressionVar]`, and the cell awaits at its top level when its syntax
 * tree says so. The first and last lines hold only what the kernel adds: frames on them are not the
 * cell's. Every line between is the cell's line of the same number (edits keep line breaks), and
 * {@link CellScript.sourceAt} maps a place back through oxc's or esbuild's source map
 * (../protocol/traceback.ts).
 */

import { SourceMap, type SourceMapPayload } from 'node:module';
import { isModuleNamespaceObject } from 'node:util/types';
import { type Node, Parser } from 'acorn';
import type { TransformOptions, TransformResult } from 'esbuild';
import { type TransformOptions as OxcOptions, transformSync as oxcTransform } from 'oxc-transform';
import { tslabTypeScript } from '../tslab.js';

/** What a cell becomes. */
export interface CellScript {
  /** The body of the function the executor runs the cell in. */
  readonly output: string;
  /** Whether the cell awaits at its top level (the executor then runs it in an `async` function). */
  readonly hasToplevelAwait: boolean;
  /** The `exports` key of the cell's value, when it ends with an expression. */
  readonly lastExpressionVar?: string;
  /** The top-level names the cell declares. */
  readonly declared: readonly string[];
  /** Whether the cell runs as an object literal (`{ a: 1 }` in parentheses): its check reads it so. */
  readonly objectLiteral: boolean;
  /**
   * The cell's 1-based line and column of a place in the code run (`output` as the executor wraps
   * it: its line 1 is the kernel's), or `null` for a place in what the kernel added.
   */
  sourceAt(line: number, column: number): { line: number; column: number } | null;
}

/** Why a cell cannot run: a syntax error (or an assignment to its own constant), at its place. */
export class CellScriptError extends Error {
  override readonly name = 'CellScriptError';
  /** 1-based line and column in the cell. */
  readonly line: number;
  readonly column: number;

  constructor(message: string, line: number, column: number) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

/** Largest cell converted (a cell is typed by a person; 1 MiB is a data dump). */
export const MAX_CELL_CHARS = 1024 * 1024;

/** `Symbol.for` key of the global interop helper the output calls (see {@link installInterop}). */
const INTEROP_KEY = 'scratchlab.kernel.interop';
/**
 * Its local name in the code run, set on the kernel's first line: read there, outside the cells'
 * scope, so a cell's own `globalThis`, `Symbol` or `Promise` does not break a later `import`.
 */
const INTEROP = '__scratchlabInterop';

/**
 * tslab's `esModuleInterop` for `require`: a CommonJS module's `module.exports` is its `default`
 * as well as its names; an ES module's namespace (Node's `require(esm)`) is taken as it is.
 */
export function installInterop(): void {
  const interop = (module: unknown): unknown => {
    if (module === null || (typeof module !== 'object' && typeof module !== 'function'))
      return { default: module };
    if ((module as { __esModule?: unknown }).__esModule || isModuleNamespaceObject(module)) return module;
    return Object.assign(Object.create(null) as object, module, { default: module });
  };
  // `import(x)`: the module loaded once the promise is awaited, as `import()` does.
  interop.later = (load: () => unknown): Promise<unknown> => Promise.resolve().then(load);
  interop.declare = declareNames;
  interop.named = (fn: object, name: string): object =>
    Object.defineProperty(fn, 'name', { value: name, configurable: true });
  interop.constant = makeConstant;
  Object.defineProperty(globalThis, Symbol.for(INTEROP_KEY), { value: interop, configurable: true });
}

const property = (value: unknown): PropertyDescriptor => ({
  value,
  writable: true,
  enumerable: true,
  configurable: true,
});

/**
 * Before a cell runs, each name it declares becomes a property of `scope` it may assign. A name
 * new to the scope is `undefined` (`var`, a function, an import), or, declared by `let`, `const`
 * or `class` (`lexical`), unreadable until its declaration runs, as in a module (reading it throws
 * a ReferenceError, the first assignment sets it). A name the scope has keeps its value (a later
 * cell declares it again), made writable again if an earlier cell's `const` made it constant.
 */
function declareNames(scope: object, names: readonly string[], lexical: readonly string[]): void {
  const isLexical = new Set(lexical);
  for (const name of names) {
    const held = Object.getOwnPropertyDescriptor(scope, name);
    if (held === undefined) {
      if (!isLexical.has(name)) Object.defineProperty(scope, name, property(undefined));
      else
        Object.defineProperty(scope, name, {
          get() {
            throw new ReferenceError(`Cannot access '${name}' before initialization`);
          },
          set(value: unknown) {
            Object.defineProperty(scope, name, property(value));
          },
          enumerable: true,
          configurable: true,
        });
    } else if (held.get) {
      let value: unknown;
      try {
        value = held.get.call(scope);
      } catch {
        value = undefined; // never initialized: an earlier cell failed before its declaration
      }
      Object.defineProperty(scope, name, property(value));
    }
  }
}

/** After a `const` declaration runs: its names are constant, as in a module, for every later cell. */
function makeConstant(scope: object, names: readonly string[]): void {
  for (const name of names) {
    const value: unknown = (scope as Record<string, unknown>)[name];
    Object.defineProperty(scope, name, {
      get: () => value,
      set() {
        throw new TypeError('Assignment to constant variable.');
      },
      enumerable: true,
      configurable: true,
    });
  }
}

/** `Symbol.for` key of the kernel's cell scope; a second scope (a test's runner) gets `.2`, … */
const SCOPE_KEY = 'scratchlab.kernel.scope';
const scopes: object[] = [];

/**
 * A new scope for one session's cells: an object without prototype, reachable from the cells'
 * code through a global symbol, that holds every top-level name the cells declare. Answers its key
 * for {@link cellScript}.
 */
export function createCellScope(): string {
  const key = scopes.length === 0 ? SCOPE_KEY : `${SCOPE_KEY}.${scopes.length + 1}`;
  const scope = Object.create(null) as object;
  scopes.push(scope);
  Object.defineProperty(globalThis, Symbol.for(key), { value: scope, configurable: true });
  return key;
}

/** Whether a cell declared `name` at its top level (in any scope). */
export function isCellName(name: string): boolean {
  return scopes.some((scope) => name in scope);
}

/** The local name of the scope in the code run (the cells' own names never reach it, see scriptOf). */
const SCOPE = '__scratchlabCellScope';
/** The executor's `exports` and `require`, by names a cell's own `exports` or `require` does not take. */
const EXPORTS = '__scratchlabExports';
const REQUIRE = '__scratchlabRequire';
/** What a cell's function declaration `f` is named in the code run (see scriptOf). */
const FUNCTION = '__scratchlabFunction_';

const TS_OPTIONS: TransformOptions = {
  loader: 'ts',
  sourcemap: true,
  // What this Node lacks is lowered, as tsc lowers it (an `accessor` field Node 20 cannot parse).
  target: `node${process.versions.node}`,
  // Keep every import: one whose names this cell does not use is used by the next cells.
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, experimentalDecorators: true } },
};

interface EsbuildMessage {
  id?: string;
  text: string;
  location: { line: number; column: number } | null;
}

type Transform = (code: string, options: TransformOptions) => Promise<TransformResult>;

let esbuild: Promise<Transform> | undefined;

/** esbuild's `transform`, loaded once (it starts its helper process). */
function transformer(): Promise<Transform> {
  esbuild ??= import('esbuild').then((module) => {
    const transform: Transform = module.transform;
    return async (code, options) => {
      try {
        return await transform(code, options);
      } catch (error) {
        // An interrupt can kill esbuild's helper process with the kernel's group: start another.
        if (!(error instanceof Error && /service (is no longer running|was stopped)/.test(error.message)))
          throw error;
        await module.stop();
        return transform(code, options);
      }
    };
  });
  return esbuild;
}

/** Starts esbuild ahead of the first cell that needs it. */
export function warmUpCellScripts(): Promise<void> {
  return transformer()
    .then((transform) => transform('', TS_OPTIONS))
    .then(
      () => undefined,
      () => undefined,
    );
}

function isFailure(error: unknown): error is { errors: EsbuildMessage[] } {
  return typeof error === 'object' && error !== null && Array.isArray((error as { errors?: unknown }).errors);
}

/**
 * A cell that starts with `{` is tried as an object literal in parentheses first (`{ a: 1 }`, a
 * comment after it too), as in the REPL: the text to try, or `null`. The parenthesis and line
 * break keep every line and the columns past line 1.
 */
function asObjectLiteral(code: string): string | null {
  return /^\s*\{/.test(code) ? `(${code}\n)` : null;
}

async function stripTypes(source: string, added: Added | null): Promise<Stripped> {
  const transform = await transformer();
  const literal = asObjectLiteral(source);
  if (literal !== null) {
    try {
      const result = await transform(literal, TS_OPTIONS);
      return { result, wrapped: true };
    } catch {
      // a block after all
    }
  }
  try {
    return { result: await transform(source, TS_OPTIONS), wrapped: false };
  } catch (error) {
    if (!isFailure(error)) throw error;
    const first = error.errors[0];
    const line = first?.location?.line ?? 1;
    throw new CellScriptError(
      first?.text ?? 'invalid cell',
      line,
      cellColumn(line, first?.location?.column ?? 0, added) + 1,
    );
  }
}

interface Stripped {
  result: TransformResult;
  wrapped: boolean;
}

/**
 * The cell's 0-based column of esbuild's 0-based `column` on 1-based `line`: past `added` (where
 * {@link keepLastExpression} put its text), on that line, esbuild's column counts the added text.
 */
function cellColumn(line: number, column: number, added: Added | null): number {
  return added !== null && line === added.line && column >= added.column + LAST_EXPRESSION.length
    ? column - LAST_EXPRESSION.length
    : column;
}

/**
 * An assignment to one of the cell's own constants is refused before it runs, as in the REPL, at
 * its place in the cell.
 */
function refuseConstantAssignment(result: TransformResult, added: Added | null): void {
  const warning = (result.warnings as EsbuildMessage[]).find((w) => w.id === 'assign-to-constant');
  if (!warning) return;
  const name = /"([^"]+)" is a constant/.exec(warning.text)?.[1] ?? '?';
  const line = warning.location?.line ?? 1;
  const column = cellColumn(line, warning.location?.column ?? 0, added);
  throw new CellScriptError(`Cannot assign to '${name}' because it is a constant.`, line, column + 1);
}

// The parts of acorn's tree read here.
interface Identifier extends Node {
  type: 'Identifier';
  name: string;
}
interface Declarator extends Node {
  id: Node;
  init: Node | null;
}
interface Specifier extends Node {
  type: 'ImportSpecifier' | 'ImportDefaultSpecifier' | 'ImportNamespaceSpecifier';
  local: Identifier;
  imported?: Node & { name?: string; value?: string };
}

/** The names a binding pattern binds. */
function boundNames(pattern: Node, out: string[]): void {
  const node = pattern as Node & Record<string, unknown>;
  switch (pattern.type) {
    case 'Identifier':
      out.push((pattern as Identifier).name);
      break;
    case 'ObjectPattern':
      for (const property of node.properties as (Node & { value?: Node; argument?: Node })[])
        boundNames(property.type === 'RestElement' ? property.argument! : property.value!, out);
      break;
    case 'ArrayPattern':
      for (const element of node.elements as (Node | null)[]) if (element) boundNames(element, out);
      break;
    case 'RestElement':
      boundNames(node.argument as Node, out);
      break;
    case 'AssignmentPattern':
      boundNames(node.left as Node, out);
      break;
  }
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Whether `node` awaits outside any function (computed keys of members count, their bodies not). */
function awaits(node: Node): boolean {
  if (node.type === 'AwaitExpression') return true;
  if (node.type === 'ForOfStatement' && (node as Node & { await?: boolean }).await) return true;
  if (FUNCTIONS.has(node.type) || node.type === 'StaticBlock') return false;
  const fields = node as unknown as Record<string, unknown>;
  if (node.type === 'MethodDefinition' || node.type === 'PropertyDefinition' || node.type === 'Property') {
    const key = fields.key as Node;
    if (fields.computed && awaits(key)) return true;
    // An object literal's property value runs now; a class member's later.
    return node.type === 'Property' && awaits(fields.value as Node);
  }
  for (const [field, value] of Object.entries(fields)) {
    if (field === 'type' || field === 'start' || field === 'end') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item) && awaits(item)) return true;
    } else if (isNode(value) && awaits(value)) return true;
  }
  return false;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';
}

interface Edit {
  at: number;
  remove: number;
  insert: string;
}

/** `name` not among `taken`: tslab's `tsLastExpr`, numbered when the cell has one. */
function freshName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 0; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

/** The `require` and interop of an `import` declaration, assigning its names (the scope's, see scriptOf). */
function importAssignment(js: string, statement: Node & { specifiers: Specifier[]; source: Node }): string {
  const required = `${INTEROP}(${REQUIRE}(${js.slice(statement.source.start, statement.source.end)}))`;
  if (statement.specifiers.length === 0)
    return `${REQUIRE}(${js.slice(statement.source.start, statement.source.end)});`;
  const namespace = statement.specifiers.find((s) => s.type === 'ImportNamespaceSpecifier');
  const named = statement.specifiers
    .filter((s) => s.type !== 'ImportNamespaceSpecifier')
    .map((s) => {
      if (s.type === 'ImportDefaultSpecifier') return `default: ${s.local.name}`;
      const imported = s.imported?.name ?? JSON.stringify(s.imported?.value ?? s.local.name);
      return `${imported}: ${s.local.name}`;
    });
  // `;` first: the line before may end without one, and a `(` would call its value.
  if (!namespace) return `;({ ${named.join(', ')} } = ${required});`;
  const rest = named.length > 0 ? ` ({ ${named.join(', ')} } = ${namespace.local.name});` : '';
  return `${namespace.local.name} = ${required};${rest}`;
}

/**
 * `import(x)` → tslab's `require` with its interop, a promise as `import()` answers; and a call of
 * a plain name `f(…)` → `(0, f)(…)` (a tag too): a name found in the cells' scope (a `with`
 * object) would be called with that object as its `this`, where TypeScript and Node call it with
 * none. `eval(…)` stays a direct eval. A call that starts a statement of a list (`starts`) gets a
 * `;` first: the statement before it may end without one, and a `(` would call its value
 * (`a()\nf()` must not become `a()\n(0, f)()`).
 */
function rewriteCalls(node: Node, edits: Edit[], starts: Set<number> = new Set()): void {
  for (const list of [(node as { body?: unknown }).body, (node as { consequent?: unknown }).consequent])
    if (Array.isArray(list))
      for (const item of list)
        if (isNode(item) && item.type === 'ExpressionStatement') starts.add(item.start);
  const callee =
    node.type === 'CallExpression'
      ? (node as Node & { callee: Node }).callee
      : node.type === 'TaggedTemplateExpression'
        ? (node as Node & { tag: Node }).tag
        : null;
  if (callee?.type === 'Identifier' && (callee as Identifier).name !== 'eval') {
    edits.push({ at: callee.start, remove: 0, insert: starts.has(callee.start) ? ';(0, ' : '(0, ' });
    edits.push({ at: callee.end, remove: 0, insert: ')' });
  }
  if (node.type === 'ImportExpression') {
    const source = (node as Node & { source: Node }).source;
    edits.push({
      at: node.start,
      remove: source.start - node.start,
      insert: `${INTEROP}.later(() => ${INTEROP}(${REQUIRE}(`,
    });
    edits.push({ at: source.end, remove: node.end - source.end, insert: ')))' });
  }
  for (const [field, value] of Object.entries(node)) {
    if (field === 'type' || field === 'start' || field === 'end') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) rewriteCalls(item, edits, starts);
    } else if (isNode(value)) rewriteCalls(value, edits, starts);
  }
}

/**
 * A `var` in a block, loop, `try` or `switch` of the cell's top level (outside any function or
 * class) is a top-level name too, as in a module (`for (var i …)`, `try { var data = … }`): it
 * becomes an assignment to the scope's name (`void (x = …)`, `for (x of …)`), its names are
 * `declared`. `head` says `node` is a `for`'s declaration, whose `var` is only dropped.
 */
function nestedVars(node: Node, edits: Edit[], declared: string[], head: boolean): void {
  if (FUNCTIONS.has(node.type) || node.type === 'ClassDeclaration' || node.type === 'ClassExpression') return;
  if (node.type === 'VariableDeclaration') {
    const { kind, declarations } = node as Node & { kind: string; declarations: Declarator[] };
    const first = declarations[0];
    const last = declarations.at(-1);
    if (kind !== 'var' || !first || !last) return;
    for (const d of declarations) boundNames(d.id, declared);
    edits.push({ at: node.start, remove: first.start - node.start, insert: head ? '' : 'void (' });
    if (!head) edits.push({ at: last.end, remove: 0, insert: ')' });
    return; // what its initializers hold is expressions: no `var` of this scope in them
  }
  const fields = node as unknown as Record<string, unknown>;
  for (const [field, value] of Object.entries(fields)) {
    if (field === 'type' || field === 'start' || field === 'end') continue;
    const isHead =
      (node.type === 'ForStatement' && field === 'init') ||
      ((node.type === 'ForInStatement' || node.type === 'ForOfStatement') && field === 'left');
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) nestedVars(item, edits, declared, false);
    } else if (isNode(value)) nestedVars(value, edits, declared, isHead);
  }
}

/** `js` with edits made, and which of its slices went where (`[outStart, jsStart, length]` each). */
interface Edited {
  text: string;
  slices: number[];
}

/**
 * `js` with `edits` made, all placed by the original text. At one place, insertions go first, in
 * the order they were made, then the edit that replaces text there. A replaced text's line breaks
 * are kept (after its replacement), so each line of the result is the line of `js` of its number.
 */
function applyEdits(js: string, edits: readonly Edit[]): Edited {
  const ordered = edits
    .map((edit, index) => ({ edit, index }))
    .sort(
      (a, b) =>
        a.edit.at - b.edit.at || Number(a.edit.remove > 0) - Number(b.edit.remove > 0) || a.index - b.index,
    );
  let out = '';
  let cursor = 0;
  const slices: number[] = [];
  const copy = (to: number) => {
    if (to > cursor) slices.push(out.length, cursor, to - cursor);
    out += js.slice(cursor, Math.max(cursor, to));
  };
  for (const { edit } of ordered) {
    copy(edit.at);
    out += edit.insert;
    const removed = js.slice(Math.max(cursor, edit.at), edit.at + edit.remove);
    out += '\n'.repeat(Math.max(0, lineBreaks(removed) - lineBreaks(edit.insert)));
    cursor = Math.max(cursor, edit.at + edit.remove);
  }
  copy(js.length);
  return { text: out, slices };
}

function lineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Offsets where each line of `text` starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Where a cell's JavaScript came from: the transform's source map, and what was added to the cell. */
export interface Origin {
  /** oxc's or esbuild's source map of the JavaScript (none: the cell is the JavaScript). */
  readonly map: SourceMapPayload | null;
  /** The cell was run as `(` + cell + `\n)` (an object literal): one column more on line 1. */
  readonly wrapped: boolean;
  /** Where {@link keepLastExpression} added its text (esbuild's input), if it did. */
  readonly added: Added | null;
}

const NO_ORIGIN: Origin = { map: null, wrapped: false, added: null };

/** The cell's 1-based line and column of the 0-based `line` and `column` of its JavaScript. */
function cellPlace(origin: Origin, map: () => SourceMap | null, line: number, column: number) {
  let at = { line, column };
  const found = map()?.findEntry(line, column) as
    | { originalLine?: number; originalColumn?: number }
    | undefined;
  if (typeof found?.originalLine === 'number' && typeof found.originalColumn === 'number')
    at = { line: found.originalLine, column: found.originalColumn };
  let cellColumnAt = at.line === 0 && origin.wrapped ? Math.max(0, at.column - 1) : at.column;
  if (origin.map !== null) cellColumnAt = cellColumn(at.line + 1, cellColumnAt, origin.added);
  return { line: at.line + 1, column: cellColumnAt + 1 };
}

/** The body of the cell's function (see the file's comment), from the cell's JavaScript. */
export function scriptOf(js: string, scope: string = SCOPE_KEY, origin: Origin = NO_ORIGIN): CellScript {
  let program: Node & { body: Node[] };
  const parsed = lastParse?.text === js ? lastParse.program : null;
  // Handed over once: a cell's tree (tens of MB for a cell of a MB) is not kept past its cell.
  lastParse = null;
  let sourceMap: SourceMap | null | undefined;
  const map = () => {
    sourceMap ??= origin.map === null ? null : new SourceMap(origin.map);
    return sourceMap;
  };
  try {
    program =
      parsed ??
      (Parser.parse(js, {
        ecmaVersion: 'latest',
        sourceType: 'module',
        allowAwaitOutsideFunction: true,
      }) as Node & { body: Node[] });
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    // acorn reads the transform's output: its place is mapped back to the cell's.
    const at = cellPlace(origin, map, (loc?.line ?? 1) - 1, loc?.column ?? 0);
    throw new CellScriptError(
      String((error as Error).message).replace(/ \(\d+:\d+\)$/, ''),
      at.line,
      at.column,
    );
  }
  const edits: Edit[] = [];
  const declared: string[] = [];
  /** `scope.f = f` for each hoisted function, before the cell's first statement. */
  const hoisted: string[] = [];
  /** The names declared by `let`, `const` and `class`: unreadable until their declaration runs. */
  const lexical: string[] = [];
  let hasToplevelAwait = false;
  // The last expression's capture goes first at its place (before a call's `(0, `): made now,
  // named once the cell's names are known.
  const last = program.body.at(-1);
  const capture: Edit | null =
    last?.type === 'ExpressionStatement'
      ? { at: (last as Node & { expression: Node }).expression.start, remove: 0, insert: '' }
      : null;
  if (capture) edits.push(capture);

  for (const original of program.body) {
    let statement = original;
    hasToplevelAwait ||= awaits(statement);
    if (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') {
      const declaration = (statement as Node & { declaration: Node | null }).declaration;
      if (!declaration) {
        edits.push({ at: statement.start, remove: statement.end - statement.start, insert: '' });
        continue;
      }
      // `export default` of an expression, or of a function or class without a name, runs it as an
      // expression (a statement may not start with `function (`, `class {` or `{ a: 1, b: 2 }`).
      const named =
        (declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') &&
        (declaration as Node & { id: Identifier | null }).id !== null;
      const unnamed = statement.type === 'ExportDefaultDeclaration' && !named;
      edits.push({
        at: statement.start,
        remove: declaration.start - statement.start,
        insert: unnamed ? 'void ' : '',
      });
      statement = declaration;
      if (unnamed) {
        rewriteCalls(statement, edits);
        continue;
      }
    } else if (statement.type === 'ExportAllDeclaration') {
      edits.push({ at: statement.start, remove: statement.end - statement.start, insert: '' });
      continue;
    }
    if (
      statement.type !== 'VariableDeclaration' &&
      statement.type !== 'FunctionDeclaration' &&
      statement.type !== 'ClassDeclaration' &&
      statement.type !== 'ImportDeclaration'
    )
      nestedVars(statement, edits, declared, false);
    switch (statement.type) {
      case 'ImportDeclaration': {
        const declaration = statement as Node & { specifiers: Specifier[]; source: Node };
        for (const s of declaration.specifiers) declared.push(s.local.name);
        edits.push({
          at: statement.start,
          remove: statement.end - statement.start,
          insert: importAssignment(js, declaration),
        });
        break;
      }
      case 'VariableDeclaration': {
        const { kind, declarations } = statement as Node & { kind: string; declarations: Declarator[] };
        if (kind !== 'var' && kind !== 'let' && kind !== 'const') break; // `using` stays the cell's own
        const first = declarations[0];
        const last = declarations.at(-1);
        if (!first || !last) break;
        const names: string[] = [];
        for (const d of declarations) boundNames(d.id, names);
        // esbuild's helpers (`var __decorateClass = …`) stay the cell's own.
        if (kind === 'var' && names.every((name) => name.startsWith('__'))) break;
        declared.push(...names);
        if (kind !== 'var') lexical.push(...names);
        rewriteCalls(statement, edits);
        edits.push({ at: statement.start, remove: first.start - statement.start, insert: 'void (' });
        // `let x;` declares a fresh `x`; `var x;` keeps its value, as JavaScript does.
        for (const d of declarations)
          if (d.init === null && kind !== 'var') edits.push({ at: d.end, remove: 0, insert: ' = undefined' });
        edits.push({
          at: last.end,
          remove: 0,
          insert: kind === 'const' ? `, ${INTEROP}.constant(${SCOPE}, ${JSON.stringify(names)}))` : ')',
        });
        continue;
      }
      case 'FunctionDeclaration': {
        const id = (statement as Node & { id: Identifier | null }).id;
        if (id) {
          declared.push(id.name);
          // Declared under a name of its own, so the cell's `f` is the scope's: an assignment to it
          // in this cell (`f = memo(f)`) reaches the later cells and this cell's own functions, as
          // in one module. Its `name` is its own. Hoisted, as the declaration is: callable from the
          // cell's lines above it, and after.
          const local = `${FUNCTION}${id.name}`;
          edits.push({ at: id.start, remove: id.end - id.start, insert: local });
          hoisted.push(
            `${SCOPE}[${JSON.stringify(id.name)}] = ${INTEROP}.named(${local}, ${JSON.stringify(id.name)});`,
          );
        }
        break;
      }
      case 'ClassDeclaration': {
        const id = (statement as Node & { id: Identifier | null }).id;
        if (id) {
          declared.push(id.name);
          lexical.push(id.name);
          edits.push({ at: statement.start, remove: 0, insert: `${id.name} = ` });
          edits.push({ at: statement.end, remove: 0, insert: ';' });
        }
        break;
      }
    }
    // The last statement's capture comes first at its place: no `;` there.
    if (statement.type !== 'ImportDeclaration')
      rewriteCalls(statement, edits, new Set(original === last && capture ? [] : [statement.start]));
  }

  let lastExpressionVar: string | undefined;
  if (capture && last) {
    lastExpressionVar = freshName('tsLastExpr', new Set(declared));
    capture.insert = `${EXPORTS}.${lastExpressionVar} = (`;
    edits.push({ at: (last as Node & { expression: Node }).expression.end, remove: 0, insert: ')' });
  }

  // A directive prologue (`'use strict'`) stays first in the cell's function: the hoisted names
  // are set after it.
  let directives: Node | undefined;
  for (const statement of program.body) {
    if (
      statement.type !== 'ExpressionStatement' ||
      typeof (statement as { directive?: unknown }).directive !== 'string'
    )
      break;
    directives = statement;
  }
  if (directives && hoisted.length > 0)
    edits.push({ at: directives.end, remove: 0, insert: `; ${hoisted.join(' ')}` });

  const names = [...new Set(declared)];
  // Every name the cell declares is the scope's before its first line runs, so its assignments
  // (and `var E = … (E || {})` reading it first) reach the scope, never the global object.
  const ensure =
    names.length === 0
      ? ''
      : `${INTEROP}.declare(${SCOPE}, ${JSON.stringify(names)}, ${JSON.stringify([...new Set(lexical)])});`;
  const head =
    `var ${SCOPE} = globalThis[Symbol.for(${JSON.stringify(scope)})], ${EXPORTS} = exports, ${REQUIRE} = require, ` +
    `${INTEROP} = globalThis[Symbol.for(${JSON.stringify(INTEROP_KEY)})]; ${ensure}` +
    ` with (${SCOPE}) return (${hasToplevelAwait ? 'async ' : ''}function () {${directives ? '' : ` ${hoisted.join(' ')}`}`;
  const edited = applyEdits(js, edits);
  let starts: number[] | undefined;
  let jsStarts: number[] | undefined;
  const sourceAt = (line: number, column: number) => {
    starts ??= lineStarts(edited.text);
    if (line < 2 || line - 2 >= starts.length) return null;
    const at = (starts[line - 2] ?? 0) + Math.max(0, column - 1);
    const { slices } = edited;
    // The last slice copied to at or before `at` (a place inside added text: the slice's end).
    let low = 0;
    let high = slices.length / 3 - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if ((slices[middle * 3] ?? 0) <= at) {
        found = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    // Inside what was put before the cell's first text (`void (` for `const x = …`, which V8 names
    // as the place of a name read there): the place of that first text.
    if (found === -1 && slices.length > 0 && at >= 0) found = 0;
    if (found === -1) return null;
    const [outStart = 0, jsStart = 0, length = 0] = slices.slice(found * 3, found * 3 + 3);
    const offset = jsStart + Math.max(0, Math.min(at - outStart, length));
    jsStarts ??= lineStarts(js);
    let jsLine = 0;
    while (jsLine + 1 < jsStarts.length && (jsStarts[jsLine + 1] ?? 0) <= offset) jsLine++;
    return cellPlace(origin, map, jsLine, offset - (jsStarts[jsLine] ?? 0));
  };
  return {
    output: `${head}\n${edited.text}\n}).call(this);`,
    hasToplevelAwait,
    lastExpressionVar,
    declared: names,
    objectLiteral: origin.wrapped,
    sourceAt,
  };
}

/**
 * `source` itself when it is plain JavaScript that TypeScript reads alike, so no type stripping is
 * needed: it has no `<` (`f<T>(x)` is a call in TypeScript, two comparisons in JavaScript) and
 * {@link runnableJavaScript} takes it (an object literal in parentheses). Otherwise `null`.
 */
export function plainJavaScript(source: string): string | null {
  return plainCell(source)?.code ?? null;
}

/**
 * What only TypeScript writes: a type, interface, enum or namespace declared at a line's start, a
 * `const`/`let`/`var` or a parameter annotated (`const n: number`, `(x: T`). A cell with one goes
 * to oxc at once rather than through a parse as JavaScript that fails (0.1 ms of a cell's reply in
 * the kernel). One in a string or a comment only sends a JavaScript cell to oxc, which runs it alike
 * (as for a `<`).
 */
const TYPESCRIPT_MARK =
  /^[ \t]*(?:export[ \t]+)?(?:declare[ \t]+)?(?:interface|type|enum|namespace|abstract[ \t]+class)[ \t]+[\p{ID_Start}$_]|(?:\b(?:const|let|var)[ \t]+|\([ \t]*)[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*\??[ \t]*:/mu;

/** A cell's JavaScript and where it came from. */
interface CellJavaScript {
  code: string;
  origin: Origin;
}

function plainCell(source: string): CellJavaScript | null {
  if (source.includes('<') || TYPESCRIPT_MARK.test(source)) return null;
  const literal = asObjectLiteral(source);
  if (literal !== null && runnableJavaScript(literal) !== null)
    return { code: literal, origin: { map: null, wrapped: true, added: null } };
  const code = runnableJavaScript(source);
  return code === null ? null : { code, origin: NO_ORIGIN };
}

/**
 * `source` when it parses as JavaScript and assigns to no name it declares `const` at its top
 * level: esbuild refuses those, scopes considered, so such a cell goes through esbuild. Otherwise
 * `null`.
 */
function runnableJavaScript(source: string): string | null {
  const program = parses(source);
  if (!program) return null;
  const constants = new Set<string>();
  for (const statement of program.body) {
    const declaration =
      (statement.type === 'ExportNamedDeclaration'
        ? (statement as Node & { declaration: Node | null }).declaration
        : statement) ?? statement;
    if (
      declaration.type !== 'VariableDeclaration' ||
      (declaration as Node & { kind: string }).kind !== 'const'
    )
      continue;
    for (const d of (declaration as Node & { declarations: Declarator[] }).declarations) {
      const names: string[] = [];
      boundNames(d.id, names);
      for (const name of names) constants.add(name);
    }
  }
  return constants.size > 0 && assignsTo(program, constants) ? null : source;
}

const OXC_OPTIONS: OxcOptions = {
  lang: 'ts',
  sourceType: 'module',
  target: 'esnext',
  // Keep every import: one whose names this cell does not use is used by the next cells.
  typescript: { onlyRemoveTypeImports: true },
  // Frames and acorn's errors are traced back through it (see scriptOf).
  sourcemap: true,
};

/**
 * The cell's types stripped in this thread by oxc (a few hundredths of a millisecond), or `null`
 * where esbuild must do it: a syntax error (esbuild's message and place are the ones shown), a
 * decorator (oxc's output would import a helper), an assignment to one of the cell's constants.
 */
export function strippedTypeScript(source: string): string | null {
  return strippedCell(source)?.code ?? null;
}

function strippedCell(source: string): CellJavaScript | null {
  const strip = (text: string): { code: string; map: SourceMapPayload | null } | null => {
    const result = oxcTransform('cell.ts', text, OXC_OPTIONS);
    if (result.errors.length > 0 || result.code.includes('@oxc-project/runtime')) return null;
    return { code: result.code, map: (result.map as SourceMapPayload | undefined) ?? null };
  };
  const literal = asObjectLiteral(source);
  const asLiteral = literal === null ? null : strip(literal);
  const stripped = asLiteral ?? strip(source);
  if (stripped === null) return null;
  const code = runnableJavaScript(
    stripped.code.replace(NAMESPACE_LET, 'var $1;').replace(EXPORTED_ENUM, 'var $1 = $2}($1 || {});'),
  );
  return code === null
    ? null
    : { code, origin: { map: stripped.map, wrapped: asLiteral !== null, added: null } };
}

/**
 * oxc's top-level namespace: `let N;` (`export let N;` when exported) then `(function(_N) {`. As
 * `let`, the kernel makes `N` fresh, and a namespace lost what an earlier cell's namespace,
 * function or class of its name held; tsc and esbuild write `var N;`, which keeps the value (oxc
 * indents nested ones).
 */
const NAMESPACE_LET =
  /^(?:export )?let ([\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*);(?=\n\(function\(_\1\d*\) \{)/gmu;

/**
 * oxc's exported enum: `export let E = /* @__PURE__ *\/ function(E) { … }({});` starts from an empty
 * object where tsc merges with an earlier enum of the name (`(E || {})`, as oxc does for an enum
 * not exported). Its members are indented; its end is the first `}({});` at the line's start.
 */
const EXPORTED_ENUM =
  /^export let ([\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*) = (\/\* @__PURE__ \*\/ function\(\1\) \{\n(?:[\t ].*\n|\n)*?)\}\(\{\}\);$/gmu;

/**
 * The text {@link parses} read last, and its tree: {@link scriptOf} reads that same text right
 * after (and lets it go), and a cell is parsed once (the trees are only read).
 */
let lastParse: { text: string; program: (Node & { body: Node[] }) | null } | null = null;

/** acorn's tree of `text` as a cell (a module that may await at its top level), or `null`. */
function parses(text: string): (Node & { body: Node[] }) | null {
  if (lastParse?.text === text) return lastParse.program;
  let program: (Node & { body: Node[] }) | null;
  try {
    program = Parser.parse(text, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      allowAwaitOutsideFunction: true,
    }) as Node & { body: Node[] };
  } catch {
    program = null;
  }
  lastParse = { text, program };
  return program;
}

/** Whether `node` assigns to (or updates) a name of `names` anywhere, shadowed or not. */
function assignsTo(node: Node, names: ReadonlySet<string>): boolean {
  const fields = node as unknown as Record<string, unknown>;
  if (node.type === 'AssignmentExpression' || node.type === 'UpdateExpression') {
    const target = (fields.left ?? fields.argument) as Node;
    const bound: string[] = [];
    boundNames(target, bound);
    if (bound.some((name) => names.has(name))) return true;
  }
  for (const [field, value] of Object.entries(fields)) {
    if (field === 'type' || field === 'start' || field === 'end') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item) && assignsTo(item, names)) return true;
    } else if (isNode(value) && assignsTo(value, names)) return true;
  }
  return false;
}

/**
 * Converts a cell.
 *
 * @throws RangeError past {@link MAX_CELL_CHARS}.
 * @throws CellScriptError when it does not parse, or assigns to one of its own constants.
 */
export async function cellScript(source: string, scope: string = SCOPE_KEY): Promise<CellScript> {
  if (source.length > MAX_CELL_CHARS)
    throw new RangeError(`a cell holds at most ${MAX_CELL_CHARS} characters, this one ${source.length}`);
  const plain = plainCell(source) ?? strippedCell(source);
  if (plain !== null) return scriptOf(plain.code, scope, plain.origin);
  lastParse = null; // esbuild's output is another text: the tree would only be held
  const kept = keepLastExpression(source);
  const { result, wrapped } = await stripTypes(kept.text, kept.at);
  refuseConstantAssignment(result, kept.at);
  const map = result.map ? (JSON.parse(result.map) as SourceMapPayload) : null;
  return scriptOf(result.code, scope, { map, wrapped, added: wrapped ? null : kept.at });
}

/**
 * The cell with its last expression statement assigned to `exports.tsLastExpr` before its types
 * are stripped: esbuild drops an expression it sees no use for (`undefined`, `-1`, `NaN`, `!0`),
 * and the value of the statement before would then show as the cell's. {@link scriptOf} captures
 * the assignment's value, which is the expression's. A cell TypeScript cannot parse is left as
 * it is, for esbuild to report.
 */
function keepLastExpression(source: string): { text: string; at: Added | null } {
  const ts = tslabTypeScript();
  const file = ts.createSourceFile('cell.ts', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const diagnostics = (file as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics;
  const last = file.statements.at(-1);
  if (!last || !ts.isExpressionStatement(last) || diagnostics === undefined || diagnostics.length > 0)
    return { text: source, at: null };
  const start = last.expression.getStart(file);
  const end = last.expression.end;
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  return {
    text: `${source.slice(0, start)}${LAST_EXPRESSION}${source.slice(start, end)})${source.slice(end)}`,
    at: { line: line + 1, column: character },
  };
}

/** What {@link keepLastExpression} puts before the cell's last expression. */
const LAST_EXPRESSION = 'exports.tsLastExpr = (';

/** Where that text went: 1-based line, 0-based column (esbuild's). */
interface Added {
  line: number;
  column: number;
}
