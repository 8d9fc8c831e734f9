/**
 * `store.recordCloud()` against the sandbox: live sets and the log merged into one row per
 * change, a recorder restarted on the same file (the changes made while it was away come back
 * from the log, nothing twice), and a sandbox restart under a live-only recorder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { openStore, type Store } from '../../src/data/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { bundleChild, projectTempDir } from '../support/bundle-child.js';
import { startChild } from '../support/child-lines.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scratchlab-recorder-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rowsOf = (store: Store, name: string) =>
  store.query(
    `select value, "user", source from cloud_activity where name = $1 order by "timestamp", received`,
    [name],
  );

it('merges live sets with their log entries, and a restarted recorder fills its gap from the log', async () => {
  const file = join(dir, 'history.duckdb');
  const project = ctx.sandbox.cloudProjectId;
  const writerSession = await ctx.login(0);
  const writerName = ctx.sandbox.accounts[0]!.username;
  const writer = writerSession.cloud(project);
  const readerSession = await ctx.login(1);

  // First run: the seeded history comes in from the log, then live sets merge with their entries.
  let store = await openStore(file);
  let recorder = await store.recordCloud(readerSession.cloud(project), { interval: 0.1 });
  const seeded = recorder.counts.fromLog;
  expect(seeded).toBeGreaterThan(1000);
  for (let i = 1; i <= 5; i++) await writer.setVar('recorded', i);
  await waitUntil(
    async () => (await rowsOf(store, 'recorded')).filter((r) => r.source === 'both').length === 5,
  );
  // Whichever came first, the live event or the log's entry, each change is one row.
  expect(recorder.counts).toMatchObject({ live: 5, merged: 5, stored: seeded + 5 });
  expect(String(recorder)).toMatch(
    /stored \d+ · live 5 · log \d+ · merged 5 · reconnects 0 · last recorded=5/,
  );
  await recorder.stop();
  await store.close();

  // Away: three more sets nobody records.
  for (let i = 6; i <= 8; i++) await writer.setVar('recorded', i);

  // Second run on the same file: the gap comes from the log, the current value is not doubled.
  store = await openStore(file);
  recorder = await store.recordCloud(readerSession.cloud(project), { interval: 0.1 });
  for (let i = 9; i <= 10; i++) await writer.setVar('recorded', i);
  await waitUntil(async () => (await rowsOf(store, 'recorded')).length === 10 && recorder.counts.merged >= 3);
  await waitUntil(async () =>
    (await rowsOf(store, 'recorded')).every((r) => r.source === 'both' || r.source === 'log'),
  );
  const rows = await rowsOf(store, 'recorded');
  expect(rows.map((r) => r.value)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  expect(rows.every((r) => r.user === writerName)).toBe(true);
  // 6 and 7 only the log saw; 8 was noticed on reconnect and matched to its entry; 9 and 10 both.
  expect(rows.map((r) => r.source)).toEqual([
    'both',
    'both',
    'both',
    'both',
    'both',
    'log',
    'log',
    'both',
    'both',
    'both',
  ]);
  // Nothing of the seeded history was stored twice.
  const [{ n, distinct }] = (await store.query(
    `select count(*) as n, count(distinct ("timestamp", "user", verb, name, value)) as distinct from cloud_activity where source = 'log'`,
  )) as unknown as [{ n: number; distinct: number }];
  expect(n).toBe(distinct);
  await recorder.stop();
  await store.close();
  await writer.disconnect();
});

it('records live sets across a sandbox restart (a host without a log), each once', async () => {
  let sandbox: Sandbox = await startSandbox();
  const port = sandbox.port;
  const connect = (name: string) =>
    Cloud.alternate('recorder-restart', {
      purpose: 'recorder test',
      contact: '@tester',
      host: sandbox.alternateCloudHost,
      username: name,
      reconnectDelay: 0.05,
    });
  const store = await openStore(join(dir, 'live.duckdb'));
  const cloud = connect('recorder');
  const recorder = await store.recordCloud(cloud);
  expect(recorder.counts.logs).toBe(false);
  const writer = connect('writer');
  for (let i = 1; i <= 3; i++) await writer.setVar('live', i);
  await waitUntil(async () => (await rowsOf(store, 'live')).length === 3);
  // The writer is not under test: it leaves before the restart, after the server has read its
  // sets (disconnect() closes so), so that it has none to send again after a drop (it would, for
  // 2 s, to a server that restarted without its values). Its next set connects it again.
  await writer.disconnect();
  await sandbox.close();
  sandbox = await startSandbox({ port });
  // Sets made before the recorder is back would reach it only as the latest value per variable
  // (a host without a log cannot tell more): the writer goes on once the recorder has reconnected.
  await waitUntil(async () => recorder.counts.reconnects === 1);
  for (let i = 4; i <= 6; i++) await writer.setVar('live', i);
  await waitUntil(async () => (await rowsOf(store, 'live')).length >= 6);
  await recorder.stop();
  const rows = await rowsOf(store, 'live');
  expect(rows.map((r) => `${r.value} ${r.source}`)).toEqual([
    '1 live',
    '2 live',
    '3 live',
    '4 live',
    '5 live',
    '6 live',
  ]);
  expect(recorder.counts.reconnects).toBe(1);
  await Promise.all([writer.disconnect(), cloud.disconnect()]);
  await store.close();
  await sandbox.close();
});

it('starts again after stop() without leaking listeners or timers, and stores what came after', async () => {
  const connect = (name: string) =>
    Cloud.alternate('recorder-again', {
      purpose: 'recorder test',
      contact: '@tester',
      host: ctx.sandbox.alternateCloudHost,
      username: name,
    });
  const store = await openStore(join(dir, 'again.duckdb'));
  const cloud = connect('recorder');
  const writer = connect('writer');
  const recorder = await store.recordCloud(cloud);
  await writer.setVar('again', 1);
  await waitUntil(async () => (await rowsOf(store, 'again')).length === 1);
  await recorder.stop();
  expect(recorder.running).toBe(false);
  expect(cloud.listenerCount('set')).toBe(0);
  expect(cloud.state).toBe('idle'); // stop() closed the connection its start had opened
  await writer.setVar('again', 2); // while stopped: no event reaches the recorder (a host without a log)
  await recorder.start();
  expect(recorder.running).toBe(true);
  expect(cloud.listenerCount('set')).toBe(1);
  await writer.setVar('again', 3);
  await waitUntil(async () => (await rowsOf(store, 'again')).length === 3);
  // The handshake of the new connection shows 2, which changed while it was away: a resync row.
  expect((await rowsOf(store, 'again')).map((r) => `${r.value} ${r.source}`)).toEqual([
    '1 live',
    '2 resync',
    '3 live',
  ]);
  // close() stops it; nothing is left to write.
  expect(await store.close()).toBe(0);
  expect(recorder.running).toBe(false);
  expect(cloud.listenerCount('set')).toBe(0);
  await Promise.all([writer.disconnect(), cloud.disconnect()]);
});

it('two start() calls at once are one start: after stop() the log is read no more', async () => {
  const session = await ctx.login(1);
  const cloud = session.cloud(ctx.sandbox.cloudProjectId);
  const store = await openStore(join(dir, 'twice.duckdb'));
  const recorder = await store.recordCloud(cloud, { interval: 0.1 });
  await recorder.stop();
  const reads = countReads(cloud);
  await Promise.all([recorder.start(), recorder.start()]);
  await waitUntil(async () => reads.count >= 2);
  await recorder.stop();
  const atStop = reads.count;
  // A recorder of the same project at the same interval, started after the stop: by its third
  // read, a loop left running would have read again too.
  const witness = session.cloud(ctx.sandbox.cloudProjectId);
  const witnessReads = countReads(witness);
  const other = await store.recordCloud(witness, { interval: 0.1 });
  await waitUntil(async () => witnessReads.count >= 3);
  await other.stop();
  expect(reads.count).toBe(atStop);
  expect(await store.close()).toBe(0);
  await Promise.all([cloud.disconnect(), witness.disconnect()]);
});

it('a store closed while a recorder starts stops that recorder once it has started', async () => {
  const cloud = Cloud.alternate('recorder-closing', {
    purpose: 'recorder test',
    contact: '@tester',
    host: ctx.sandbox.alternateCloudHost,
    username: 'closing',
  });
  const store = await openStore(join(dir, 'closing.duckdb'));
  const starting = store.recordCloud(cloud);
  // Closed once the recorder is the store's and its start is under way (the cloud not open yet).
  for (let turns = 0; store.recorders.length === 0; turns++) {
    if (turns > 10_000) throw new Error('the recorder never became the store’s');
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(cloud.state).not.toBe('open');
  expect(await store.close()).toBe(0);
  const recorder = await starting;
  expect(recorder.running).toBe(false);
  expect(cloud.listenerCount('set')).toBe(0);
  await cloud.disconnect();
});

it('stop() disconnects a cloud the recorder connected, and leaves one its caller connected', async () => {
  const session = await ctx.login(1);
  const store = await openStore(join(dir, 'owned.duckdb'));
  const own = session.cloud(ctx.sandbox.cloudProjectId);
  const recorder = await store.recordCloud(own, { logs: false });
  expect(own.state).toBe('open');
  await recorder.stop();
  expect(own.state).toBe('idle');
  // Started again, it connects again, and its next stop closes it again.
  await recorder.start();
  expect(own.state).toBe('open');
  expect(await store.close()).toBe(0);
  expect(own.state).toBe('idle');

  const again = await openStore(join(dir, 'owned.duckdb'));
  const shared = session.cloud(ctx.sandbox.cloudProjectId);
  await shared.connect();
  const second = await again.recordCloud(shared, { logs: false });
  await second.stop();
  expect(shared.state).toBe('open');
  await again.close();
  expect(shared.state).toBe('open');
  await shared.disconnect();
});

it('one recorder per project and table of an in-memory store too: a second fails, another store may record it', async () => {
  const session = await ctx.login(1);
  const project = ctx.sandbox.cloudProjectId;
  const memory = await openStore();
  const other = await openStore();
  await memory.recordCloud(session.cloud(project), { logs: false });
  await expect(memory.recordCloud(session.cloud(project), { logs: false })).rejects.toThrow(
    new RegExp(
      `^project ${project} is already being recorded into table "cloud_activity" of in-memory store \\d+ of process ${process.pid} by process ${process.pid}`,
    ),
  );
  await other.recordCloud(session.cloud(project), { logs: false });
  const writer = (await ctx.login(0)).cloud(project);
  await writer.setVar('in memory', 3);
  for (const store of [memory, other]) {
    const deadline = Date.now() + 10_000;
    const rows = () => store.query("select value from cloud_activity where name = 'in memory'");
    while ((await rows()).length === 0) {
      if (Date.now() > deadline) throw new Error('the set was not stored in 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await rows()).toEqual([{ value: '3' }]);
    expect(await store.close()).toBe(0);
  }
  await writer.disconnect();
});

it('two recorders of one cloud (two stores): the first to stop leaves it connected for the other, the last closes it', async () => {
  const session = await ctx.login(1);
  const project = ctx.sandbox.cloudProjectId;
  const file = await openStore(join(dir, 'two-of-one-cloud.duckdb'));
  const memory = await openStore();
  const cloud = session.cloud(project);
  const first = await file.recordCloud(cloud, { logs: false });
  const second = await memory.recordCloud(cloud, { logs: false });
  await first.stop();
  expect(cloud.state).toBe('open');
  const writer = (await ctx.login(0)).cloud(project);
  await writer.setVar('shared', 5);
  const deadline = Date.now() + 10_000;
  while (second.counts.stored === 0) {
    if (Date.now() > deadline)
      throw new Error(`the second recorder stored nothing: ${second}, cloud ${cloud.state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await memory.query("select value from cloud_activity where name = 'shared'")).toEqual([
    { value: '5' },
  ]);
  expect(await memory.close()).toBe(0);
  expect(cloud.state).toBe('idle');
  expect(await file.close()).toBe(0);
  await writer.disconnect();
});

it("the README's recorder example ends by itself: stop() closed the recorder's connection", {
  timeout: 90_000,
}, async () => {
  const temp = projectTempDir('recorder-exit-');
  try {
    const [account] = ctx.sandbox.accounts;
    const child = startChild(
      [
        await bundleChild('recorder-exit-child', temp, ['@duckdb/node-api']),
        join(temp, 'history.duckdb'),
        String(ctx.sandbox.cloudProjectId),
      ],
      {
        ...process.env,
        SANDBOX_HOSTS: JSON.stringify(ctx.sandbox.hosts),
        SANDBOX_USER: account!.username,
        SANDBOX_PASSWORD: account!.password,
      },
    );
    // A bound on the wait, not a timed assertion: before, the process never ended (two clouds reconnecting).
    const ended = await Promise.race([
      child.exited,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 60_000).unref()),
    ]);
    if (ended === 'still running') child.proc.kill('SIGKILL');
    expect(ended, child.stderr()).toEqual({ code: 0, signal: null });
    expect(child.lines).toEqual(['stopped idle']);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
});

/** Counts the reads of a cloud's log from now on (the real `logs`, called through). */
function countReads(cloud: Cloud): { count: number } {
  const logs = cloud.logs.bind(cloud);
  const reads = { count: 0 };
  cloud.logs = ((options) => {
    reads.count++;
    return logs(options);
  }) as typeof cloud.logs;
  return reads;
}

/** Waits until an async check holds (a safety bound, not an assertion). */
async function waitUntil(check: () => Promise<boolean>, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the recorder');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
