/**
 * Every name a declaration file exports, values and types alike, following `export * from` and
 * `export type * from` into relative files. The kernel declares these names as globals
 * (./preload.ts), so cells can write `Session`, `ApiError` or `User` (a type only) without an import, and a name the package
 * exports later (such as `Cloud`) appears in cells without touching the kernel.
 *
 * Declarations are parsed, not type-checked, with tslab's TypeScript (already loaded): a few
 * milliseconds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type * as TypeScript from '@tslab/typescript-for-tslab';

/** Exported names of `file` (a `.d.ts`), sorted. */
export function exportedNames(ts: typeof TypeScript, file: string): string[] {
  const names = new Set<string>();
  collect(ts, file, names, new Set());
  return [...names].sort();
}

/** `./x.js` (as emitted declarations spell it) → the `.d.ts` beside it. */
function declarationOf(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier).replace(/\.(m|c)?js$/, '');
  for (const candidate of [`${base}.d.ts`, `${base}/index.d.ts`]) if (existsSync(candidate)) return candidate;
  return null;
}

function hasExportModifier(ts: typeof TypeScript, node: TypeScript.Node): boolean {
  const modifiers = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
}

function collect(ts: typeof TypeScript, file: string, names: Set<string>, seen: Set<string>): void {
  if (seen.has(file)) return;
  seen.add(file);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.add(element.name.text);
      } else if (clause && ts.isNamespaceExport(clause)) {
        names.add(clause.name.text);
      } else if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        // `export * from '../x.js'` and `export type * from '../x.js'`
        const target = declarationOf(file, statement.moduleSpecifier.text);
        if (target) collect(ts, target, names, seen);
      }
      continue;
    }
    if (!hasExportModifier(ts, statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name)) names.add(d.name.text);
    } else if (
      (ts.isClassDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name &&
      ts.isIdentifier(statement.name)
    ) {
      names.add(statement.name.text);
    }
  }
}
