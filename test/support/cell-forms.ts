/**
 * The forms of TypeScript a notebook cell and a REPL input can hold, run in order in one kernel
 * and in one REPL (both with the sandbox: `session` logged in, `sandbox` there), each with the
 * value both must show for it (test/kernel/cell-forms.test.ts, test/repl/cell-forms.test.ts).
 *
 * `await (…)` in every shape the parser once read as a call of a function named `await`, top-level
 * `for await` over a `PagedList`, declarations used by a later cell, a `const` declared again,
 * labels, generators; and an erroring cell of each new shape, with the cell line its error is at.
 */

/** A cell that shows a value, or nothing. */
export interface ValueForm {
  readonly name: string;
  /** Why the REPL means it otherwise (it runs only in the kernel), if it does. */
  readonly kernelOnly?: string;
  readonly source: string;
  /** The value's text as both front ends show it (node's `inspect`), or `null` when nothing shows. */
  readonly shows: string | null;
  /** The kernel's type-check warning under the cell (stderr), when its types are wrong. */
  readonly warns?: RegExp;
}

/** A cell that fails. */
export interface ErrorForm {
  readonly name: string;
  readonly kernelOnly?: string;
  readonly source: string;
  readonly error: {
    readonly name: string;
    readonly message: string | RegExp;
    /** The cell lines (1-based) the kernel's traceback points at, innermost first. */
    readonly lines: readonly number[];
  };
}

export type CellForm = ValueForm | ErrorForm;

/** The REPL's inputs declare globals (node's REPL), which the SDK's modules then see. */
const REPL_GLOBALS = "the REPL's top-level names are the realm's globals";

export const isErrorForm = (form: CellForm): form is ErrorForm => 'error' in form;

export const CELL_FORMS: readonly CellForm[] = [
  {
    name: 'await (await fetch(url)).json()',
    source: [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the cell holds a template literal.
      'const url = `${sandbox.hosts.api}/users/${sandbox.samples.demoUser}`;',
      'const j = await (await fetch(url)).json();',
      // undici's `json()` is typed `Promise<unknown>`: a cell (type-checked) says what it expects.
      '(j as { username: string }).username',
    ].join('\n'),
    shows: "'demo_scratcher'",
  },
  {
    name: 'await (x as T)',
    source: 'const box: unknown = Promise.resolve(7);\nawait (box as any)',
    shows: '7',
  },
  { name: 'await (<T>x)', source: 'await (<any>box) + 1', shows: '8' },
  {
    name: 'await (a ? b : c)',
    source: 'const ok = false;\nawait (ok ? box : Promise.resolve(9))',
    shows: '9',
  },
  {
    name: 'top-level for await over a PagedList',
    source: [
      'let followers = 0;',
      'for await (const user of session.users.followers(sandbox.samples.popularUser, { limit: 5 })) {',
      '  if (user.username) followers++;',
      '}',
      'followers',
    ].join('\n'),
    shows: '5',
  },
  {
    name: 'destructuring from an await',
    source:
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the cell holds a template literal.
      'const { username, id } = await session.users.get(sandbox.samples.demoUser);\n`${username} ${typeof id}`',
    shows: "'demo_scratcher number'",
  },
  {
    name: 'array destructuring from await Promise.all',
    source: 'const [first, second] = await Promise.all([Promise.resolve(1), 2]);\nfirst + second',
    shows: '3',
  },
  {
    name: 'await Promise.all([...]) as the value',
    source: 'await Promise.all([1, 2, 3].map(async (n) => n * 2))',
    shows: '[ 2, 4, 6 ]',
  },
  {
    name: "await import('node:os')",
    source: "const os = await import('node:os');\ntypeof os.hostname()",
    shows: "'string'",
  },
  {
    name: 'a class, an interface and a type declared',
    source: [
      'class Counter {',
      '  count = 0;',
      '  add(n: number): this {',
      '    this.count += n;',
      '    return this;',
      '  }',
      '}',
      'interface Point { x: number; y: number }',
      'type Pair = [Point, Point];',
    ].join('\n'),
    shows: null,
  },
  {
    name: '…and used in the next cell',
    source:
      'const pair: Pair = [{ x: 1, y: 2 }, { x: 3, y: 4 }];\nnew Counter().add(pair[0].x).add(pair[1].y).count',
    shows: '5',
  },
  { name: 'a const', source: 'const limit = 1;', shows: null },
  { name: '…declared again in a later cell', source: 'const limit = 2;\nlimit * 10', shows: '20' },
  {
    // Both front ends run it (types are stripped, not checked, to run a cell); the kernel warns.
    name: 'a type error does not stop the run',
    source: "const n: number = 'x' as any as string; n",
    shows: "'x'",
    warns:
      /^Cell In\[\d+\], line 1, column 7: warning TS2322: Type 'string' is not assignable to type 'number'\./,
  },
  {
    name: 'labels',
    source: [
      'const seen: string[] = [];',
      'outer: for (const a of [1, 2, 3]) {',
      '  for (const b of [1, 2, 3]) {',
      '    if (b > a) continue outer;',
      '    if (a === 3) break outer;',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the cell holds a template literal.
      '    seen.push(`${a}${b}`);',
      '  }',
      '}',
      "seen.join(' ')",
    ].join('\n'),
    shows: "'11 21 22'",
  },
  {
    name: 'generators, sync and async',
    source: [
      'function* countdown(n: number) {',
      '  while (n > 0) yield n--;',
      '}',
      'async function* slowly() {',
      '  yield* countdown(3);',
      '}',
      'const got: number[] = [];',
      'for await (const n of slowly()) got.push(n);',
      "got.join(',')",
    ].join('\n'),
    shows: "'3,2,1'",
  },
  {
    name: 'an error in await (await fetch(url)).json()',
    source: [
      "const text = 'data:text/plain,not%20json';",
      'const parsed = await (await fetch(text)).json();',
    ].join('\n'),
    error: { name: 'SyntaxError', message: /JSON/, lines: [2] },
  },
  {
    name: 'an error in await (x as T)',
    source: 'const missing: unknown = undefined;\nawait (missing as any).deeper',
    error: { name: 'TypeError', message: /reading 'deeper'/, lines: [2] },
  },
  {
    name: 'an error in await (<T>x)',
    source: "const rejected = Promise.reject(new RangeError('out of range'));\nawait (<any>rejected)",
    error: { name: 'RangeError', message: 'out of range', lines: [1] },
  },
  {
    name: 'an error in await (a ? b : c)',
    source: "const fail = true;\nawait (fail ? Promise.resolve(null) : box) ?? JSON.parse('{')",
    error: { name: 'SyntaxError', message: /JSON/, lines: [2] },
  },
  {
    name: 'an error in a top-level for await',
    source: [
      'async function* broken() {',
      '  yield 1;',
      "  throw new TypeError('the list broke');",
      '}',
      'for await (const n of broken()) {',
      '  got.push(n);',
      '}',
    ].join('\n'),
    error: { name: 'TypeError', message: 'the list broke', lines: [3, 5] },
  },
  // Last: the names they declare are the cells' own for the rest of the session (issue 30).
  {
    name: "a cell's const URL, then the SDK",
    kernelOnly: REPL_GLOBALS,
    source:
      "const URL = 'https://scratch.mit.edu/users/griffpatch';\n(await session.users.get(sandbox.samples.demoUser)).username",
    shows: "'demo_scratcher'",
  },
  {
    name: "a cell's import crypto",
    kernelOnly: REPL_GLOBALS,
    source: "import crypto from 'node:crypto';\ncrypto.createHash('sha1').update('a').digest('hex').length",
    shows: '40',
  },
  {
    name: "a cell's class Map",
    kernelOnly: REPL_GLOBALS,
    source: 'class Map {\n  get size() {\n    return -1;\n  }\n}\nnew Map().size',
    shows: '-1',
  },
  {
    name: '…then the kernel and the SDK still work',
    kernelOnly: REPL_GLOBALS,
    source: '[new Map().size, (await session.users.get(sandbox.samples.demoUser)).username, URL.length]',
    shows: "[ -1, 'demo_scratcher', 40 ]",
  },
  {
    name: 'a strict cell',
    kernelOnly: REPL_GLOBALS,
    source: "'use strict'\nconst strictA = 1\nstrictA",
    shows: '1',
  },
  {
    name: "a cell's function fetch, a var AbortController in its loop, then the SDK",
    kernelOnly: REPL_GLOBALS,
    source:
      "function fetch() {\n  return 'mine';\n}\nfor (var AbortController of ['a', 'b']) {}\n[fetch(), AbortController, (await session.users.get(sandbox.samples.demoUser)).username]",
    shows: "[ 'mine', 'b', 'demo_scratcher' ]",
  },
  {
    name: "a cell's const read before its line, as in a module",
    kernelOnly: REPL_GLOBALS,
    source: 'const early = typeof structuredClone;\nconst structuredClone = 1;',
    error: {
      name: 'ReferenceError',
      message: "Cannot access 'structuredClone' before initialization",
      lines: [1],
    },
  },
  {
    name: "…then the SDK still has Node's fetch, AbortController and structuredClone",
    kernelOnly: REPL_GLOBALS,
    source:
      '[(await session.users.get(sandbox.samples.demoUser)).username, fetch(), AbortController, typeof globalThis.structuredClone]',
    shows: "[ 'demo_scratcher', 'mine', 'b', 'function' ]",
  },
  {
    // Shown as Node shows it (its target): none of its traps runs.
    name: 'a proxy whose traps throw',
    kernelOnly: "node's REPL shows a proxy as `Proxy [ target, handler ]` (test/repl/cell-forms.test.ts)",
    source: "new Proxy({ b: 2 }, { getPrototypeOf() { throw new Error('trap ran'); } })",
    shows: '{ b: 2 }',
  },
];
