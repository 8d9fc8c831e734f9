// The kernel's type check (kernel/execution/type-checker.ts): tslab's checker in a worker process,
// fed the cells in the order they ran, on plain programs (kernel/execution/plain-program.ts). Each
// cell is checked against every earlier cell's declarations, those of cells with errors included
// (they ran). Runs the built worker (dist/), as the kernel does.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TypeChecker as Checker } from '../../kernel/execution/type-checker.js';

const ROOT = join(import.meta.dirname, '..', '..');
const { MAX_RESTARTS, TypeChecker } = (await import(
  join(ROOT, 'dist', 'kernel', 'execution', 'type-checker.js')
)) as { MAX_RESTARTS: number; TypeChecker: typeof Checker };

describe('the type check of cells, in the order they ran', () => {
  let checker: Checker;
  const log: string[] = [];

  beforeAll(async () => {
    const cwd = join(ROOT, 'test', '.tmp', 'type-checker');
    mkdirSync(cwd, { recursive: true });
    checker = new TypeChecker({ log: (line) => log.push(line), cwd });
    await checker.ready();
  });
  afterAll(() => checker.close());

  /** `code`'s problems as `line:column TScode`. */
  async function check(code: string): Promise<string[]> {
    const problems = await checker.check(code, 'a cell', 60_000);
    if (problems === null) throw new Error(`no answer; the checker's log:\n${log.join('\n')}`);
    return problems.map((p) => `${p.line}:${p.column} TS${p.code}`);
  }

  it('is cold until its first answer', async () => {
    expect(checker.warm).toBe(false);
    expect(await check('const n: number = "x"; n')).toEqual(['1:7 TS2322']);
    expect(checker.warm).toBe(true);
  });

  it('sees the declarations of earlier cells, those of a cell with errors too', async () => {
    expect(await check('n.toFixed(2)')).toEqual([]); // `n` was declared by a cell with an error
    expect(await check('interface P { x: number }\nconst p: P = { x: 1 };')).toEqual([]);
    expect(await check('p.y')).toEqual(['1:3 TS2339']);
    expect(await check('const p = 5; p.toFixed(2)')).toEqual([]); // declared again
    expect(await check('p.x')).toEqual(['1:3 TS2339']); // the new `p` is a number
  });

  it('reports at cell lines and columns, and allows top-level await and imports', async () => {
    expect(await check('function f(x: string) {\n  return x.length;\n}\nf(3)')).toEqual(['4:3 TS2345']);
    expect(await check('const q = await Promise.resolve(3);\nq.toUpperCase()')).toEqual(['2:3 TS2339']);
    expect(await check('import { join } from "node:path";\njoin("a", 1)')).toEqual(['2:11 TS2345']);
    expect(await check('undefinedName + 1')).toEqual(['1:1 TS2552']);
  });

  it('holds no later cell while an earlier check is past its wait; both answers go to the log', {
    timeout: 180_000,
  }, async () => {
    // Thousands of lines with a problem each: seconds of checking.
    const big = Array.from({ length: 5000 }, (_, i) => `const big${i}: string = ${i};`).join('\n');
    expect(await checker.check(big, 'the big cell', 1)).toBeNull(); // past its wait
    // Queued behind it: answered at once, not after the big check (each cell would wait its limit).
    expect(await checker.check('const after: number = "x";', 'the next cell', 120_000)).toBeNull();
    await vi.waitFor(
      () =>
        expect(log.some((line) => line.startsWith('type check of the next cell, after its cell ended'))).toBe(
          true,
        ),
      { timeout: 150_000, interval: 100 },
    );
    const late = log.find((line) => line.startsWith('type check of the big cell, after its cell ended'));
    // Its 5,000 problems: the first few and a count, not a line of hundreds of kilobytes.
    expect(late).toMatch(/: Type 'number' is not assignable to type 'string'\.; .* and 4995 more$/);
    expect(late!.length).toBeLessThan(1000);
    // Caught up: checks answer again.
    expect(await check('after.toFixed(1); after.length')).toEqual(['1:25 TS2339']);
  });
});

/** Process `pid`'s session id, or `null` once it has ended (gone, or a zombie nobody reaped). */
function sessionOf(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // `pid (comm) state ppid pgrp session …`: comm may hold spaces and parentheses.
  const [state, , , session] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return state === 'Z' || state === 'X' ? null : Number(session);
}

describe('the type check’s worker', () => {
  it('is a process in a session of its own (its CPU is not charged to the kernel’s), and answers', async () => {
    const cwd = join(ROOT, 'test', '.tmp', 'type-checker');
    mkdirSync(cwd, { recursive: true });
    const checker = new TypeChecker({ log: () => {}, cwd });
    try {
      await checker.ready();
      const pid = checker.pid;
      expect(pid).toBeTypeOf('number');
      expect(sessionOf(pid!)).toBe(pid); // it leads its session
      expect(sessionOf(pid!)).not.toBe(sessionOf(process.pid));
      expect(await checker.check('const s: string = 1;', 'a cell', 60_000)).toMatchObject([
        { line: 1, column: 7, code: 2322 },
      ]);
    } finally {
      await checker.close();
    }
    expect(sessionOf(checker.pid!)).toBeNull();
  });

  it('gets none of the kernel’s secrets in its environment (the password it logs in with)', async () => {
    const cwd = join(ROOT, 'test', '.tmp', 'type-checker');
    mkdirSync(cwd, { recursive: true });
    const saved = { ...process.env };
    Object.assign(process.env, {
      SCRATCH_PASSWORD: 'pw-of-the-kernel',
      SCRATCH_USERNAME: 'someone',
      GITHUB_TOKEN: 'tok-of-the-kernel',
    });
    let checker: Checker;
    try {
      checker = new TypeChecker({ log: () => {}, cwd });
    } finally {
      for (const name of ['SCRATCH_PASSWORD', 'SCRATCH_USERNAME', 'GITHUB_TOKEN'])
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
    }
    try {
      await checker.ready();
      const environment = readFileSync(`/proc/${checker.pid}/environ`, 'utf8').split('\0');
      expect(environment.filter((line) => line.includes('of-the-kernel'))).toEqual([]);
      expect(environment).toContain('SCRATCH_USERNAME=someone'); // not a secret
      expect(await checker.check('const s: string = 1;', 'a cell', 60_000)).toHaveLength(1);
    } finally {
      await checker.close();
    }
  });

  it('is started again when its process is killed by someone, from the declarations of the cells before', {
    timeout: 180_000,
  }, async () => {
    const cwd = join(ROOT, 'test', '.tmp', 'type-checker');
    mkdirSync(cwd, { recursive: true });
    const log: string[] = [];
    const checker = new TypeChecker({ log: (line) => log.push(line), cwd });
    try {
      await checker.ready();
      expect(await checker.check('const kept: number = 1;', 'cell 1', 60_000)).toEqual([]);
      for (let kill = 1; kill <= MAX_RESTARTS; kill++) {
        const before = checker.pid!;
        process.kill(before, 'SIGKILL');
        await vi.waitFor(() => expect(checker.pid).not.toBe(before), { timeout: 30_000, interval: 20 });
        expect(log.at(-1)).toBe(
          `type check: the worker exited (SIGKILL); started again (${kill} of ${MAX_RESTARTS})`,
        );
        // The new worker knows `kept` (a number), and the cells checked after it.
        const problems = await checker.check(
          `kept.toFixed(1); const more${kill} = kept;`,
          `cell ${kill + 1}`,
          60_000,
        );
        expect(problems?.map((p) => p.message)).toEqual([]);
        expect((await checker.check(`more${kill}.length`, 'a cell', 60_000))?.map((p) => p.code)).toEqual([
          2339,
        ]);
      }
      // Past its restarts: cells run unchecked, and the log says so.
      const last = checker.pid!;
      process.kill(last, 'SIGKILL');
      await vi.waitFor(
        () =>
          expect(log.at(-1)).toBe('type check: the worker exited (SIGKILL); cells run unchecked from now on'),
        {
          timeout: 30_000,
          interval: 20,
        },
      );
      expect(checker.pid).toBe(last);
      expect(await checker.check('const s: string = 1;', 'a cell', 60_000)).toBeNull();
    } finally {
      await checker.close();
    }
  });

  /** A kernel's process with a checker, running `then` once it is ready: the process and the checker's pid. */
  async function kernelWithChecker(then = ''): Promise<{ kernel: ChildProcess; pid: number }> {
    const script = `
      const { TypeChecker } = await import(${JSON.stringify(join(ROOT, 'dist', 'kernel', 'execution', 'type-checker.js'))});
      const checker = new TypeChecker({ log: () => {} });
      await checker.ready();
      ${then}
      console.log(checker.pid);
      setInterval(() => {}, 1000);`;
    const kernel = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      kernel.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
      kernel.once('exit', (code) =>
        reject(new Error(`the process exited (${code}) before its checker was ready`)),
      );
    });
    return { kernel, pid };
  }

  it('ends when the kernel’s process is killed outright', { timeout: 120_000 }, async () => {
    const { kernel, pid } = await kernelWithChecker();
    expect(sessionOf(pid)).toBe(pid);
    kernel.kill('SIGKILL');
    await vi.waitFor(() => expect(sessionOf(pid)).toBeNull(), { timeout: 60_000, interval: 50 });
  });

  it('ends when the kernel’s process is killed in the middle of a long check', {
    timeout: 120_000,
  }, async () => {
    // 20,000 lines with a problem each: 40 s of checking on this machine. Its IPC channel's end
    // reaches the worker's thread only after the check: Jupyter's restart kills the kernel.
    const { kernel, pid } = await kernelWithChecker(`
      const big = Array.from({ length: 20000 }, (_, i) => 'const big' + i + ': string = ' + i + ';').join('\\n');
      void checker.check(big, 'the big cell', 1);`);
    // In the check: it has used 2 s of CPU (ticks of 10 ms) since.
    const before = cpuTicks(pid);
    await vi.waitFor(() => expect(cpuTicks(pid) - before).toBeGreaterThan(200), {
      timeout: 60_000,
      interval: 50,
    });
    kernel.kill('SIGKILL');
    // Tens of seconds of the check are left: the worker must not finish it.
    await vi.waitFor(() => expect(sessionOf(pid)).toBeNull(), { timeout: 10_000, interval: 50 });
  });
});

/** Process `pid`'s CPU time in clock ticks (user and system), 0 once it has gone. */
function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
