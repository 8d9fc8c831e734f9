/**
 * Whether a cell is IPython's `exit`/`quit`: the word alone, called or not, with an optional `;`,
 * and comments anywhere (`exit  // bye`, `quit();` and a block comment). The cell is read token by token with
 * TypeScript's scanner, so a comment is skipped as the compiler skips it, while `'exit'` (a
 * string), `exit2`, `exit(1)` or `exit` inside other code is not the command.
 */
import type * as TypeScript from '@tslab/typescript-for-tslab';

/** Longest cell read for the command (it is a handful of tokens): longer cells are code. */
const MAX_EXIT_CELL = 4096;

/** The command a cell asks for (`exit` or `quit`), or `undefined` for a cell of other code. */
export function exitCommand(ts: typeof TypeScript, source: string): 'exit' | 'quit' | undefined {
  if (source.length > MAX_EXIT_CELL) return undefined;
  let invalid = false;
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, source, () => {
    invalid = true; // an unterminated comment or string
  });
  const kinds: TypeScript.SyntaxKind[] = [];
  const first = scanner.scan();
  const word = first === ts.SyntaxKind.Identifier ? scanner.getTokenText() : '';
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    kinds.push(kind);
    if (kinds.length > 3) return undefined;
  }
  if (invalid || (word !== 'exit' && word !== 'quit')) return undefined;
  const rest = kinds.join(' ');
  const { OpenParenToken: open, CloseParenToken: close, SemicolonToken: semicolon } = ts.SyntaxKind;
  const allowed = ['', `${semicolon}`, `${open} ${close}`, `${open} ${close} ${semicolon}`];
  return allowed.includes(rest) ? word : undefined;
}
