/**
 * The README's examples run as printed. Every TypeScript block of README.md and
 * notebooks/README.md is listed in BLOCKS below with how it is checked; a block that is not
 * listed (or a listed one that is gone) fails the test, so a new example gets checked too.
 *
 * - Types: every block is type-checked in one tsc program, with the project's strict settings,
 *   against the packed package (`npm pack`, unpacked as `node_modules/scratchlab`: the `dist`
 *   declarations users get). Prompt blocks (the REPL's and notebooks') see the globals the kernel
 *   declares for its cells (kernel/execution/preload.ts).
 * - Scripts run one after another in one process (./run-blocks.mjs) against the sandbox; a block
 *   that targets the real site gets the sandbox's hosts and its twins of the site's names from the
 *   test (./swap-hooks.mjs), not from an edited block. A block that does not finish, or leaves a
 *   handle that would keep its own process alive, fails; the process must then end by itself.
 * - Prompt blocks are typed line by line into `scratchlab repl --sandbox` (a child process in a
 *   pseudo-terminal) and run as cells of a notebook on the sandbox kernel (nbconvert).
 * - A comment that shows a value is compared with what the block printed; a comment whose value
 *   is only an example says `e.g.`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globalExports, globalsDeclarations, PRELOAD_NAMES } from '../../kernel/execution/preload.js';
import { startSandbox } from '../../src/sandbox/index.js';
import {
  executeNotebook,
  hasJupyter,
  installKernels,
  jupyterHome,
  makeNotebook,
  text,
  writeNotebook,
} from '../kernel/jupyter.js';
import { ReplProcess, stripAnsi } from '../repl/pty.js';
import { projectTempDir } from '../support/bundle-child.js';
import { startChild } from '../support/child-lines.js';
import { toolPath } from '../support/tools.js';
import { type CodeBlock, typeScriptBlocks } from './readme-blocks.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** How a block is checked. */
type How =
  /** A program of its own: run by ./run-blocks.mjs. */
  | {
      kind: 'script';
      swap?: Record<string, string>;
      /** Code the test appends to print values the block's comments show but it does not print. */
      observe?: string;
      check?: (out: string) => void;
    }
  /** Typed at the REPL's prompt and run as a notebook cell, after the blocks before it. */
  | {
      kind: 'prompt';
      /** Declarations it takes from an earlier block (types only). */
      given?: string;
      kernelOnly?: boolean;
      repl?: (out: string) => void;
      kernel?: (out: string) => void;
    }
  /** Type-checked only, with the reason it is not run. */
  | { kind: 'types'; why: string };

/** Real-site names in blocks (string literals) and their twins in the test's sandbox (`site`). */
const GRIFFPATCH = { griffpatch: 'popularUser' };

/** The block's output lines. */
const lines = (out: string) => out.split('\n');

const BLOCKS: Record<string, How> = {
  // The demo user's followers: griffpatch's twin has 54 pages of them, 15 s at the platform's rate.
  'The SDK #1': { kind: 'script', swap: { griffpatch: 'demoUser' } },
  'Against the embedded sandbox #1': { kind: 'script' },
  'Logging in, resuming, logging out #1': { kind: 'script', swap: { me: 'demoUser' } },
  'Errors #1': { kind: 'script', swap: {}, check: (out) => expect(out).toBe('no such user') },
  'The request budget #1': { kind: 'script', check: (out) => expect(out).toBe('5') },
  'Messages, activity, statistics and remix trees #1': { kind: 'script' },
  'Comments, loves, follows and studio curation #1': {
    kind: 'script',
    check: (out) => {
      const [love, loved, note, rejected, role] = lines(out);
      expect(love).toMatch(/^\{ projectId: '\d+', userLove: true, statusChanged: true \}$/);
      expect(loved).toBe('true');
      expect(note).toMatch(/^\d+ Hi & welcome Hi & welcome$/);
      expect(rejected).toBe('hasChatSite false');
      expect(role).toMatch(/^\{ manager: false, curator: true, /);
    },
  },
  'Forums #1': { kind: 'script' },
  'Classrooms, the backpack, new projects and profile edits #1': {
    kind: 'script',
    observe: 'console.log(grade6.closed, students.length, Object.keys(studios[0]!).sort().join());',
    check: (out) => {
      const [closed, label, counts, observed] = lines(out);
      expect(observed).toBe('false 45 id,title');
      expect(closed).toBe('true');
      expect(label).toBe('Work In Progress');
      expect(counts).toMatch(/^\{ shared: \d+, unshared: \d+, studios: \d+ \}$/);
    },
  },
  'Tables and charts #1': {
    kind: 'script',
    swap: GRIFFPATCH,
    check: (out) =>
      expect(lines(out).slice(0, 2)).toEqual(['1,240 rows · 31 pages', '12/100 assets · 3.0 MB']),
  },
  'The Jupyter kernel #1': { kind: 'prompt' },
  'The Jupyter kernel #2': { kind: 'prompt' },
  'The Jupyter kernel #3': { kind: 'prompt', kernelOnly: true },
  'Cloud variables #1': {
    kind: 'prompt',
    repl: (out) => expect(out).toMatch(/\{ 'high score': '\d+'.*\}/),
    kernel: (out) => expect(out).toMatch(/^\{\n(?: {2}'.+': '\d+',?\n)*? {2}'high score': '\d+',/m),
  },
  'Cloud variables #2': { kind: 'script', swap: {} },
  'Cloud variables #3': { kind: 'prompt', given: "declare const cloud: import('scratchlab').Cloud;" },
  'Cloud requests and storage #1': {
    kind: 'prompt',
    given: "declare const cloud: import('scratchlab').Cloud;",
    repl: (out) => {
      expect(out).toContain("'36294343497620664955432777'");
      expect(out).toContain("'Hello, World!'");
    },
  },
  'Cloud requests and storage #2': {
    kind: 'types',
    why: 'it needs PostgreSQL, MySQL and MariaDB servers with the accounts it names; test/databases runs SqlDatabase against real servers',
  },
  'Data you can query and keep (`scratchlab/data`) #1': { kind: 'script' },
  'Data you can query and keep (`scratchlab/data`) #2': {
    kind: 'script',
    check: (out) => {
      const [busy, done] = lines(out);
      expect(busy).toMatch(
        /^true the walk "all users" into table "users" is being loaded by process \d+ on \S+ \(since .+\): wait for it/,
      );
      expect(done).toBe('{ rows: 400, pages: 10, resumedFrom: 0 }');
    },
  },
  'Data you can query and keep (`scratchlab/data`) #3': {
    kind: 'script',
    check: (out) => expect(lines(out)).toEqual(['true amount', "true [ 'Title', 'title' ]"]),
  },
  'One file, many processes #1': { kind: 'script' },
  'Cloud history that survives #1': {
    kind: 'script',
    check: (out) => {
      const status = lines(out).slice(0, -1);
      expect(status.length).toBeGreaterThan(0);
      for (const line of status)
        expect(line).toMatch(
          /^stored \d+ · live 1 · log \d+ · merged [01] · reconnects 0 · last high score=4242$/,
        );
      expect(status.at(-1)).toMatch(/merged 1/);
      expect(lines(out).at(-1)).toMatch(/^\d+ hours$/);
    },
  },
  'What projects are made of (`analyzeProject`) #1': {
    kind: 'script',
    check: (out) => {
      const text = lines(out);
      expect(text[0]).toBe('18');
      expect(text).toContain('12 developing');
      expect(text).toContain('2');
      expect(text).toContain('[]');
      expect(text.at(-1)).toBe('event_whenflagclicked');
    },
  },
  'What projects are made of (`analyzeProject`) #2': {
    kind: 'prompt',
    repl: (out) => expect(out).toMatch(/22\/22/),
    kernel: (out) => expect(out).toMatch(/22\/22/),
  },
  'In the REPL and notebooks #1': { kind: 'prompt' },
  'In the REPL and notebooks #2': { kind: 'prompt' },
};

let work: string;
let blocks: CodeBlock[];
const fileOf = (block: CodeBlock) => `b${String(blocks.indexOf(block) + 1).padStart(2, '0')}`;
const how = (block: CodeBlock): How => BLOCKS[block.name]!;
const ofKind = <K extends How['kind']>(kind: K) => blocks.filter((b) => how(b).kind === kind);

beforeAll(() => {
  blocks = [
    ...typeScriptBlocks(join(ROOT, 'README.md'), 'README.md'),
    ...typeScriptBlocks(join(ROOT, 'notebooks/README.md'), 'notebooks/README.md'),
  ];
  work = projectTempDir('docs-');
  // The package as users get it: packed from the build, unpacked where the blocks import it.
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    }),
  ) as { filename: string }[];
  const into = join(work, 'node_modules/scratchlab');
  mkdirSync(into, { recursive: true });
  execFileSync(toolPath('tar'), [
    '-xzf',
    join(work, packed[0]!.filename),
    '-C',
    into,
    '--strip-components=1',
  ]);
  writeFileSync(join(work, 'package.json'), '{ "type": "module", "private": true }\n');
  for (const name of ['run-blocks.mjs', 'swap-hooks.mjs', 'swap-scratchlab.mjs'])
    cpSync(join(import.meta.dirname, name), join(work, name));
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('knows every TypeScript block of the READMEs, and each is checked', () => {
  expect(blocks.map((b) => b.name).sort()).toEqual(Object.keys(BLOCKS).sort());
});

it('type-checks every block against the packed package, in one strict program', {
  timeout: 120_000,
}, async () => {
  const dir = join(work, 'types');
  mkdirSync(dir);
  const sdk = await import(pathToFileURL(join(work, 'node_modules/scratchlab/dist/index.js')).href);
  // What the kernel declares for its cells, as a module the prompt blocks import from (as globals
  // they would be seen by the script blocks too, and hide a missing import there).
  const helpers = [...globalsDeclarations(Object.keys(sdk)).matchAll(/^ {2}const (.*)$/gm)].map((m) => m[1]!);
  writeFileSync(
    join(dir, 'cells.ts'),
    [
      "export * from 'scratchlab';",
      ...helpers.map((line) => `export declare const ${line}`),
      "export declare const session: import('scratchlab').Session;",
      "export declare const sandbox: import('scratchlab/sandbox').Sandbox;",
      '',
    ].join('\n'),
  );
  const cellNames = [
    ...globalExports(Object.keys(sdk)),
    ...PRELOAD_NAMES.filter((name) => name !== 'scratchlab'),
  ];
  /** Whether a block declares or imports `name` itself (then it does not come from the cells). */
  const ownName = (code: string, name: string) =>
    new RegExp(`(?:const|let|var|class|function)\\s+${name}\\b|import\\s*\\{[^}]*\\b${name}\\b`).test(code);
  const preludes = new Map<string, number>();
  for (const block of blocks) {
    const h = how(block);
    let prelude = '';
    if (h.kind === 'prompt') {
      const names = cellNames.filter((name) => !ownName(block.code, name));
      prelude = `import { ${names.join(', ')} } from './cells.js';\nimport * as scratchlab from 'scratchlab';\n`;
      if (h.given) prelude += `${h.given}\n`;
    }
    preludes.set(fileOf(block), prelude.split('\n').length - 1);
    writeFileSync(join(dir, `${fileOf(block)}.ts`), `${prelude}${block.code}\n`);
  }
  const root = JSON.parse(
    execFileSync(process.execPath, ['-p', 'JSON.stringify(require("./tsconfig.json"))'], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  ) as { compilerOptions: Record<string, unknown> };
  // The project's settings; unused names are a lint of its own code, not a strictness users meet.
  const {
    rootDir,
    outDir,
    declaration,
    declarationMap,
    sourceMap,
    noUnusedLocals,
    noUnusedParameters,
    ...options
  } = root.compilerOptions;
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { ...options, noEmit: true }, include: ['*.ts'] }, null, 2),
  );
  let output = '';
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], {
      cwd: work,
      encoding: 'utf8',
    });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  // Each error named by its block and the line in the README.
  const named = output.replace(
    /^(?:types\/)?(b\d\d)\.ts\((\d+),(\d+)\)/gm,
    (_, file: string, line: string, column: string) => {
      const block = blocks.find((b) => fileOf(b) === file)!;
      const at = Number(block.where.split(':')[1]) + Number(line) - (preludes.get(file) ?? 0);
      return `${block.where.split(':')[0]}:${at}:${column} (${block.name})`;
    },
  );
  expect(named).toBe('');
});

/** A block's output in the runner's stdout, and how it ended. */
interface Ran {
  out: string;
  outcome: string;
}

/** Splits ./run-blocks.mjs's stdout by its marks. */
function byBlock(stdout: string): Map<string, Ran> {
  const ran = new Map<string, Ran>();
  const parts = stdout.split(/^\u241e doc-block start (.*)$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const [out, outcome = 'no end mark (the runner died in it)'] = parts[i + 1]!.split(
      /^\u241e doc-block end .*? (?=(?:ok|error|hang|leaks)\b)/m,
    );
    // The block's seconds, for the log only.
    ran.set(parts[i]!, { out: out!.trim(), outcome: outcome.trim().replace(/ \(\d+\.\d s\)$/, '') });
  }
  return ran;
}

it('runs every script block against the sandbox in one process that then ends by itself', {
  timeout: 400_000,
}, async () => {
  const dir = join(work, 'scripts');
  mkdirSync(dir);
  const plan = {
    blocks: [] as { name: string; file: string; swap?: Record<string, string> }[],
    hooks: join(work, 'swap-hooks.mjs'),
    shim: join(work, 'swap-scratchlab.mjs'),
    timeoutMs: 60_000,
    settleMs: 5_000,
  };
  for (const block of ofKind('script')) {
    const h = how(block) as Extract<How, { kind: 'script' }>;
    const { code } = await transform(h.observe ? `${block.code}\n${h.observe}` : block.code, {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcefile: block.where,
    });
    const file = join(dir, `${fileOf(block)}.mjs`);
    writeFileSync(file, code);
    plan.blocks.push({ name: block.name, file, ...(h.swap ? { swap: h.swap } : {}) });
  }
  // The real site's twin for the blocks that target it.
  const site = await startSandbox();
  const [demo] = site.accounts;
  writeFileSync(
    join(work, 'plan.json'),
    JSON.stringify({
      ...plan,
      site: {
        hosts: site.hosts,
        alternateCloudHost: site.alternateCloudHost,
        names: { popularUser: site.samples.popularUser, demoUser: demo!.username },
        password: demo!.password,
      },
    }),
  );
  // `One file, many processes` reads what `scratchlab record` stores meanwhile, as its comment says.
  const recorder = startChild(
    [
      join(work, 'node_modules/scratchlab/dist/cli.js'),
      'record',
      '1187459360',
      '--db',
      join(dir, 'demo.duckdb'),
      '--sandbox',
    ],
    process.env,
    { cwd: dir },
  );
  await recorder.until((line) => line === 'Ctrl-C stops', 60_000);
  const runner = startChild([join(work, 'run-blocks.mjs'), join(work, 'plan.json')], process.env, {
    cwd: dir,
  });
  const ended = await Promise.race([
    runner.exited,
    new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 380_000).unref()),
  ]);
  recorder.proc.kill('SIGINT');
  await recorder.exited;
  await site.close();
  if (ended === 'still running') runner.proc.kill('SIGKILL');
  const ran = byBlock(runner.lines.join('\n'));
  for (const block of ofKind('script')) {
    const result = ran.get(block.name);
    expect(result?.outcome, `${block.where} (${block.name}):\n${result?.out}\n${runner.stderr()}`).toBe('ok');
    const h = how(block) as Extract<How, { kind: 'script' }>;
    h.check?.(result!.out);
  }
  expect(ended, runner.stderr()).toEqual({ code: 0, signal: null });
});

it('the runner reports a block that never finishes and one that leaves a handle behind', {
  timeout: 60_000,
}, async () => {
  const dir = join(work, 'runner-check');
  mkdirSync(dir);
  const block = (name: string, code: string) => {
    writeFileSync(join(dir, `${name}.mjs`), code);
    return { name, file: join(dir, `${name}.mjs`) };
  };
  const plan = {
    blocks: [
      block('waits forever', 'await new Promise(() => {});'),
      block('leaves a timer', "setInterval(() => {}, 1000); console.log('printed');"),
      block('fine', "await new Promise((resolve) => setTimeout(resolve, 10)); console.log('done');"),
    ],
    hooks: join(work, 'swap-hooks.mjs'),
    shim: join(work, 'swap-scratchlab.mjs'),
    timeoutMs: 1_000,
    settleMs: 1_000,
  };
  writeFileSync(join(dir, 'plan.json'), JSON.stringify(plan));
  const runner = startChild([join(work, 'run-blocks.mjs'), join(dir, 'plan.json')], process.env, {
    cwd: dir,
  });
  expect(await runner.exited).toEqual({ code: 1, signal: null });
  const ran = byBlock(runner.lines.join('\n'));
  expect(ran.get('waits forever')).toEqual({ out: '', outcome: 'hang (not done within 1000 ms)' });
  expect(ran.get('leaves a timer')).toEqual({ out: 'printed', outcome: 'leaks Timeout ×1' });
  expect(ran.get('fine')).toEqual({ out: 'done', outcome: 'ok' });
});

/**
 * What the prompt blocks find in the preloaded store, which the README has `scratchlab record`
 * write: the sandbox game's history, recorded here by the test first (a line or a cell of its own).
 */
const RECORD_FIRST = 'await (await store.recordCloud(session.cloud(sandbox.cloudProjectId))).stop()';

/** A fresh folder for a front end's prompt blocks (their files, their store). */
function promptDir(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Types `code` into the REPL line by line, as a person would; answers what the terminal showed. */
async function typeLines(repl: ReplProcess, code: string): Promise<string> {
  const start = repl.raw.length;
  for (const line of code.split('\n')) {
    const offset = repl.raw.length;
    repl.type(`${line}\r`);
    // The next prompt, or the continuation prompt of an input that goes on.
    await repl.waitFor(
      () => /(scratchlab>|\.\.\.)\s*$/.test(repl.since(offset).split('\n').slice(1).join('\n')),
      60_000,
      `the prompt after ${JSON.stringify(line)}`,
    );
  }
  return stripAnsi(repl.raw.slice(start));
}

describe('prompt blocks', () => {
  it('run typed line by line into `scratchlab repl --sandbox`', { timeout: 300_000 }, async () => {
    const dir = promptDir('repl');
    const repl = await ReplProcess.start({
      sandbox: true,
      cwd: dir,
      env: { SCRATCHLAB_DB: join(dir, 'scratchlab.duckdb') },
      startTimeout: 60_000,
    });
    try {
      expect(await typeLines(repl, RECORD_FIRST)).not.toMatch(/Uncaught|SyntaxError/);
      for (const block of ofKind('prompt')) {
        const h = how(block) as Extract<How, { kind: 'prompt' }>;
        if (h.kernelOnly) continue;
        const shown = await typeLines(repl, block.code);
        expect(shown, `${block.where} (${block.name})`).not.toMatch(/Uncaught|SyntaxError/);
        h.repl?.(shown);
      }
    } finally {
      expect(await repl.close()).toBe(0);
    }
  });

  it.skipIf(!hasJupyter)(
    'run as the cells of a notebook on the sandbox kernel',
    { timeout: 300_000 },
    async () => {
      const home = jupyterHome('docs');
      await installKernels(home);
      const dir = promptDir('kernel');
      home.env.SCRATCHLAB_DB = join(dir, 'scratchlab.duckdb');
      const prompts = ofKind('prompt');
      const path = join(dir, 'prompt-blocks.ipynb');
      writeNotebook(path, makeNotebook([RECORD_FIRST, ...prompts.map((b) => b.code)]));
      const { notebook } = await executeNotebook(home, path, { timeout: 60 });
      prompts.forEach((block, i) => {
        const outputs = notebook.cells[i + 1]!.outputs ?? [];
        const shown = outputs
          .map((o) => `${text(o.text)}${text(o.data?.['text/plain'] as string | string[] | undefined)}`)
          .join('\n');
        expect(
          outputs.filter((o) => o.output_type === 'error'),
          `${block.where} (${block.name})`,
        ).toEqual([]);
        (how(block) as Extract<How, { kind: 'prompt' }>).kernel?.(shown);
      });
    },
  );
});
