/**
 * Top-level declarations that a later input can make again, as a notebook cell can.
 *
 * Each input runs as a script in the main context, where a top-level `const`, `let` or `class`
 * is a binding of the global scope that no later script may declare again ("Identifier 'x' has
 * already been declared"): a corrected line could not be typed again. An input that awaits
 * already declares its names as properties of the global object (node-repl-await assigns them).
 * Here the other inputs do the same: their top-level `const`/`let` become `var`, a `class` a `var`
 * holding it. Nested declarations (blocks, loops, functions) are left as written.
 */
import { type Node, Parser } from 'acorn';

interface Declaration extends Node {
  type: 'VariableDeclaration';
  kind: 'var' | 'let' | 'const' | 'using' | 'await using';
  declarations: (Node & { init: Node | null })[];
}

interface ClassDeclaration extends Node {
  type: 'ClassDeclaration';
  id: (Node & { name: string }) | null;
}

/** `js` with its top-level lexical declarations as `var`s; `js` itself if it does not parse. */
export function redeclarable(js: string): string {
  let body: Node[];
  try {
    body = (Parser.parse(js, { ecmaVersion: 'latest', sourceType: 'script' }) as Node & { body: Node[] })
      .body;
  } catch {
    return js; // V8 will say what is wrong
  }
  const edits: { at: number; remove: number; insert: string }[] = [];
  for (const statement of body) {
    if (statement.type === 'VariableDeclaration') {
      const declaration = statement as Declaration;
      if (declaration.kind !== 'let' && declaration.kind !== 'const') continue;
      edits.push({ at: declaration.start, remove: declaration.kind.length, insert: 'var' });
      // `let x;` declares a fresh `x`: a `var` of a name declared before would keep its old value.
      for (const declarator of declaration.declarations)
        if (declarator.init === null) edits.push({ at: declarator.end, remove: 0, insert: ' = undefined' });
    } else if (statement.type === 'ClassDeclaration') {
      const { id, start, end } = statement as ClassDeclaration;
      if (id === null) continue;
      edits.push({ at: start, remove: 0, insert: `var ${id.name} = ` });
      edits.push({ at: end, remove: 0, insert: ';' });
    }
  }
  let out = js;
  for (const edit of edits.sort((a, b) => b.at - a.at))
    out = out.slice(0, edit.at) + edit.insert + out.slice(edit.at + edit.remove);
  return out;
}
