// Cells as the kernel runs them (kernel/execution/cell-script.ts), through tslab's real executor
// and the kernel's cell runner: types stripped, declarations kept as globals for later cells, and
// the cells that must not run refused at their line and column.
import { afterAll, describe, expect, it } from 'vitest';
import {
  CellScriptError,
  cellScript,
  MAX_CELL_CHARS,
  plainJavaScript,
  scriptOf,
  strippedTypeScript,
} from '../../kernel/execution/cell-script.js';
import { cellsInOrder } from './runner.js';

const { run, close } = cellsInOrder();
afterAll(close);

describe('cells run with their types stripped', () => {
  it('keeps top-level declarations of every kind for later cells, and lets a later cell declare them again', async () => {
    expect(
      await run(
        [
          'const limit: number = 3;',
          'let items: string[] = [];',
          'function twice(n: number): number { return n * 2; }',
          'class Box<T> { constructor(readonly value: T) {} }',
          'enum Kind { A = 1, B }',
          'interface Shape { size: number }',
          'const { a, b: [c] } = { a: 1, b: [2] };',
        ].join('\n'),
      ),
    ).toBe('(nothing)');
    expect(
      await run(
        'const s: Shape = { size: twice(limit) };\n[s.size, new Box<number>(a + c).value, Kind.B, items.length]',
      ),
    ).toBe('[ 6, 3, 2, 0 ]');
    // Functions of earlier cells see the names' new values, as globals.
    expect(await run('function limitNow() { return limit; }')).toBe('(nothing)');
    expect(await run('const limit = 10;\nlimitNow()')).toBe('10');
    expect(await run('let items;\nitems')).toBe('(nothing)'); // `let x;` is a fresh x
    // Hoisted, as a function declaration is.
    expect(await run('early();\nfunction early() { return 1; }\nearly() + 1')).toBe('2');
  });

  it('shows nothing for a cell that ends in undefined or void 0, after TypeScript too', async () => {
    expect(await run('const shown: number[] = [];\nshown.push(1);\nundefined')).toBe('(nothing)');
    expect(await run('let t: string = "<b>";\nt.length\nvoid 0 // hidden')).toBe('(nothing)');
    expect(await run('const u: number = 2;\nu')).toBe('2');
    // Other expressions esbuild sees no use for are the cell's value all the same.
    expect(await run('const v: number = 2;\nv;\n-1')).toBe('-1');
    expect(await run('const w: number = 2;\nw;\nNaN')).toBe('NaN');
  });

  it('runs a type error (as the REPL does), the value shown', async () => {
    expect(await run("const n: number = 'x' as any as string; n")).toBe("'x'");
  });

  it('imports with tslab’s require, as before: a default, names and a namespace', async () => {
    expect(
      await run(
        "import path, { join as joined } from 'node:path';\nimport * as os from 'node:os';\n[typeof path.join, joined('a', 'b'), typeof os.hostname]",
      ),
    ).toBe("[ 'function', 'a/b', 'function' ]");
    expect(
      await run(
        "const fs = await import('node:fs');\n[typeof fs.readFileSync, typeof fs.default.readFileSync]",
      ),
    ).toBe("[ 'function', 'function' ]");
  });

  it('shows an object literal cell as an object, as the REPL does', async () => {
    expect(await run('{ a: 1 }')).toBe('{ a: 1 }');
  });

  it('refuses a syntax error and an assignment to the cell’s own constant, at their line and column', async () => {
    const syntax = await run('const ok = 1;\nconst = ;');
    expect(syntax).toMatchObject({
      ename: 'TSError',
      evalue: expect.stringMatching(/^Cell In\[\d+\], line 2: /),
    });
    for (const [code, column] of [
      ['const fixed = 1;\nfixed = 2', 1],
      ['const fixed: number = 1;\nfixed = 2', 1],
      ['const fixed: number = 1;\nlet other = 0; fixed = 2', 16],
      ['const fixed: number = 1;\nlet other = 0; (fixed = 2)', 17],
    ] as const) {
      const refused = await run(code);
      expect(refused, code).toMatchObject({
        ename: 'TSError',
        evalue: expect.stringMatching(/line 2: Cannot assign to 'fixed' because it is a constant\.$/),
      });
      // At the cell's column, not the one of the text the kernel adds before the last expression.
      expect((refused as { traceback: string[] }).traceback[0], code).toMatch(
        new RegExp(`, line 2, column ${column}\n`),
      );
    }
    expect(await run('typeof fixed')).toBe("'undefined'"); // nothing of a refused cell ran
  });

  it('names the cell line of the call in a chain that oxc joins into one line', async () => {
    const failed = await run(
      'const m: number = 1;\nconst res = [1, 2, 3]\n  .map((v: number) => v * m)\n  .map((v) => {\n    if (v > 2) throw new Error("chain");\n    return v;\n  });',
    );
    expect(failed).toMatchObject({ ename: 'Error', evalue: 'chain' });
    const [inner, outer] = (failed as { traceback: string[] }).traceback;
    expect(inner).toMatch(/^Cell In\[\d+\], line 5\n/);
    // The second `.map` (line 4) called it, not the first (line 3).
    expect(outer).toMatch(/^Cell In\[\d+\], line 4\n/);
  });

  it('fails at the cell line of the throw', async () => {
    const failed = await run("const x = 1;\nfunction boom() {\n  throw new RangeError('no');\n}\nboom()");
    expect(failed).toMatchObject({ ename: 'RangeError', evalue: 'no' });
    expect((failed as { traceback: string[] }).traceback[0]).toMatch(/^Cell In\[\d+\], line 3 in boom\n/);
  });
});

describe('plain JavaScript skips esbuild only where TypeScript reads it alike', () => {
  it('takes plain cells as written, an object literal in parentheses', () => {
    expect(plainJavaScript('1 + 1')).toBe('1 + 1');
    expect(plainJavaScript('const xs = [1, 2, 3].map((v) => v * 2); xs.length')).not.toBeNull();
    expect(plainJavaScript('{ a: 1 }')).toBe('({ a: 1 }\n)');
  });

  it('sends a cell with a mark of TypeScript to oxc at once; one in a string or a comment runs alike', async () => {
    for (const typescript of [
      'interface A { n: number }',
      'export type B = string',
      'declare const c: number',
      'const d: number = 1',
      'let e?: string',
      'function f(x: number) { return x }',
      'const g = (y?: string) => y',
    ])
      expect(plainJavaScript(typescript)).toBeNull();
    // JavaScript, each with a mark in a string, a template or a comment: oxc runs it as written.
    expect(await run('const marked = `\ninterface A {\n`; // (note: const x: 1)\nmarked.length')).toBe('15');
    expect(await run("const typeLine = 'type T = 1';\n[typeLine, (1 < 2) ? 'a' : 'b']")).toBe(
      "[ 'type T = 1', 'a' ]",
    );
    // Not marks: a conditional, an object literal in parentheses, a label.
    expect(plainJavaScript('const h = true ? (1) : 2')).not.toBeNull();
    expect(plainJavaScript('({ k: 1 })')).not.toBeNull();
    expect(plainJavaScript('outer: for (const i of [1]) break outer')).not.toBeNull();
  });

  it('leaves TypeScript, generic calls and constant assignments to esbuild', async () => {
    expect(plainJavaScript('const n: number = 1')).toBeNull();
    expect(plainJavaScript('f<string>(x)')).toBeNull(); // two comparisons in JavaScript
    expect(plainJavaScript('const c = 1; c++')).toBeNull();
    expect(plainJavaScript('const c = 1; function f() { let c = 0; c = 2; }')).toBeNull(); // esbuild decides
    // The generic call is read as TypeScript does.
    expect((await cellScript('const id = (v: unknown) => v;\nid<string>("x")')).output).toContain(
      '(0, id)("x")',
    );
  });
});

describe('TypeScript cells are stripped in this thread by oxc, or by esbuild', () => {
  it('strips types, keeps every import and a last expression esbuild would drop', () => {
    const stripped = strippedTypeScript(
      'import { Thing } from "mod";\nimport type { Kind } from "kinds";\ninterface P { x: number }\nconst p: P = { x: 1 };\n-1 as number',
    );
    expect(stripped).toContain('import { Thing } from "mod"');
    expect(stripped).not.toMatch(/Kind|interface|number/);
    expect(stripped).toMatch(/-1;\s*$/);
  });

  it('leaves to esbuild a syntax error, a decorator and an assignment to a constant', () => {
    expect(strippedTypeScript('const = ;')).toBeNull();
    expect(strippedTypeScript('function dec(c: unknown) {}\n@dec class D {}')).toBeNull();
    expect(strippedTypeScript('const c: number = 1; c = 2;')).toBeNull();
  });

  it('runs what it strips and what esbuild converts: enums, namespaces, parameter properties, decorators', async () => {
    expect(await run('enum Shade { Light = 2, Dark }\nShade.Dark')).toBe('3');
    expect(await run('namespace Space { export const answer = 42; }\nSpace.answer')).toBe('42');
    expect(await run('class Holder { constructor(public value: number) {} }\nnew Holder(7).value')).toBe('7');
    expect(
      await run(
        'function sealed(c: Function) { (c as { tag?: string }).tag = "sealed"; }\n@sealed class Tagged {}\n(Tagged as { tag?: string }).tag',
      ),
    ).toBe("'sealed'");
    expect(
      await run(
        'interface Item { n: number }\nconst item: Item = { n: 4 };\nfunction twice(i: Item): number {\n  return i.n * 2;\n}\ntwice(item)',
      ),
    ).toBe('8');
    expect(await run('const more = <number>twice({ n: 5 });\nmore satisfies number')).toBe('10');
    expect(await run('-1 as number')).toBe('-1');
  });

  it('merges a namespace with an earlier cell’s namespace, function or class, as esbuild’s `var` did', async () => {
    expect(await run('namespace Merged { export const a = 1; }')).toBe('(nothing)');
    expect(await run('namespace Merged { export const b = 2; }\n[Merged.a, Merged.b]')).toBe('[ 1, 2 ]');
    expect(
      await run('function callable() { return 1; }\nnamespace callable { export const extra = 2; }'),
    ).toBe('(nothing)');
    expect(
      await run('namespace callable { export const more = 3; }\n[callable(), callable.extra, callable.more]'),
    ).toBe('[ 1, 2, 3 ]');
    expect(await run('class Counted { static s = 1; }')).toBe('(nothing)');
    expect(await run('namespace Counted { export const t = 2; }\n[Counted.s, Counted.t]')).toBe('[ 1, 2 ]');
    // oxc names its parameter apart from the cell's names.
    expect(
      await run('const _Merged = 0;\nnamespace Merged { export const c = 3; }\n[Merged.a, Merged.c]'),
    ).toBe('[ 1, 3 ]');
    // Nested namespaces (`A.B`) stay the cell's own inside.
    expect(await run('namespace Outer.Inner { export const q = 4; }\nOuter.Inner.q')).toBe('4');
    expect(await run('namespace Outer.Inner { export const r = 5; }\n[Outer.Inner.q, Outer.Inner.r]')).toBe(
      '[ 4, 5 ]',
    );
  });

  it('refuses a cell past its size limit', async () => {
    await expect(cellScript('x'.repeat(MAX_CELL_CHARS + 1))).rejects.toThrow(RangeError);
    await expect(cellScript('const = ;')).rejects.toThrow(CellScriptError);
  });
});

/** What {@link scriptOf} answers, but its function. */
function script(js: string) {
  const { sourceAt: _, ...rest } = scriptOf(js);
  return rest;
}

describe('the tree a cell is parsed to once', () => {
  it('serves only the text it was parsed from, in any order of calls, and a syntax error keeps its place', () => {
    const fresh = script('const a = 1; a + 1'); // nothing parsed before it for this text
    expect(plainJavaScript('const b = 2; b * 3')).toBe('const b = 2; b * 3');
    expect(script('const a = 1; a + 1')).toEqual(fresh); // not the tree of the text parsed last
    expect(script('const b = 2; b * 3')).toMatchObject({ declared: ['b'] });
    // Handed over once, then parsed again: the same script, the tree unchanged by the first use.
    expect(plainJavaScript('const a = 1; a + 1')).not.toBeNull();
    expect(script('const a = 1; a + 1')).toEqual(fresh);
    expect(script('const a = 1; a + 1')).toEqual(fresh);
    expect(plainJavaScript('const = ;')).toBeNull();
    expect(() => scriptOf('const = ;')).toThrow(expect.objectContaining({ line: 1, column: 7 }));
  });
});
