import { Recoverable } from 'node:repl';
import { runInThisContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { rewriteImports, transpile } from '../../repl/evaluation/transpile.js';

/** Runs transpiled input the way the evaluator does and answers its value. */
async function run(input: string): Promise<unknown> {
  const { code, async } = await transpile(input);
  const value: unknown = runInThisContext(code);
  return async ? await value : value;
}

describe('transpile', () => {
  it('strips TypeScript types', async () => {
    expect((await transpile('const n: number = 41 + 1')).code.trim()).toBe('var n = 41 + 1;');
    expect((await transpile('interface P { x: number }')).code.trim()).toBe('');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the input holds a template literal.
    expect(await run('((a: number, b?: string): string => `${a}${b ?? ""}`)(1)')).toBe('1');
    expect(await run('(<T,>(x: T) => x)<number>(5) satisfies number')).toBe(5);
  });

  it('reads `{ … }` as an object literal when it is one, as a block otherwise', async () => {
    expect(await run('{ a: 1, b: [2] }')).toEqual({ a: 1, b: [2] });
    expect(await run('{ const hidden = 3; hidden * 2 }')).toBe(6);
  });

  it('wraps top-level await, keeping declared names for the next inputs', async () => {
    const out = await transpile('const twice = await Promise.resolve(21 * 2)');
    expect(out.async).toBe(true);
    expect(await run('var probe1 = await Promise.resolve(21 * 2); probe1')).toBe(42);
    expect(await run('probe1 + 1')).toBe(43);
    expect((await transpile('1 + 1')).async).toBe(false);
  });

  it('lets a later input declare a top-level const, let or class again, as a later cell can', async () => {
    expect(
      await run('const redeclared1 = 1; class Redeclared2 { v = 1 }; let redeclared3 = 3; redeclared1'),
    ).toBe(1);
    expect(await run('const redeclared1 = 2;\nredeclared1 * 10')).toBe(20);
    expect(await run('class Redeclared2 { v = 2 }\n(new Redeclared2()).v')).toBe(2);
    expect(await run('let redeclared3;\nredeclared3')).toBeUndefined();
    expect(await run('const redeclared1 = await Promise.resolve(4);\nredeclared1')).toBe(4);
    expect(await run('const redeclared1 = 5; redeclared1')).toBe(5);
    // Only the top level: blocks, loops and functions keep their own `const`s.
    const code = (
      await transpile('for (const a of [1]) { const b = a; }\nfunction f() { const c = 1; return c; }')
    ).code;
    expect(code).not.toContain('var');
  });

  it('refuses an input that assigns to one of its constants, which the var it becomes would allow', async () => {
    const refused = async (input: string) => (await transpile(input).catch((e: unknown) => e)) as TypeError;
    const direct = await refused('const fixed1 = 1;\nfixed1 = 2;\nfixed1');
    expect(direct).toBeInstanceOf(TypeError);
    expect(direct.message).toBe("Assignment to constant variable 'fixed1'.");
    expect(direct.stack).toBe("TypeError: Assignment to constant variable 'fixed1'.\nfixed1 = 2;\n^");
    // In a function, after an await, and through ++: refused too, before anything runs.
    for (const input of [
      'const fixed2 = 1; function bump() { fixed2++; }',
      'const fixed3 = await Promise.resolve(1); fixed3 += 1;',
    ])
      expect(await refused(input), input).toBeInstanceOf(TypeError);
    expect(globalThis).not.toHaveProperty('fixed2');
    // A name the function declares itself is another variable; the constant may be declared again.
    expect(await run('const fixed1 = 1; function own() { let fixed1 = 0; return ++fixed1; } own()')).toBe(1);
    expect(await run('const fixed1 = 5; fixed1')).toBe(5);
  });

  it('lowers syntax newer than ES2020 next to a top-level await', async () => {
    expect(await run('var probe2 = null; probe2 ??= await Promise.resolve(7); probe2')).toBe(7);
    expect(
      await run(
        'class Box { #v = 1; static { } get v() { return this.#v } }; (await Promise.resolve(new Box())).v',
      ),
    ).toBe(1);
  });

  it('turns imports into dynamic imports bound to the same names', () => {
    expect(rewriteImports('import fs, { a as b, c } from "node:fs";')).toBe(
      'const { default: fs, a: b, c } = await import("node:fs");',
    );
    expect(rewriteImports('import * as path from "node:path";')).toBe(
      'const path = await import("node:path");',
    );
    expect(rewriteImports('import d, * as ns from "m";')).toBe(
      'const ns = await import("m"); const { default: d } = ns;',
    );
    expect(rewriteImports('import "side-effect";')).toBe('await import("side-effect");');
    expect(rewriteImports('import {\n  q,\n  r\n} from "z";')).toBe('const { q, r } = await import("z");');
  });

  it('keeps an import whose names are not used yet, and drops type-only ones', async () => {
    const out = await transpile('import { join } from "node:path"; import type { Stats } from "node:fs"');
    expect(out.code).toContain('await import("node:path")');
    expect(out.code).not.toContain('node:fs');
  });

  it.each([
    ['function f(a: number) {'],
    ['const a = [1,\n2'],
    ['foo(1,'],
    ['let s = `multi\nline'],
    ['/* a comment'],
    ['if (x) {\n  y()'],
    // A template inside an open bracket: closing the template leaves the bracket open.
    ['String(`a'],
    ['live({\n  sql: `select count(*) as sets\n        from cloud_activity'],
    ['f(`a ${g(`b'],
  ])('asks for more lines when the input stops early: %j', async (input) => {
    await expect(transpile(input)).rejects.toBeInstanceOf(Recoverable);
  });

  it('runs a template that spans lines inside an open bracket once it is closed', async () => {
    expect(await run('String(`a\nb`)')).toBe('a\nb');
  });

  it.each([["'unterminated"], ["foo('unterminated"], ['foo(1 2)'], ['const = 5']])(
    'reports a syntax error at once: %j',
    async (input) => {
      const error = await transpile(input).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SyntaxError);
      expect(error).not.toBeInstanceOf(Recoverable);
    },
  );

  it('points at the error in its message, without a stack', async () => {
    const error = (await transpile('let x = 1 +* 2').catch((e: unknown) => e)) as SyntaxError;
    expect(error.stack).toMatch(/^SyntaxError: .+\nlet x = 1 \+\* 2\n {11}\^$/);
  });
});
