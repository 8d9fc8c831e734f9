/**
 * The `is_complete_request` answer, as a terminal front end (`jupyter console`) uses it to decide
 * whether Enter runs the code or opens a continuation line:
 * - `complete`: the code parses;
 * - `incomplete` (with the next line's indent, tslab's): every parse error sits at the very end of
 *   the code, where more text could still close it (`function f() {`, `1 +`, an open template);
 * - `invalid`: an error elsewhere (`const = ;`, `}`), or a string that cannot go on to the next
 *   line. A blank line at the end forces the question: then the code is complete or invalid, so a
 *   user can always get out of a continuation (as IPython lets an empty line end a block).
 *
 * tslab answers `complete` for any code whose errors are not "… expected" at its end, so code
 * that can never be valid ran as if finished.
 */
import type * as TypeScript from '@tslab/typescript-for-tslab';

/** What `is_complete_reply` carries. */
export type Completeness =
  | { status: 'complete' }
  | { status: 'invalid' }
  | { status: 'incomplete'; indent: string };

/** TypeScript's "Unterminated string literal": a quoted string never spans lines. */
const UNTERMINATED_STRING = 1002;

/** Longest code parsed; longer code is answered `complete` unparsed (the run reports its errors). */
const MAX_CODE = 1 << 20;

interface ParsedSource {
  parseDiagnostics?: readonly TypeScript.DiagnosticWithLocation[];
}

/**
 * Whether `code` is a complete cell. `indentOf` gives the next line's indent for incomplete code
 * (tslab's rule: one level more after an opening bracket).
 */
export function completeness(
  ts: typeof TypeScript,
  code: string,
  indentOf: (code: string) => string,
): Completeness {
  if (typeof code !== 'string') throw new TypeError('code must be a string');
  if (code.length > MAX_CODE) return { status: 'complete' };
  const source = ts.createSourceFile('cell.ts', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  // Internal to TypeScript but stable since 2.x: the syntax errors alone, without a type check.
  const errors = (source as unknown as ParsedSource).parseDiagnostics ?? [];
  if (errors.length === 0) return { status: 'complete' };
  const forced = /(^|\n)[ \t]*\n[ \t]*$/.test(code);
  const end = code.trimEnd().length;
  const atEnd = errors.every(
    (error) => error.start >= end && error.length === 0 && error.code !== UNTERMINATED_STRING,
  );
  if (!atEnd || forced) return { status: 'invalid' };
  return { status: 'incomplete', indent: indentOf(code) };
}
