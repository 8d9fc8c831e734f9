// What a cell's top-level names are (kernel/execution/cell-script.ts): the cells' own, in a scope
// of their own, never the global object's; a strict cell is strict; namespaces and enums merge
// across cells as tsc merges them in one file; frames and syntax errors name the cell's own lines;
// an object literal cell is one, for its run and its check. Through tslab's real executor and the
// kernel's runner, as kernel.test.ts's cells; test/kernel/differential.test.ts compares whole
// sessions with tsc and Node.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TypeChecker as Checker } from '../../kernel/execution/type-checker.js';
import { cellsInOrder, testRunner } from './runner.js';

const { run, count, close } = cellsInOrder();
afterAll(close);

/** The `[cell, line]` of each frame of a failed cell's traceback. */
function frames(failed: unknown): [number, number][] {
  const { traceback } = failed as { traceback: string[] };
  return traceback
    .map((entry) => /^Cell In\[(\d+)\], line (\d+)/.exec(entry))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [Number(m[1]), Number(m[2])]);
}

describe('a cell’s top-level names are the cells’ own', () => {
  const globals = {
    URL,
    Map,
    setTimeout,
    fetch,
    crypto: globalThis.crypto,
    structuredClone,
    Buffer,
    process,
  };

  it('never replace the globals Node, the SDK and the kernel use', async () => {
    expect(await run("const URL = 'https://scratch.mit.edu/users/griffpatch';\nURL.length")).toBe('40');
    expect(
      await run("import crypto from 'node:crypto';\ncrypto.createHash('sha1').update('a').digest('hex')"),
    ).toBe(`'${createHash('sha1').update('a').digest('hex')}'`);
    expect(await run('class Map { get size() { return -1; } }\nnew Map().size')).toBe('-1');
    expect(
      await run(
        'const setTimeout = 1, fetch = 2, structuredClone = 3, Buffer = 4;\nlet process = { env: {} };\n[setTimeout, fetch, structuredClone, Buffer, typeof process.exit]',
      ),
    ).toBe("[ 1, 2, 3, 4, 'undefined' ]");
    // The process's globals are untouched, and the cells keep theirs.
    expect({
      URL: globalThis.URL,
      Map: globalThis.Map,
      setTimeout: globalThis.setTimeout,
      fetch: globalThis.fetch,
      crypto: globalThis.crypto,
      structuredClone: globalThis.structuredClone,
      Buffer: globalThis.Buffer,
      process: globalThis.process,
    }).toEqual(globals);
    expect(new URL('https://scratch.mit.edu/a?b=1').searchParams.get('b')).toBe('1');
    expect(await run('[URL.slice(8, 14), new Map().size, typeof crypto.createHash, process.env]')).toBe(
      "[ 'scratc', -1, 'function', {} ]",
    );
    // A function of an earlier cell sees a later cell's new value.
    expect(await run('function whereTo() { return URL; }')).toBe('(nothing)');
    expect(await run("const URL = 'elsewhere';\nwhereTo()")).toBe("'elsewhere'");
    expect('whereTo' in globalThis).toBe(false);
  });

  it('runs a strict cell strictly', async () => {
    expect(await run("'use strict'\nconst strictA = 1\nstrictA")).toBe('1');
    expect(await run("'use strict';\nfunction who() { return this; }\n[strictA, who()]")).toBe(
      '[ 1, undefined ]',
    );
    expect(await run("'use strict'\nlet undeclaredHere;\nundeclaredThere = 1")).toMatchObject({
      ename: 'ReferenceError',
      evalue: 'undeclaredThere is not defined',
    });
    expect(await run('[typeof who, typeof undeclaredThere]')).toBe("[ 'function', 'undefined' ]");
    // Called from a later cell by its name, it has no `this` (not the cells' scope), as in a module.
    expect(await run('[who(), ((t) => t)`x`.length, [1].map(who)]')).toBe('[ undefined, 1, [ undefined ] ]');
    expect(await run('function sloppyThis() { return this === globalThis; }')).toBe('(nothing)');
    expect(await run('sloppyThis()')).toBe('true');
  });
});

describe('declarations merge across cells as tsc merges them in one file', () => {
  it('exported namespaces and enums, and a namespace into a function', async () => {
    expect(await run('export namespace M { export const a = 1; }')).toBe('(nothing)');
    expect(await run('export namespace M { export const b = 2; }\n[M.a, M.b]')).toBe('[ 1, 2 ]');
    expect(await run('export enum E { A }')).toBe('(nothing)');
    expect(await run('export enum E { B = 2 }\n[E.A, E.B, E[2]]')).toBe("[ 0, 2, 'B' ]");
    expect(await run('function stepper() { return 1; }')).toBe('(nothing)');
    expect(await run('export namespace stepper { export const x = 2; }\n[stepper(), stepper.x]')).toBe(
      '[ 1, 2 ]',
    );
  });
});

describe('frames and syntax errors name the cell’s own lines', () => {
  it('marks the line that called, of two that call the same function', async () => {
    const failed = await run(
      "let calls = 0;\nfunction step() {\n  if (++calls > 1) throw new Error('too far');\n}\nstep()\nstep()",
    );
    expect(failed).toMatchObject({ ename: 'Error', evalue: 'too far' });
    expect(frames(failed)).toEqual([
      [count(), 3],
      [count(), 6],
    ]);
  });

  it('names the line of a call oxc joins onto one line', async () => {
    const failed = await run(
      'function check(v: number): number {\n  if (v > 1) throw new RangeError("bad " + v);\n  return v;\n}\nconst checked: number = check(\n  2,\n);',
    );
    expect(failed).toMatchObject({ ename: 'RangeError', evalue: 'bad 2' });
    expect(frames(failed)).toEqual([
      [count(), 2],
      [count(), 5],
    ]);
  });

  it('places a syntax error after the last expression’s start at its own column', async () => {
    const failed = await run('let q: number = 1;\nq + (() => { let z = 1; let z = 2; return z; })()');
    expect(failed).toMatchObject({ ename: 'TSError' });
    expect((failed as { traceback: string[] }).traceback[0]).toMatch(/, line 2, column 29\n/);
  });

  it('runs an `accessor` field (lowered, as tsc does), its frames at its cell lines', async () => {
    const failed = await run(
      "// a comment\n\ninterface Shape { n: number }\nclass Auto {\n  // kept\n  accessor n = (() => { throw new Error('in accessor'); })();\n}\nnew Auto()",
    );
    expect(failed).toMatchObject({ ename: 'Error', evalue: 'in accessor' });
    const at = frames(failed);
    expect([at[0], at.at(-1)]).toEqual([
      [count(), 6],
      [count(), 8],
    ]);
  });
});

describe('an object literal cell', () => {
  it('shows the object, with a comment after it too', async () => {
    expect(await run('{a: 1, b: 2}')).toBe('{ a: 1, b: 2 }');
    expect(await run('{ a: 1 } // comment')).toBe('{ a: 1 }');
    expect(await run('{ const inBlock = 1; }\ntypeof inBlock')).toBe("'undefined'");
  });
});
describe('a value shown', () => {
  it('is shown without running its getters', async () => {
    expect(await run('let reads = 0;\nconst counted = { a: 1, get b() { return ++reads; } };\ncounted')).toBe(
      '{ a: 1, b: [Getter] }',
    );
    expect(await run('reads')).toBe('0');
    expect(await run("({ token: 'x', get boom() { throw new Error('read'); } })")).toBe(
      "{ token: '[redacted]', boom: [Getter] }",
    );
    // An array's own keys are redacted as an object's.
    expect(await run("Object.assign([1, 2], { token: 'x', note: 'n' })")).toBe(
      "[ 1, 2, token: '[redacted]', note: 'n' ]",
    );
  });
});

// Last: a second executor takes over tslab's global hand-over (`__tslab__`) from the first.
describe('an object literal cell, checked', () => {
  it('is checked as the object it runs as: no warning', async () => {
    const ROOT = join(import.meta.dirname, '..', '..');
    const { TypeChecker } = (await import(join(ROOT, 'dist', 'kernel', 'execution', 'type-checker.js'))) as {
      TypeChecker: typeof Checker;
    };
    const log: string[] = [];
    // The kernel gives a check 10 s before its cell's idle goes out without it (answering null):
    // here the checker's verdict is what counts, so each check is waited for up to 120 s (it took
    // over 10 s on a loaded machine, and the warning below was then null).
    class Patient extends TypeChecker {
      override check(source: string, label: string, _waitMs: number, waited?: boolean) {
        return super.check(source, label, 120_000, waited);
      }
    }
    const checker = new Patient({ log: (line) => log.push(line), cwd: ROOT });
    const checked = testRunner({ checker });
    try {
      for (const code of ['{a: 1, b: 2}', '{ a: 1 } // comment']) {
        const outcome = await checked.runner.run(code, 1);
        expect(outcome, code).toMatchObject({ status: 'ok' });
        expect(await outcome.later?.(), `${code}\n${log.join('\n')}`).toBeNull();
      }
      const wrong = await checked.runner.run('{a: 1, b: 2 as string}', 2);
      expect(await wrong.later?.()).toMatch(/TS2352|Conversion of type/);
    } finally {
      checked.close();
      checker.close();
    }
  }, 400_000);
});
