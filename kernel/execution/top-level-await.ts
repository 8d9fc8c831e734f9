/**
 * Whether a cell awaits at its top level, decided from its syntax tree.
 *
 * tslab runs a cell in an `async` function only when it saw top-level `await`, and it sees it
 * through a type-checker complaint (TS1308, "`await` is only allowed in async functions"). The
 * parser only complains about the `await`s it read as the operator on its first pass, where the
 * top level is not an `await` context: `await x` (an identifier follows). `await (…)`, `await [`,
 * `await <T>x` read there as uses of a name `await`, and the parser then reads those statements
 * again as a module's top level, where `await` is the operator: no complaint, so no `async`
 * function, and the compiled `await (…)` fails (ReferenceError, or SyntaxError next to another
 * `await`). `for await` is never complained about at all. Here the cell is parsed as tslab
 * compiles it (a module), and every `await` and `for await` outside a function counts.
 */
import type * as TypeScript from '@tslab/typescript-for-tslab';

type TS = typeof TypeScript;

/** What tslab's converter answers for a cell (only what this module reads or changes). */
export interface Conversion {
  hasToplevelAwait?: boolean;
  diagnostics: readonly unknown[];
}

/** Whether `source`, run as a cell (the top level of a module), awaits outside any function. */
export function awaitsAtTopLevel(ts: TS, source: string): boolean {
  if (!/\bawait\b/.test(source)) return false; // no parse for the cells that cannot await
  // tslab's own prefix makes the cell a module, whose top level is an `await` context.
  const file = ts.createSourceFile(
    'cell.ts',
    `export {};\n${source}`,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  const visit = (node: TypeScript.Node): boolean => {
    if (ts.isAwaitExpression(node)) return true;
    if (ts.isForOfStatement(node) && node.awaitModifier !== undefined) return true;
    // Code that runs later, in its own function, has its own `await`s. A member's computed name
    // (`[await k]() {}`) and its decorators and its parameters' (`@log(await level) m() {}`,
    // compiled to `__decorate(…)` calls after the class) are evaluated where its class is.
    if (ts.isFunctionLike(node) || ts.isPropertyDeclaration(node)) {
      const name = (node as { name?: TypeScript.Node }).name;
      if (name !== undefined && ts.isComputedPropertyName(name) && visit(name)) return true;
      const decorated = ts.isFunctionLike(node) ? [node, ...node.parameters] : [node];
      return decorated.some(
        (part) => ts.canHaveDecorators(part) && (ts.getDecorators(part) ?? []).some(visit),
      );
    }
    if (ts.isClassStaticBlockDeclaration(node) || ts.isModuleDeclaration(node)) return false;
    return ts.forEachChild(node, visit) ?? false;
  };
  return ts.forEachChild(file, visit) ?? false;
}

/**
 * A converter whose conversions say `hasToplevelAwait` from the cell's syntax tree, so tslab's
 * executor runs every cell that awaits at its top level in an `async` function.
 */
export function awaitingConverter<C extends { convert(prevDecl: string, src: string): Conversion }>(
  ts: TS,
  converter: C,
): C {
  const convert = converter.convert.bind(converter);
  converter.convert = (prevDecl, src) => {
    const conversion = convert(prevDecl, src);
    if (conversion.diagnostics.length === 0 && !conversion.hasToplevelAwait && awaitsAtTopLevel(ts, src))
      conversion.hasToplevelAwait = true;
    return conversion;
  };
  return converter;
}
