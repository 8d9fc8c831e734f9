/**
 * The shared store's promises under faults, with real processes: loads SIGKILLed at many moments
 * (their move-in included) and run again; a holder stopped with SIGSTOP while others wait; loads
 * that stage different types for one column at once; a relative path after `chdir`; odd paths;
 * two users' in-memory loads; each call's own wait. Invariants are checked, not timings.
 * `STORE_FAULT_KILLS` sets how many kill points the load test tries (`npm run soak` tries more).
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { openStore, Store, StoreBusyError } from '../../src/data/index.js';
import { stagingFolder } from '../../src/data/staged-load.js';
import { bundleChild, projectTempDir } from '../support/bundle-child.js';
import { type LinesChild, startChild } from '../support/child-lines.js';
import { recorderChildEnv, useSandbox } from '../support/sandbox.js';

const KILLS = Number(process.env.STORE_FAULT_KILLS ?? 18);
/** Records of the killed walk (40 a page). */
const WALK = 4000;
const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
const ctx = useSandbox();
let dir: string;
let loadChild: string;
let recorderChild: string;
let faultChild: string;
const started: LinesChild[] = [];

beforeAll(async () => {
  dir = projectTempDir('store-faults-');
  // Readable by the second user of the in-memory test (its child script is here).
  chmodSync(dir, 0o755);
  loadChild = await bundleChild('data-load-child', dir, ['@duckdb/node-api']);
  faultChild = await bundleChild('store-fault-child', dir, ['@duckdb/node-api']);
  recorderChild = await bundleChild('recorder-child', dir, ['@duckdb/node-api']);
});
afterAll(() => {
  for (const { proc } of started) {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A recorder child recording the sandbox's cloud project into `file`. */
function recordInto(file: string): LinesChild {
  const child = startChild(
    [recorderChild, file, String(ctx.sandbox.cloudProjectId)],
    recorderChildEnv(ctx.sandbox),
  );
  started.push(child);
  return child;
}

function run(args: string[], options: { uid?: number; gid?: number } = {}): LinesChild {
  const child = startChild(args, process.env, options);
  started.push(child);
  return child;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rows and distinct `n` of table `walk` of `file` (read with DuckDB itself, not the store). */
async function walkRows(file: string): Promise<{ rows: number; distinct: number }> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    try {
      const exists = await connection.runAndReadAll(
        "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'walk'",
      );
      if (Number(exists.getRows()[0]![0]) === 0) return { rows: 0, distinct: 0 };
      const reader = await connection.runAndReadAll('SELECT count(*), count(DISTINCT n) FROM walk');
      const [rows, distinct] = reader.getRows()[0] as [bigint, bigint];
      return { rows: Number(rows), distinct: Number(distinct) };
    } finally {
      connection.closeSync();
    }
  } finally {
    instance.closeSync();
  }
}

it(`a keyless resumable load SIGKILLed at ${KILLS} moments, its move-in included, and run again stores every row once`, {
  timeout: 20_000 + KILLS * 6000,
}, async () => {
  // A store with history, so that the move-in's turn (its checkpoint) takes a while, as on a real file.
  const template = join(dir, 'template.duckdb');
  const seeding = await DuckDBInstance.create(template);
  const seed = await seeding.connect();
  await seed.run("CREATE TABLE history AS SELECT range AS n, 'entry ' || range AS label FROM range(1000000)");
  seed.closeSync();
  seeding.closeSync();

  // One load unharmed, to learn how long its move-in and clean-up take here: the kills after the
  // walk are spread over that time.
  const calibration = join(dir, 'calibration.duckdb');
  copyFileSync(template, calibration);
  const whole = run([loadChild, calibration, String(WALK), '0', 'true']);
  await whole.until((line) => line.startsWith('walked '));
  const walked = Date.now();
  expect((await whole.exited).code, whole.stderr()).toBe(0);
  const moveMs = Date.now() - walked;

  const phases = { walking: 0, staged: 0, movedNotCleaned: 0, finished: 0 };
  const afterWalk = KILLS - Math.ceil(KILLS / 3);
  let checked = 0;
  for (let point = 0; point < KILLS; point++) {
    const file = join(dir, `kill-${point}.duckdb`);
    copyFileSync(template, file);
    const loader = run([loadChild, file, String(WALK), '0', 'true']);
    // A third of the kills land in the walk, the rest after it, spread over its move-in and clean-up.
    if (point % 3 === 0) {
      const at = Math.floor(((point / 3 + 1) * WALK) / (KILLS / 3 + 2));
      await loader.until((line) => line.startsWith('stored ') && Number(line.slice(7)) >= at);
    } else {
      await loader.until((line) => line.startsWith('walked ') || line.startsWith('done '));
      const nth = point - Math.ceil(point / 3);
      await sleep((moveMs * nth) / afterWalk);
    }
    loader.proc.kill('SIGKILL');
    await loader.exited;
    const staging = existsSync(stagingFolder(file))
      ? readdirSync(stagingFolder(file)).filter(
          (name) => name.startsWith('walk-') && name.endsWith('.duckdb'),
        )
      : [];
    const before = await walkRows(file);
    if (staging.length === 0) {
      // Killed after the load was done (its staging file removed): run again, it would be a new
      // load (a finished walk is forgotten), so the rows are checked as they are.
      phases.finished++;
      expect(before).toEqual({ rows: WALK, distinct: WALK });
      checked += WALK;
      rmSync(file, { force: true });
      continue;
    }
    if (before.rows === WALK) phases.movedNotCleaned++;
    else if (loader.lines.some((line) => line.startsWith('walked '))) phases.staged++;
    else phases.walking++;

    const again = run([loadChild, file, String(WALK), '0', 'true']);
    expect((await again.exited).code, again.stderr()).toBe(0);
    expect(await walkRows(file), `killed at point ${point}, ${JSON.stringify(phases)}`).toEqual({
      rows: WALK,
      distinct: WALK,
    });
    expect(readdirSync(stagingFolder(file)).filter((name) => name.startsWith('walk-'))).toEqual([]);
    checked += WALK;
    rmSync(file, { force: true });
    rmSync(`${file}.loads`, { recursive: true, force: true });
  }
  console.info(
    `store faults: ${KILLS} kill points (${phases.walking} in the walk, ${phases.staged} staged, ` +
      `${phases.movedNotCleaned} moved in but not cleaned up, ${phases.finished} after the end; ` +
      `the move-in and clean-up took ${moveMs} ms); ${checked} rows checked`,
  );
});

it('a holder stopped with SIGSTOP for 15 s keeps the file: others wait or get a StoreBusyError naming it; resumed, it goes on without an error', {
  timeout: 60_000,
}, async () => {
  const file = join(dir, 'stopped.duckdb');
  const holder = run([faultChild, 'turns', file]);
  await holder.until((line) => line.startsWith('released '));
  const seen = holder.lines.length;
  await holder.until((line) => line.startsWith('holding ') && holder.lines.indexOf(line) >= seen);
  holder.proc.kill('SIGSTOP');
  const stoppedAt = Date.now();

  // A call with a short wait fails, naming the stopped holder.
  const impatient = new Store(file, { wait: 1 });
  const busy = await impatient.query('SELECT 1').catch((error: unknown) => error);
  expect(busy).toBeInstanceOf(StoreBusyError);
  expect((busy as StoreBusyError).holder).toMatchObject({ pid: holder.proc.pid, state: 'stopped' });
  expect((busy as Error).message).toContain(`kill -CONT ${holder.proc.pid}`);
  await impatient.close();

  // A patient one waits past the old 10 s take-over, and gets the file once the holder has resumed.
  const patient = new Store(file, { wait: 40 });
  const answer = patient.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM turns');
  await sleep(15_000 - (Date.now() - stoppedAt));
  holder.proc.kill('SIGCONT');
  const [{ n }] = await answer;
  expect(n).toBeGreaterThanOrEqual(1);
  await patient.close();
  const resumed = holder.lines.length;
  await holder.until((line) => line.startsWith('released ') && holder.lines.indexOf(line) >= resumed);
  holder.proc.kill('SIGTERM');
  expect((await holder.exited).code, holder.stderr()).toBe(0);
  expect(holder.lines.filter((line) => line.startsWith('error'))).toEqual([]);
  // Every turn it finished is in the file: nobody else wrote over it meanwhile.
  const turns = Number(holder.lines.at(-1)!.slice(5));
  const store = await openStore(file);
  const [row] = await store.query<{ n: number; top: number }>(
    'SELECT count(*)::INTEGER AS n, max(n)::INTEGER AS top FROM turns',
  );
  expect(row).toEqual({ n: turns, top: turns });
  await store.close();
});

it('each call waits its own wait: one made later than another still waits when the first gives up', {
  timeout: 30_000,
}, async () => {
  const file = join(dir, 'waits.duckdb');
  const holder = run([faultChild, 'hold', file]);
  await holder.until((line) => line === 'held');
  const store = new Store(file, { wait: 2 });
  const first = store.query('SELECT 1').catch((error: unknown) => error);
  // The second call is made 1.5 s after the first: its own 2 s run 1.5 s past the first's.
  await sleep(1500);
  const second = store.query<{ n: number }>('SELECT 2 AS n').catch((error: unknown) => error);
  const firstError = await first;
  expect(firstError).toBeInstanceOf(StoreBusyError);
  expect((firstError as StoreBusyError).holder?.pid).toBe(holder.proc.pid);
  // The first gave up: the holder dies now, and the second, still within its own wait, gets the
  // file. Had it shared the first's wait it would have failed with it.
  holder.proc.kill('SIGKILL');
  await holder.exited;
  expect(await second).toEqual([{ n: 2 }]);
  // The holder died: the file is free at once, nothing to clean up.
  expect(await store.query('SELECT 3 AS n')).toEqual([{ n: 3 }]);
  await store.close();
});

it('two stores of one process, and two names of one file, share one open of it', async () => {
  const folder = join(dir, 'names');
  mkdirSync(folder);
  const file = join(folder, 'one.duckdb');
  symlinkSync(folder, join(dir, 'other-name'));
  const a = await openStore(file);
  const b = await openStore(join(dir, 'other-name', 'one.duckdb'), { wait: 5 });
  await Promise.all([
    a.load(
      't',
      Array.from({ length: 500 }, (_, i) => ({ id: i, by: 'a' })),
    ),
    b.load(
      'u',
      Array.from({ length: 500 }, (_, i) => ({ id: i, by: 'b' })),
    ),
    ...Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).query('SELECT 1')),
  ]);
  await a.close();
  expect(
    await b.query('SELECT (SELECT count(*) FROM t)::INTEGER AS t, (SELECT count(*) FROM u)::INTEGER AS u'),
  ).toEqual([{ t: 500, u: 500 }]);
  await b.close();
});

it('a hard link and a dangling symbolic link of one file share its open too: no write of either store is lost', async () => {
  const folder = join(dir, 'links');
  mkdirSync(folder);
  const file = join(folder, 'one.duckdb');
  // The link points at a file nobody made yet (DuckDB makes it, through the link).
  symlinkSync('one.duckdb', join(folder, 'ahead.duckdb'));
  const ahead = new Store(join(folder, 'ahead.duckdb'));
  const direct = new Store(file);
  await Promise.all([ahead.query('CREATE TABLE a (n INTEGER)'), direct.query('CREATE TABLE b (n INTEGER)')]);
  linkSync(file, join(folder, 'hard.duckdb'));
  const hard = new Store(join(folder, 'hard.duckdb'));
  const stores = [ahead, direct, hard];
  await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      stores[i % 3]!.query(`INSERT INTO ${i % 2 ? 'a' : 'b'} SELECT ${i} FROM range(100)`),
    ),
  );
  for (const store of stores) await store.close();
  const after = await openStore(file);
  expect(
    await after.query(
      'SELECT (SELECT count(*) FROM a)::INTEGER AS a, (SELECT count(*) FROM b)::INTEGER AS b',
    ),
  ).toEqual([{ a: 3000, b: 3000 }]);
  await after.close();
});

it("a walk begun through a symbolic link resumes through the file's own name: its rows once", async () => {
  const folder = join(dir, 'resume-names');
  mkdirSync(folder);
  const file = join(folder, 'real.duckdb');
  symlinkSync('real.duckdb', join(folder, 'link.duckdb'));
  function* cut() {
    for (let n = 0; n < 60; n++) yield { n };
    throw new Error('the walk was cut');
  }
  const viaLink = await openStore(join(folder, 'link.duckdb'));
  await expect(viaLink.load('w', cut(), { resume: true, key: false, batchSize: 10 })).rejects.toThrow(
    'the walk was cut',
  );
  await viaLink.close();
  const direct = await openStore(file);
  const all = Array.from({ length: 100 }, (_, n) => ({ n }));
  const result = await direct.load('w', all, { resume: true, key: false, batchSize: 10 });
  expect(result.resumedFrom).toBe(60);
  // Nothing of the walk is left to be moved in again through the link.
  await direct.close();
  const again = await openStore(join(folder, 'link.duckdb'));
  await again.load('w', [], { resume: true, key: false });
  expect(await again.query('SELECT count(*)::INTEGER AS n, count(DISTINCT n)::INTEGER AS d FROM w')).toEqual([
    { n: 100, d: 100 },
  ]);
  await again.close();
});

it('loads that stage different types for one column at once all move in: the column widens', async () => {
  const store = await openStore(join(dir, 'widen.duckdb'));
  // Both walks start (and read the table's columns) before either moves in.
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let waiting = 0;
  async function* records(values: unknown[]) {
    if (++waiting === 2) open();
    await gate;
    for (const [i, level] of values.entries()) yield { n: i, level };
  }
  await Promise.all([
    store.load('levels', records([1, 2, 3]), { key: false }),
    store.load('levels', records(['high', 'low']), { key: false }),
  ]);
  const rows = await store.query('SELECT level FROM levels ORDER BY level');
  expect(rows.map((row) => row.level)).toEqual(['1', '2', '3', 'high', 'low']);
  await store.close();
});

it('a relative path is resolved when the store opens: a chdir later changes nothing', async () => {
  const home = join(dir, 'home');
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(home);
  mkdirSync(elsewhere);
  const child = startChild([faultChild, 'chdir', 'rel.duckdb', elsewhere], process.env, { cwd: home });
  started.push(child);
  expect((await child.exited).code, child.stderr()).toBe(0);
  expect(child.lines).toEqual(['rows 2']);
  expect(readdirSync(elsewhere)).toEqual([]);
  expect(new Store('x.duckdb').path).toBe(join(process.cwd(), 'x.duckdb'));
});

it('odd paths work, resumable loads included; a path DuckDB cannot keep ("?") is refused at once', async () => {
  for (const name of ["it's #1 [a*b] 100% é.duckdb", 'space and, comma;.duckdb']) {
    const folder = join(dir, `odd ${name}`);
    mkdirSync(folder);
    const store = await openStore(join(folder, name));
    await store.load('t', [{ id: 1 }, { id: 2 }]);
    await store.load('t', [{ id: 3 }], { resume: 'more' });
    expect(await store.query('SELECT count(*)::INTEGER AS n FROM t')).toEqual([{ n: 3 }]);
    await store.close();
  }
  expect(() => new Store(join(dir, 'what?.duckdb'))).toThrow(RangeError);
  expect(() => new Store(join(dir, 'a?b', 'x.duckdb'))).toThrow(/cannot keep a store whose path holds "\?"/);
  // A link to such a path is refused when the store opens, before DuckDB writes anything.
  const odd = join(dir, 'q?folder');
  mkdirSync(odd);
  symlinkSync(join(odd, 'x.duckdb'), join(dir, 'to-odd.duckdb'));
  const linked = new Store(join(dir, 'to-odd.duckdb'));
  await expect(linked.query('SELECT 1')).rejects.toThrow(
    /cannot keep a store whose path holds "\?".*which is .*q\?folder/,
  );
  await linked.close();
  expect(readdirSync(odd)).toEqual([]);
  // An in-memory store's loads stage in the temporary folder: one whose path holds "?" is refused.
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = odd;
  try {
    const memory = await openStore();
    await expect(memory.load('t', [{ id: 1 }])).rejects.toThrow(
      /stage their rows in .*q\?folder.*set TMPDIR to another folder/,
    );
    await memory.close();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});

it('a store in a folder this user may not write is read (DuckDB opens it read-only)', async () => {
  const folder = join(dir, 'read-only');
  mkdirSync(folder);
  const store = await openStore(join(folder, 'shared.duckdb'));
  await store.load('t', [{ id: 1 }, { id: 2 }]);
  await store.close();
  // The folder and the file are another user's (this one's, root's): nobody may read, not write.
  chmodSync(folder, 0o755);
  const reader = run([faultChild, 'read', join(folder, 'shared.duckdb')], { uid: 65534, gid: 65534 });
  expect((await reader.exited).code, reader.stderr()).toBe(0);
  expect(reader.lines).toEqual(['rows 2']);
});

it('two users load into in-memory stores, and into one store file: each stages in a folder of its own that others cannot read', async () => {
  const mine = await openStore();
  await mine.load('t', [{ id: 1 }]);
  await mine.close();
  const uid = process.getuid!();
  expect(statSync(join(tmpdir(), `scratchlab-loads-${uid}`)).mode & 0o777).toBe(0o700);
  // A second user (nobody) loads too: its own folder, not ours.
  const other = run([faultChild, 'load'], { uid: 65534, gid: 65534 });
  expect((await other.exited).code, other.stderr()).toBe(0);
  expect(other.lines).toEqual(['loaded 1000']);
  const theirs = join(tmpdir(), 'scratchlab-loads-65534');
  expect(statSync(theirs).uid).toBe(65534);
  expect(statSync(theirs).mode & 0o777).toBe(0o700);

  // And one store file both may write: each stages in a folder of its own beside it.
  const folder = join(dir, 'two-users');
  mkdirSync(folder);
  chmodSync(folder, 0o777);
  const file = join(folder, 'shared.duckdb');
  const store = await openStore(file);
  await store.load('t', [{ id: 1000 }]);
  await store.close();
  chmodSync(file, 0o666);
  const second = run([faultChild, 'load', file], { uid: 65534, gid: 65534 });
  expect((await second.exited).code, second.stderr()).toBe(0);
  expect(second.lines).toEqual(['loaded 1000']);
  expect(readdirSync(`${file}.loads`).sort()).toEqual([`u${uid}`, 'u65534']);
  expect(statSync(join(`${file}.loads`, 'u65534')).mode & 0o777).toBe(0o700);
  const after = await openStore(file);
  expect(await after.query('SELECT count(*)::INTEGER AS n FROM t')).toEqual([{ n: 1001 }]);
  await after.close();

  // A '<file>.loads/' of one user's (the layout before per-user folders) keeps the others out, and says so.
  const old = join(folder, 'old.duckdb');
  copyFileSync(file, old);
  chmodSync(old, 0o666);
  mkdirSync(`${old}.loads`, { mode: 0o755 });
  const refused = run([faultChild, 'load', old], { uid: 65534, gid: 65534 });
  expect((await refused.exited).code, refused.stderr()).toBe(0);
  expect(refused.lines).toEqual([
    `failed loads cannot stage their rows in ${old}.loads: it is not open to this user (a folder of one user's, made before staging folders were per user); its owner may open it to all: chmod 1777 '${old}.loads'`,
  ]);
});

it('a recorder whose file is held for longer than its buffer lasts drops, counts and says so: stored + dropped = received, exit 1', {
  timeout: 60_000,
}, async () => {
  const file = join(dir, 'dropped.duckdb');
  const host = ctx.sandbox.alternateCloudHost;
  const recorder = run([
    cli,
    'record',
    'game-d',
    '--db',
    file,
    '--host',
    host,
    '--contact',
    '@t',
    '--wait',
    '1',
    '--buffer',
    '20',
  ]);
  await recorder.until((line) => line === 'Ctrl-C stops');
  const holder = run([faultChild, 'hold', file]);
  await holder.until((line) => line === 'held');
  const writer = Cloud.alternate('game-d', { host, purpose: 'tests', contact: '@t', username: 'writer-d' });
  for (let i = 1; i <= 50; i++) await writer.setVar('score', i);
  // The buffer holds 20 (a write under way included): 30 were dropped, and counted.
  await recorder.until((line) => /^stored 0 · live 50 · .*DROPPED 30\b/.test(line));
  holder.proc.kill('SIGKILL');
  await holder.exited;
  await recorder.until((line) => /^stored 20 · live 50 /.test(line));
  recorder.proc.kill('SIGINT');
  expect((await recorder.exited).code).toBe(1);
  await writer.disconnect();
  expect(recorder.lines.at(-1)).toMatch(
    new RegExp(
      `^stopped: 30 received sets could NOT be stored in ${file}: 30 dropped while the file stayed busy \\(last error: `,
    ),
  );
  const store = await openStore(file);
  const [row] = await store.query<{ n: number; distinct: number }>(
    'SELECT count(*)::INTEGER AS n, count(DISTINCT value)::INTEGER AS distinct FROM cloud_activity',
  );
  expect(row).toEqual({ n: 20, distinct: 20 });
  await store.close();
});

it('two recorders of one project on one file started together: one records, the other fails naming it; each entry is stored once', {
  timeout: 60_000,
}, async () => {
  const file = join(dir, 'two-recorders.duckdb');
  const project = ctx.sandbox.cloudProjectId;
  const [a, b] = [recordInto(file), recordInto(file)];
  const outcome = await Promise.race([
    a.exited.then(() => ({ lost: a, won: b })),
    b.exited.then(() => ({ lost: b, won: a })),
  ]);
  expect(outcome.lost.stderr()).toMatch(
    new RegExp(
      `RecorderBusyError: project ${project} is already being recorded into table "cloud_activity" of .* by process ${outcome.won.proc.pid}`,
    ),
  );
  await outcome.won.until((line) => line.startsWith('recording '));
  const writer = (await ctx.login(0)).cloud(project);
  for (let i = 1; i <= 20; i++) await writer.setVar('twice', i);
  const store = new Store(file);
  // Every set is in, and its log entry merged with it (the log was read after it).
  const deadline = Date.now() + 30_000;
  const both = async () =>
    (
      await store.query<{ n: number }>(
        "SELECT count(DISTINCT value)::INTEGER AS n FROM cloud_activity WHERE name = 'twice' AND source = 'both'",
      )
    )[0]!.n;
  while ((await both()) < 20) {
    if (Date.now() > deadline)
      throw new Error('the sets were not all stored and merged with the log in 30 s');
    await sleep(100);
  }
  outcome.won.proc.kill('SIGINT');
  await outcome.won.exited;
  const rows = await store.query(
    "SELECT value, count(*)::INTEGER AS n FROM cloud_activity WHERE name = 'twice' GROUP BY 1 ORDER BY value::INTEGER",
  );
  expect(rows).toEqual(Array.from({ length: 20 }, (_, i) => ({ value: String(i + 1), n: 1 })));
  await store.close();
  await writer.disconnect();
});

it('a recorder stopped with SIGSTOP keeps its project: a second fails naming it as stopped; resumed, the first records on', {
  timeout: 60_000,
}, async () => {
  const file = join(dir, 'stopped-recorder.duckdb');
  const project = ctx.sandbox.cloudProjectId;
  const first = recordInto(file);
  await first.until((line) => line.startsWith('recording '));
  first.proc.kill('SIGSTOP');
  // It cannot answer who it is: the second finds it in /proc, and gives up asking (closes its socket).
  const second = recordInto(file);
  expect((await second.exited).code).toBe(1);
  expect(second.stderr()).toMatch(
    new RegExp(`RecorderBusyError: .* by process ${first.proc.pid} \\(.*\\), which is stopped \\(Ctrl-Z`),
  );
  // Resumed, it answers the asker that has gone, and records on.
  first.proc.kill('SIGCONT');
  const seen = first.lines.length;
  const writer = (await ctx.login(0)).cloud(project);
  await writer.setVar('resumed', 1);
  await first.until((line) => line.startsWith('stored ') && first.lines.lastIndexOf(line) >= seen);
  expect(first.proc.exitCode).toBe(null);
  first.proc.kill('SIGKILL');
  await first.exited;
  await writer.disconnect();
});

it("a holder's command line is shown without its control characters (a terminal's escape sequences)", async () => {
  const hostile = '\x1b]0;owned\x07\x1b[2J\nline two';
  const holder = startChild([faultChild, 'hold', 'escapes.duckdb', hostile], process.env, { cwd: dir });
  started.push(holder);
  await holder.until((line) => line === 'held');
  const store = new Store(join(dir, 'escapes.duckdb'), { wait: 0.2 });
  const busy = await store.query('SELECT 1').catch((error: unknown) => error);
  expect(busy).toBeInstanceOf(StoreBusyError);
  expect((busy as StoreBusyError).holder?.command).toMatch(
    / hold escapes\.duckdb \?\]0;owned\?\?\[2J\?line two$/,
  );
  // biome-ignore lint/suspicious/noControlCharactersInRegex: none may reach the message
  expect((busy as Error).message).not.toMatch(/[\u0000-\u001f]/);
  holder.proc.kill('SIGKILL');
  await holder.exited;
  await store.close();
});
