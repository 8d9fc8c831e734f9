/**
 * A cell's TypeScript as the JavaScript tslab's executor runs, made without the type checker.
 *
 * tslab converts each cell with a TypeScript program that re-reads every earlier cell's
 * declarations (type check included): tens of milliseconds a cell, growing with the session. Here
 * oxc strips the types in this thread (hundredths of a millisecond); esbuild (a round trip to its
 * helper process, as the REPL does) converts what oxc leaves to it: decorators, syntax errors (its
 * messages are the ones shown), an assignment to one of the cell's constants. acorn finds the
 * top-level declarations, which become properties of the global object, as the REPL's inputs do:
 * a later cell sees them, declares them again, and functions of earlier cells see the new values.
 * The type check runs beside the cell (./type-checker.ts) and only warns.
 *
 * The output is the body of the function tslab's executor wraps it in
 * (`(async) function (exports, require) { … }`): `import` becomes tslab's `require` with its
 * interop (so `scratchlab` resolves as before), `import()` too, the last expression statement's
 * value goes to `exports[lastExpressionVar]`, and the cell awaits at its top level when its syntax
 * tree says so. The first line holds only what the kernel adds (hoisted function names): frames on
 * it are not the cell's (../protocol/traceback.ts).
 */

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
const INTEROP = `globalThis[Symbol.for(${JSON.stringify(INTEROP_KEY)})]`;

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
  Object.defineProperty(globalThis, Symbol.for(INTEROP_KEY), { value: interop, configurable: true });
}

const TS_OPTIONS: TransformOptions = {
  loader: 'ts',
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

/** A cell that parses as an object literal (`{ a: 1 }`) is one, not a block, as in the REPL. */
function looksLikeObjectLiteral(code: string): boolean {
  return /^\s*\{/.test(code) && /\}\s*$/.test(code);
}

async function stripTypes(source: string): Promise<TransformResult> {
  const transform = await transformer();
  if (looksLikeObjectLiteral(source)) {
    try {
      return await transform(`(${source.trim()})`, TS_OPTIONS);
    } catch {
      // a block after all
    }
  }
  try {
    return await transform(source, TS_OPTIONS);
  } catch (error) {
    if (!isFailure(error)) throw error;
    const first = error.errors[0];
    throw new CellScriptError(
      first?.text ?? 'invalid cell',
      first?.location?.line ?? 1,
      (first?.location?.column ?? 0) + 1,
    );
  }
}

/**
 * An assignment to one of the cell's own constants is refused before it runs, as in the REPL, at
 * its place in the cell: past `added` (where {@link keepLastExpression} put its text), on that
 * line, esbuild's column counts the added text.
 */
function refuseConstantAssignment(result: TransformResult, added: Added | null): void {
  const warning = (result.warnings as EsbuildMessage[]).find((w) => w.id === 'assign-to-constant');
  if (!warning) return;
  const name = /"([^"]+)" is a constant/.exec(warning.text)?.[1] ?? '?';
  const line = warning.location?.line ?? 1;
  let column = warning.location?.column ?? 0;
  if (added !== null && line === added.line && column >= added.column + LAST_EXPRESSION.length)
    column -= LAST_EXPRESSION.length;
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

/** The `require` and interop of an `import` declaration, binding its names as globals. */
function importAssignment(js: string, statement: Node & { specifiers: Specifier[]; source: Node }): string {
  const required = `${INTEROP}(require(${js.slice(statement.source.start, statement.source.end)}))`;
  if (statement.specifiers.length === 0)
    return `require(${js.slice(statement.source.start, statement.source.end)});`;
  const namespace = statement.specifiers.find((s) => s.type === 'ImportNamespaceSpecifier');
  const named = statement.specifiers
    .filter((s) => s.type !== 'ImportNamespaceSpecifier')
    .map((s) => {
      if (s.type === 'ImportDefaultSpecifier') return `default: ${s.local.name}`;
      const imported = s.imported?.name ?? JSON.stringify(s.imported?.value ?? s.local.name);
      return `${imported}: ${s.local.name}`;
    });
  if (!namespace) return `({ ${named.join(', ')} } = ${required});`;
  const rest = named.length > 0 ? ` ({ ${named.join(', ')} } = ${namespace.local.name});` : '';
  return `${namespace.local.name} = ${required};${rest}`;
}

/** `import(x)` → tslab's `require` with its interop, a promise as `import()` answers. */
function dynamicImports(node: Node, edits: Edit[]): void {
  if (node.type === 'ImportExpression') {
    const source = (node as Node & { source: Node }).source;
    edits.push({
      at: node.start,
      remove: source.start - node.start,
      insert: `Promise.resolve().then(() => ${INTEROP}(require(`,
    });
    edits.push({ at: source.end, remove: node.end - source.end, insert: ')))' });
  }
  for (const [field, value] of Object.entries(node)) {
    if (field === 'type' || field === 'start' || field === 'end') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) dynamicImports(item, edits);
    } else if (isNode(value)) dynamicImports(value, edits);
  }
}

/**
 * `js` with `edits` made, all placed by the original text. At one place, insertions go first, in
 * the order they were made, then the edit that replaces text there.
 */
function applyEdits(js: string, edits: readonly Edit[]): string {
  const ordered = edits
    .map((edit, index) => ({ edit, index }))
    .sort(
      (a, b) =>
        a.edit.at - b.edit.at || Number(a.edit.remove > 0) - Number(b.edit.remove > 0) || a.index - b.index,
    );
  let out = '';
  let cursor = 0;
  for (const { edit } of ordered) {
    out += js.slice(cursor, edit.at) + edit.insert;
    cursor = Math.max(cursor, edit.at + edit.remove);
  }
  return out + js.slice(cursor);
}

/** The body of the cell's function (see the file's comment), from the cell's JavaScript. */
export function scriptOf(js: string): CellScript {
  let program: Node & { body: Node[] };
  const parsed = lastParse?.text === js ? lastParse.program : null;
  // Handed over once: a cell's tree (tens of MB for a cell of a MB) is not kept past its cell.
  lastParse = null;
  try {
    program =
      parsed ??
      (Parser.parse(js, {
        ecmaVersion: 'latest',
        sourceType: 'module',
        allowAwaitOutsideFunction: true,
      }) as Node & { body: Node[] });
  } catch (error) {
    const at = (error as { loc?: { line: number; column: number } }).loc;
    throw new CellScriptError(
      String((error as Error).message).replace(/ \(\d+:\d+\)$/, ''),
      at?.line ?? 1,
      (at?.column ?? 0) + 1,
    );
  }
  const edits: Edit[] = [];
  const declared: string[] = [];
  /** Set before the cell's first line: hoisted functions and `var`s. */
  const preamble: string[] = [];
  let hasToplevelAwait = false;

  for (const original of program.body) {
    let statement = original;
    hasToplevelAwait ||= awaits(statement);
    if (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') {
      const declaration = (statement as Node & { declaration: Node | null }).declaration;
      if (!declaration) {
        edits.push({ at: statement.start, remove: statement.end - statement.start, insert: '' });
        continue;
      }
      edits.push({ at: statement.start, remove: declaration.start - statement.start, insert: '' });
      statement = declaration;
    } else if (statement.type === 'ExportAllDeclaration') {
      edits.push({ at: statement.start, remove: statement.end - statement.start, insert: '' });
      continue;
    }
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
        // `var E = … (E || {})` (esbuild's enums and namespaces) reads the name before it is set.
        if (kind === 'var')
          for (const name of names)
            preamble.push(`if (!(${JSON.stringify(name)} in globalThis)) globalThis.${name} = undefined;`);
        dynamicImports(statement, edits);
        edits.push({ at: statement.start, remove: first.start - statement.start, insert: 'void (' });
        // `let x;` declares a fresh `x`; `var x;` keeps its value, as JavaScript does.
        for (const d of declarations)
          if (d.init === null && kind !== 'var') edits.push({ at: d.end, remove: 0, insert: ' = undefined' });
        edits.push({ at: last.end, remove: 0, insert: ')' });
        continue;
      }
      case 'FunctionDeclaration': {
        const id = (statement as Node & { id: Identifier | null }).id;
        if (id) {
          declared.push(id.name);
          // Hoisted, as the declaration is: callable from the cell's lines above it, and after.
          preamble.push(`globalThis.${id.name} = ${id.name};`);
        }
        break;
      }
      case 'ClassDeclaration': {
        const id = (statement as Node & { id: Identifier | null }).id;
        if (id) {
          declared.push(id.name);
          edits.push({ at: statement.start, remove: 0, insert: `${id.name} = ` });
          edits.push({ at: statement.end, remove: 0, insert: ';' });
        }
        break;
      }
    }
    if (statement.type !== 'ImportDeclaration') dynamicImports(statement, edits);
  }

  let lastExpressionVar: string | undefined;
  const last = program.body.at(-1);
  if (last?.type === 'ExpressionStatement') {
    const expression = (last as Node & { expression: Node }).expression;
    lastExpressionVar = freshName('tsLastExpr', new Set(declared));
    edits.push({ at: expression.start, remove: 0, insert: `exports.${lastExpressionVar} = (` });
    edits.push({ at: expression.end, remove: 0, insert: ')' });
  }

  return {
    output: `${preamble.join(' ')}\n${applyEdits(js, edits)}`,
    hasToplevelAwait,
    lastExpressionVar,
    declared: [...new Set(declared)],
  };
}

/**
 * `source` itself when it is plain JavaScript that TypeScript reads alike, so no type stripping is
 * needed: it has no `<` (`f<T>(x)` is a call in TypeScript, two comparisons in JavaScript) and
 * {@link runnableJavaScript} takes it. Otherwise `null`.
 */
export function plainJavaScript(source: string): string | null {
  return source.includes('<') ? null : runnableJavaScript(source);
}

/**
 * `source` (an object literal in parentheses) when it parses as JavaScript and assigns to no name
 * it declares `const` at its top level: esbuild refuses those, scopes considered, so such a cell
 * goes through esbuild. Otherwise `null`.
 */
function runnableJavaScript(source: string): string | null {
  const text = looksLikeObjectLiteral(source) && parses(`(${source.trim()})`) ? `(${source.trim()})` : source;
  const program = parses(text);
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
  return constants.size > 0 && assignsTo(program, constants) ? null : text;
}

const OXC_OPTIONS: OxcOptions = {
  lang: 'ts',
  sourceType: 'module',
  target: 'esnext',
  // Keep every import: one whose names this cell does not use is used by the next cells.
  typescript: { onlyRemoveTypeImports: true },
};

/**
 * The cell's types stripped in this thread by oxc (a few hundredths of a millisecond), or `null`
 * where esbuild must do it: a syntax error (esbuild's message and place are the ones shown), a
 * decorator (oxc's output would import a helper), an assignment to one of the cell's constants.
 */
export function strippedTypeScript(source: string): string | null {
  const strip = (text: string): string | null => {
    const result = oxcTransform('cell.ts', text, OXC_OPTIONS);
    return result.errors.length > 0 || result.code.includes('@oxc-project/runtime') ? null : result.code;
  };
  const code = (looksLikeObjectLiteral(source) ? strip(`(${source.trim()})`) : null) ?? strip(source);
  return code === null ? null : runnableJavaScript(code.replace(NAMESPACE_LET, 'var $1;'));
}

/**
 * oxc's top-level namespace: `let N;` then `(function(_N) {`. As `let`, the kernel makes `N` fresh,
 * and a namespace lost what an earlier cell's namespace, function or class of its name held;
 * esbuild writes `var N;`, which keeps the global's value (oxc indents nested ones).
 */
const NAMESPACE_LET =
  /^let ([\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*);(?=\n\(function\(_\1\d*\) \{)/gmu;

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
export async function cellScript(source: string): Promise<CellScript> {
  if (source.length > MAX_CELL_CHARS)
    throw new RangeError(`a cell holds at most ${MAX_CELL_CHARS} characters, this one ${source.length}`);
  const plain = plainJavaScript(source) ?? strippedTypeScript(source);
  if (plain !== null) return scriptOf(plain);
  lastParse = null; // esbuild's output is another text: the tree would only be held
  const kept = keepLastExpression(source);
  const result = await stripTypes(kept.text);
  refuseConstantAssignment(result, kept.at);
  return scriptOf(result.code);
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
