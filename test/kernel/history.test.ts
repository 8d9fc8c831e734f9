// The kernel's history (kernel/protocol/history.ts): kept in Jupyter's data folder across kernel
// restarts, answered to history_request (tail, range, search), bounded in size, and whole when
// two processes write it at once.
import { execFile, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { inspect, promisify } from 'node:util';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { globMatcher, History, MAX_OUTPUT } from '../../kernel/protocol/history.js';
import { answerInWorker } from '../support/bounded-worker.js';
import { drive, hasJupyter, installKernels, type JupyterHome, jupyterHome, ROOT } from './jupyter.js';

const run = promisify(execFile);

/** A process that opens the history `file` (bounded at `maxBytes`) and records `count` cells. */
const WRITER = `
const { History } = await import(${JSON.stringify(join(ROOT, 'dist/kernel/protocol/history.js'))});
const [file, count, maxBytes] = process.argv.slice(1);
const history = History.open(file, { maxBytes: Number(maxBytes), log: (line) => { console.error(line); process.exitCode = 1; } });
for (let i = 1; i <= Number(count); i++) history.record(i, 'cell ' + i + ' ' + 'x'.repeat(60), String(i));
await history.flushed();
console.log(history.session);
`;

describe('the history file', () => {
  it('stays whole and bounded while two processes write it at once; the newest cells are kept', {
    timeout: 120_000,
  }, async () => {
    const home = jupyterHome('history-file');
    const file = join(home.dir, 'history.jsonl');
    const maxBytes = 16 * 1024;
    const writers = [0, 1].map(() =>
      run(process.execPath, ['--input-type=module', '-e', WRITER, file, '300', String(maxBytes)]),
    );
    const sessions = (await Promise.all(writers)).map(({ stdout }) => Number(stdout.trim()));
    expect(new Set(sessions).size).toBe(2);

    expect(statSync(file).size).toBeLessThanOrEqual(maxBytes);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as { s: number; l?: number; i?: string });
    // Dropping the oldest lines leaves each writer's newest cells, in order and without a gap
    // (all of a writer's cells go when the other wrote 300 after it finished).
    for (const session of sessions) {
      const kept = entries.filter((e) => e.s === session && e.l !== undefined).map((e) => e.l!);
      const first = kept[0] ?? 301;
      expect(kept).toEqual(Array.from({ length: 301 - first }, (_, i) => first + i));
    }
    expect(entries.at(-1)).toMatchObject({ l: 300 });

    const third = History.open(file, { maxBytes });
    const tail = await third.query({ hist_access_type: 'tail', n: 2, output: true });
    expect(tail.map(([, line, cell]) => [line, (cell as [string, string])[1]])).toEqual([
      [expect.any(Number), expect.any(String)],
      [300, '300'],
    ]);
    expect(third.session).toBe(Math.max(...sessions) + 1);
    expect(() => third.query({ hist_access_type: 'everything' })).toThrow(TypeError);
    expect(() => third.query({ hist_access_type: 'tail', n: -1 })).toThrow(RangeError);
  });
});

describe('a kernel killed while it held the lock', () => {
  it('leaves a lock that the next kernel takes over once it is stale: its history is kept', {
    timeout: 120_000,
  }, async () => {
    const home = jupyterHome('history-killed-holder');
    const file = join(home.dir, 'history.jsonl');
    writeFileSync(file, '');
    // A kernel killed in the middle of a write (Jupyter's restart kills it right after a reply).
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(createRequire(import.meta.url).resolve('proper-lockfile'))})
          .lock(process.argv[1], { realpath: false, stale: 10_000 })
          .then(() => { console.log('locked'); setInterval(() => {}, 1000); });`,
        file,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      holder.stdout.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`the holder exited (${code}) before it locked`)));
    });
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));

    // The next kernel, started at once.
    const log: string[] = [];
    const history = History.open(file, { log: (line) => log.push(line) });
    history.record(1, 'const kept = 1', null);
    await history.flushed();
    expect(log).toEqual([]);
    expect(history.session).toBe(1);
    expect(readFileSync(file, 'utf8')).toContain('{"s":1,"l":1,"i":"const kept = 1","o":null}');
  });
});

describe('a damaged history file', () => {
  it('gives out new session numbers past lines with impossible ones, and answers its good lines', async () => {
    const home = jupyterHome('history-damaged');
    const file = join(home.dir, 'history.jsonl');
    writeFileSync(
      file,
      [
        '{"s":1,"start":"x"}',
        '{"s":1,"l":1,"i":"kept","o":null}',
        '{"s":1e308,"l":1,"i":"huge"}',
        '{"s":-4,"l":1,"i":"negative"}',
        '{"s":2,"l":1,"i":',
        'not json',
        '',
      ].join('\n'),
    );
    const first = History.open(file);
    const second = History.open(file);
    await Promise.all([first.flushed(), second.flushed()]);
    expect([first.session, second.session].sort()).toEqual([2, 3]);
    const all = await first.query({ hist_access_type: 'tail', n: 10 });
    expect(all).toEqual([[1, 1, 'kept']]);
  });
});

describe('search patterns', () => {
  it("match as SQLite's GLOB does, in input × pattern steps, and name a set that is not valid", async () => {
    const cases: [string, string, boolean][] = [
      ['yesterday*', 'yesterday + 1', true],
      ['*day*', 'const yesterday = 6 * 7', true],
      ['y?s*', 'yes', true],
      ['y?s*', 'ys', false],
      ['[a-c]at', 'bat', true],
      ['[^a-c]at', 'bat', false],
      ['[^a-c]at', 'rat', true],
      ['a*b*c', 'a\nxxb/yyc', true],
      ['a*b*c', 'abcx', false],
      ['1+1', '1+1', true],
      ['(x)', '(x)', true],
      ['', '', true],
      ['*', '', true],
      ['[', '[', true],
    ];
    for (const [pattern, text, expected] of cases)
      expect([pattern, text, globMatcher(pattern)(text)]).toEqual([pattern, text, expected]);
    // A regular expression backtracks for hours over this; the matcher takes input × pattern steps.
    // In a worker: a matcher that backtracked would be stopped there, failing the test.
    expect(
      await answerInWorker(
        join(ROOT, 'dist/kernel/protocol/history.js'),
        'return m.globMatcher(args[0])(args[1]);',
        [`${'*a'.repeat(12)}b`, 'a'.repeat(100_000)],
        'the match of a pattern of 12 stars',
      ),
    ).toEqual({ value: false });
    expect(() => globMatcher('[z-a]')).toThrow(TypeError);
  });
});

describe.skipIf(!hasJupyter)('history in the kernel', () => {
  let home: JupyterHome;

  beforeAll(async () => {
    home = jupyterHome('history');
    await installKernels(home);
  });

  it('keeps cells across a restart, in the data folder, and answers tail, range and search', {
    timeout: 180_000,
  }, async () => {
    const folder = join(home.dir, 'notebooks');
    const first = await drive(home, 'scratchlab', folder, [
      { execute: 'const yesterday = 6 * 7' },
      { execute: 'yesterday + 1' },
    ]);
    for (const result of first) expect(result.error).toBeUndefined();

    // A new kernel process: a restart.
    const second = await drive(home, 'scratchlab', folder, [
      { history: { hist_access_type: 'tail', n: 2, output: false, raw: true } },
      { execute: "'today'" },
      { history: { hist_access_type: 'tail', n: 1, output: true, raw: true } },
      { history: { hist_access_type: 'range', session: 0, start: 1, stop: 2, output: false, raw: true } },
      { history: { hist_access_type: 'search', pattern: 'yesterday*', n: 10, output: false, raw: true } },
      { history: { hist_access_type: 'sideways' } },
    ]);
    expect(second[0]!.reply).toEqual({
      status: 'ok',
      history: [
        [1, 1, 'const yesterday = 6 * 7'],
        [1, 2, 'yesterday + 1'],
      ],
    });
    expect(second[2]!.reply!.history).toEqual([[2, 1, ["'today'", "'today'"]]]);
    expect(second[3]!.reply!.history).toEqual([[2, 1, "'today'"]]);
    expect(second[4]!.reply!.history).toEqual([[1, 2, 'yesterday + 1']]);
    expect(second[5]!.reply).toMatchObject({ status: 'error', ename: 'TypeError', history: [] });

    // Where Jupyter keeps its data (JUPYTER_DATA_DIR here).
    const file = join(home.env.JUPYTER_DATA_DIR, 'scratchlab', 'history.jsonl');
    expect(readFileSync(file, 'utf8')).toContain('const yesterday = 6 * 7');
  });

  it("keeps out every cell that shows the session's token, its cookies or its password, through a variable too", {
    timeout: 180_000,
  }, async () => {
    const results = await drive(home, 'scratchlab-sandbox', join(home.dir, 'secret-values'), [
      { execute: 'const t = session.xToken' },
      { execute: 't' },
      { execute: 'const values = (await session.jar.getCookies(session.siteHost)).map((c) => c.value)' },
      { execute: 'values' },
      { execute: 'const account = sandbox.accounts[0]' },
      { execute: 'Object.values(account)' },
      { execute: "'nothing to hide'" },
    ]);
    for (const result of results) expect(result.error).toBeUndefined();
    const shown = (i: number) =>
      String(
        (
          results[i]!.iopub.find((m) => m.type === 'execute_result')?.content.data as Record<string, unknown>
        )?.['text/plain'] ?? '',
      );
    // What the cells showed: the token, the cookies' values, the demo account's password.
    const token = /'([^']{8,})'/.exec(shown(1))?.[1];
    const cookies = [...shown(3).matchAll(/'([^']{8,})'/g)].map((m) => m[1]!);
    expect(token).toBeDefined();
    expect(cookies.length).toBeGreaterThanOrEqual(2); // the session id and the CSRF token
    expect(shown(5)).toContain('sandbox-demo-1');

    const file = join(home.env.JUPYTER_DATA_DIR, 'scratchlab', 'history.jsonl');
    const text = readFileSync(file, 'utf8');
    for (const secret of [token!, ...cookies, 'sandbox-demo-1']) expect(text).not.toContain(secret);
    const session = Math.max(
      ...text
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { s: number }).s),
    );
    const kept = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { s: number; l?: number; i?: string })
      .filter((e) => e.s === session && e.l !== undefined)
      .map((e) => [e.l, e.i]);
    expect(kept).toEqual([
      [3, 'const values = (await session.jar.getCookies(session.siteHost)).map((c) => c.value)'],
      [5, 'const account = sandbox.accounts[0]'],
      [7, "'nothing to hide'"],
    ]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('keeps the cells of two kernels writing the same file at once, each under its own session', {
    timeout: 180_000,
  }, async () => {
    const cells = (name: string) => [1, 2, 3].map((n) => ({ execute: `'${name} ${n}'` }));
    const range = { history: { hist_access_type: 'range', session: 0, start: 1, output: false, raw: true } };
    const [a, b] = await Promise.all(
      ['kernel A', 'kernel B'].map((name) =>
        drive(home, 'scratchlab', join(home.dir, name.replace(' ', '-')), [...cells(name), range]),
      ),
    );
    const sessions: number[] = [];
    for (const [name, results] of [
      ['kernel A', a!],
      ['kernel B', b!],
    ] as const) {
      for (const result of results) expect(result.error).toBeUndefined();
      const history = results[3]!.reply!.history as [number, number, string][];
      expect(history.map(([, line, input]) => [line, input])).toEqual([
        [1, `'${name} 1'`],
        [2, `'${name} 2'`],
        [3, `'${name} 3'`],
      ]);
      sessions.push(history[0]![0]);
    }
    expect(new Set(sessions).size).toBe(2);
    const file = join(home.env.JUPYTER_DATA_DIR, 'scratchlab', 'history.jsonl');
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    for (const session of sessions)
      expect(lines.filter((e) => e.s === session && 'i' in e).map((e) => e.l)).toEqual([1, 2, 3]);
  });

  it("writes a cell run under a second before a restart, and the new kernel's query sees it", {
    timeout: 180_000,
  }, async () => {
    const results = await drive(home, 'scratchlab', join(home.dir, 'restart'), [
      { execute: "'before the restart'" },
      { restart: true },
      { history: { hist_access_type: 'search', pattern: '*before the restart*', output: true, raw: true } },
    ]);
    expect(results[0]!.error).toBeUndefined();
    expect(results[1]).toMatchObject({ exited: true, exit_code: 0 });
    expect(results[2]!.reply).toEqual({
      status: 'ok',
      history: [[expect.any(Number), 1, ["'before the restart'", "'before the restart'"]]],
    });
  });
});

describe('secrets in cells', () => {
  it('keeps no cell that may hold a password, a token or a login', async () => {
    const home = jupyterHome('history-secrets');
    const file = join(home.dir, 'history.jsonl');
    const history = History.open(file);
    history.record(1, "const me = await Session.login('me', 'hunter2-pw')", null);
    history.record(2, "const password = 'hunter3-pw'", null);
    history.record(3, 'const xs = [1, 2, 3]', null);
    // Inside a name, and in a result only.
    history.record(4, 'process.env.SCRATCH_PASSWORD', "'hunter4-pw'");
    history.record(5, "const apiToken = 'hunter5-pw'", null);
    history.record(6, 'sandbox.accounts[0]', "{ username: 'me', password: 'hunter6-pw' }");
    await history.flushed();
    const text = readFileSync(file, 'utf8');
    for (const secret of ['hunter2-pw', 'hunter3-pw', 'hunter4-pw', 'hunter5-pw', 'hunter6-pw'])
      expect(text).not.toContain(secret);
    expect(text).toContain('const xs = [1, 2, 3]');
  });
});

describe('secret values in cells', () => {
  it('keeps no cell whose input or result holds a secret value the kernel knows, whatever its names', async () => {
    const home = jupyterHome('history-secret-values');
    const folder = join(home.dir, 'made-before');
    // A folder and file made public before (0755, 0644): opening the history makes them private.
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const file = join(folder, 'history.jsonl');
    writeFileSync(file, '', { mode: 0o644 });
    chmodSync(file, 0o644);
    const secrets = ['tok-3b1f9e', 'sid-77c2a0', ''];
    const history = History.open(file, { secrets: () => secrets });
    history.record(1, 't', "'tok-3b1f9e'");
    history.record(2, "const copy = 'sid-77c2a0'.slice(0)", null);
    history.record(3, 'cookies', `'${'x'.repeat(MAX_OUTPUT - 4)}sid-77c2a0'`); // cut inside the value
    history.record(4, "'plain'", "'plain'");
    await history.flushed();
    const text = readFileSync(file, 'utf8');
    for (const secret of ['tok-3b1f9e', 'sid-77c2a0', 'sid-7']) expect(text).not.toContain(secret);
    expect(await history.query({ hist_access_type: 'tail', n: 10 })).toEqual([
      [history.session, 4, "'plain'"],
    ]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);

    // A folder made by the history: 0700, its file 0600; a secrets list that fails keeps nothing.
    const fresh = join(home.dir, 'fresh', 'history.jsonl');
    const failing = History.open(fresh, {
      secrets: () => {
        throw new Error('no jar');
      },
      log: () => {},
    });
    failing.record(1, '1 + 1', '2');
    await failing.flushed();
    expect(await failing.query({ hist_access_type: 'tail', n: 10 })).toEqual([]);
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(fresh)).mode & 0o777).toBe(0o700);
  });
});

describe('secret values shown escaped', () => {
  it('keeps no cell that shows a secret as inspect or JSON write it (a password with a backslash or quotes)', async () => {
    const home = jupyterHome('history-secret-escaped');
    const file = join(home.dir, 'history.jsonl');
    const password = `pa\\ss'wo"rd\`1`;
    const history = History.open(file, { secrets: () => [password, 'line\nbreak'] });
    // What a cell's value shows for the password read into a variable: inspect's text, of the
    // string, of its JSON, of an object holding it; and a secret holding a line break.
    history.record(1, 'pw', inspect(password));
    history.record(2, 'JSON.stringify(pw)', inspect(JSON.stringify(password)));
    history.record(3, '({ pw })', inspect({ pw: password }));
    history.record(4, 'note', inspect('line\nbreak'));
    history.record(5, "'plain'", "'plain'");
    await history.flushed();
    expect(await history.query({ hist_access_type: 'tail', n: 10 })).toEqual([
      [history.session, 5, "'plain'"],
    ]);
  });
});

describe('cells waiting to be written', () => {
  it('are written by a query and by flushed() before their delay, and at once past a MiB', async () => {
    const home = jupyterHome('history-delay');
    const file = join(home.dir, 'history.jsonl');
    const log: string[] = [];
    // A delay the test never reaches: whatever is written was written for another reason.
    const history = History.open(file, { writeDelayMs: 60_000, log: (line) => log.push(line) });
    history.record(1, 'const a = 1', null);
    expect(await history.query({ hist_access_type: 'tail', n: 5 })).toEqual([
      [history.session, 1, 'const a = 1'],
    ]);
    history.record(2, 'a + 1', '2');
    await history.flushed();
    expect(readFileSync(file, 'utf8')).toContain('"i":"a + 1","o":"2"');

    // Eleven cells of 99,000 characters pass the MiB: written without waiting; the twelfth waits.
    const cell = (line: number) => `// cell ${line}\n${'x'.repeat(99_000)}`;
    for (let line = 3; line <= 14; line++) history.record(line, cell(line), null);
    await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toContain('// cell 13'), { timeout: 30_000 });
    expect(readFileSync(file, 'utf8')).not.toContain('// cell 14');
    await history.flushed();
    expect(readFileSync(file, 'utf8')).toContain('// cell 14');
    expect(log).toEqual([]);
    expect(() => History.open(file, { writeDelayMs: -1 })).toThrow(RangeError);
    expect(() => History.open(file, { writeDelayMs: 60_001 })).toThrow(RangeError);
  });

  it('are written before a process that never asks ends by itself', { timeout: 60_000 }, async () => {
    const home = jupyterHome('history-exit');
    const file = join(home.dir, 'history.jsonl');
    const script = `
const { History } = await import(${JSON.stringify(join(ROOT, 'dist/kernel/protocol/history.js'))});
History.open(process.argv[1]).record(1, 'left to the timer', null);
`;
    // Bounded: a timer that kept the process alive for good would fail here.
    await run(process.execPath, ['--input-type=module', '-e', script, file], { timeout: 30_000 });
    expect(readFileSync(file, 'utf8')).toContain('left to the timer');
  });

  it('are dropped, with a line in the log, when the file cannot be written; no cell fails', async () => {
    const home = jupyterHome('history-unwritable');
    const notFolder = join(home.dir, 'a-file');
    writeFileSync(notFolder, 'not a folder');
    const log: string[] = [];
    const history = History.open(join(notFolder, 'history.jsonl'), { log: (line) => log.push(line) });
    history.record(1, 'const lost = 1', null);
    await history.flushed();
    expect(history.session).toBe(0);
    expect(log).toEqual([expect.stringMatching(/^history: opening failed: /)]);
    await expect(history.query({ hist_access_type: 'tail', n: 1 })).rejects.toThrow();
  });
});
