import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir as osTmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonDatabase } from '../../src/databases/json-database.js';
import { waitFor as waitUntil } from '../cloud/support.js';
import { bundleChild } from '../support/bundle-child.js';
import { databaseContract } from '../support/database-contract.js';
import { stateAfter, writesIn } from '../support/json-crash-states.js';

let root: string;
let counter = 0;
const freshPath = () => join(root, `db${++counter}.json`);

beforeAll(async () => {
  root = await mkdtemp(join(osTmpdir(), 'scratchlab-json-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('JsonDatabase', () => {
  databaseContract(() => new JsonDatabase({ path: freshPath() }));

  it('is named after the file unless told otherwise', () => {
    expect(new JsonDatabase({ path: '/x/scores.json' }).name).toBe('scores');
    expect(new JsonDatabase({ path: '/x/archive.db.json' }).name).toBe('archive.db');
    expect(new JsonDatabase({ path: '/x/plain' }).name).toBe('plain');
    expect(new JsonDatabase({ path: '/x/scores.json', name: 'top' }).name).toBe('top');
    expect(new JsonDatabase({ path: 'rel.json' }).path).toBe(join(process.cwd(), 'rel.json'));
  });

  it('refuses bad options', () => {
    expect(() => new JsonDatabase({} as { path: string })).toThrow(/path must be a non-empty string/);
    expect(() => new JsonDatabase({ path: '' })).toThrow(TypeError);
    expect(() => new JsonDatabase(undefined as unknown as { path: string })).toThrow(TypeError);
    expect(() => new JsonDatabase({ path: '/x/a.json', name: '' })).toThrow(RangeError);
  });

  it('persists to a JSON object that a new instance reads back', async () => {
    const path = freshPath();
    const db = new JsonDatabase({ path });
    await db.set('b', '2');
    await db.set('a', 'one\ntwo 😀');
    await db.set('__proto__', 'p');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(
      JSON.parse('{"b":"2","a":"one\\ntwo 😀","__proto__":"p"}'),
    );
    const again = new JsonDatabase({ path });
    expect(await again.get('a')).toBe('one\ntwo 😀');
    expect(await again.get('__proto__')).toBe('p');
    expect(await again.keys()).toEqual(['__proto__', 'a', 'b']);
  });

  it('reads the file lazily, on first use', async () => {
    const path = freshPath();
    const db = new JsonDatabase({ path });
    await writeFile(path, '{"k": "written after construction"}');
    expect(await db.get('k')).toBe('written after construction');
  });

  it('reads a file with a byte order mark', async () => {
    const path = freshPath();
    await writeFile(path, '\ufeff{"k": "v"}');
    expect(await new JsonDatabase({ path }).get('k')).toBe('v');
  });

  it('refuses a broken file on every call and never overwrites it', async () => {
    const cases: [string, RegExp][] = [
      ['{"a": ', /is not valid JSON/],
      ['', /is not valid JSON/],
      ['[1, 2]', /does not hold a JSON object \(found an array\)/],
      ['null', /does not hold a JSON object/],
      ['"text"', /does not hold a JSON object/],
      ['{"a": 1}', /holds a number under "a", not a string/],
      ['{"a": null}', /holds a null under "a"/],
    ];
    for (const [text, message] of cases) {
      const path = freshPath();
      await writeFile(path, text);
      const db = new JsonDatabase({ path });
      await expect(db.get('a')).rejects.toThrow(message);
      await expect(db.set('a', 'new')).rejects.toThrow(message);
      await expect(db.keys()).rejects.toThrow(/never overwritten while broken/);
      expect(await readFile(path, 'utf8')).toBe(text);
      // Once fixed, the same instance reads it: the failure was not cached.
      await writeFile(path, '{"a": "fixed"}');
      expect(await db.get('a')).toBe('fixed');
    }
  });

  it('says so when the path cannot be read', async () => {
    const db = new JsonDatabase({ path: root });
    await expect(db.get('a')).rejects.toThrow(/cannot read .*EISDIR/);
  });

  it('keeps the permission bits of an existing file', async () => {
    const path = freshPath();
    await writeFile(path, '{}');
    await chmod(path, 0o640);
    const db = new JsonDatabase({ path });
    await db.set('a', '1');
    expect((await stat(path)).mode & 0o777).toBe(0o640);
    await chmod(path, 0o604);
    await db.set('a', '2');
    expect((await stat(path)).mode & 0o777).toBe(0o604);
  });

  it('runs concurrent writes one at a time, in call order, all of them durable', async () => {
    const path = freshPath();
    const db = new JsonDatabase({ path });
    await Promise.all(Array.from({ length: 100 }, (_, i) => db.set(`k${i % 10}`, String(i))));
    const expected = Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`k${j}`, String(90 + j)]));
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(expected);
    const names = await readdir(root);
    expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('rejects a failed write alone and leaves the state as before', async () => {
    const dir = join(root, 'vanishing');
    await mkdir(dir);
    const path = join(dir, 'db.json');
    const db = new JsonDatabase({ path });
    await db.set('a', 'before');
    await rm(dir, { recursive: true });
    const failing = db.set('a', 'after');
    const other = db.set('b', 'queued');
    await expect(failing).rejects.toThrow(/ENOENT/);
    await expect(other).rejects.toThrow(/ENOENT/);
    expect(await db.get('a')).toBe('before');
    expect(await db.get('b')).toBeUndefined();
    // The queue goes on: once the directory is back, the next write succeeds from the old state.
    await mkdir(dir);
    await db.set('c', 'later');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ a: 'before', c: 'later' });
  });

  it('leaves the file untouched when a set changes nothing', async () => {
    const path = freshPath();
    const db = new JsonDatabase({ path });
    await db.set('a', '1');
    const before = (await stat(path)).mtimeMs;
    // Until a file written now would get a later time than it (the kernel's clock is coarse).
    const probe = `${path}.probe`;
    await waitUntil(async () => {
      await writeFile(probe, '');
      return (await stat(probe)).mtimeMs > before;
    }, 'a later file time');
    await db.set('a', '1');
    expect((await stat(path)).mtimeMs).toBe(before);
  });
});

describe('JsonDatabase after SIGKILL', () => {
  let child: string;

  beforeAll(async () => {
    child = await bundleChild('json-crash-child', root);
  });

  it('always holds the last reported state or the one being written', async () => {
    const dir = await mkdtemp(join(root, 'crash-'));
    const path = join(dir, 'crash.json');
    let known = 0; // writes known to be in the file
    let totalReported = 0;
    const delays = [15, 40, 80, 120, 160, 200, 260, 320, 400, 500];
    for (const [round, delay] of delays.entries()) {
      const { proc, out, err } = spawnChild(child, [path]);
      // Kill once the child is writing (its first write reported: each write takes the file's
      // lock, slow on a loaded machine), at a moment that varies from round to round.
      await waitFor(() => /start \d+\n\d+\n/.test(out()) || proc.exitCode !== null, 10_000);
      await new Promise((done) => setTimeout(done, delay + Math.random() * 40));
      await kill(proc);
      expect(err(), `round ${round}: the child failed`).toBe('');

      const lines = out()
        .split('\n')
        .filter((line) => line !== '');
      expect(lines[0], `round ${round}`).toBe(`start ${known}`);
      const reported = lines.length > 1 ? Number(lines[lines.length - 1]) : known;
      totalReported += reported - known;

      // Killed before its first write, the child leaves no file: the empty state.
      const text = await readFile(path, 'utf8').catch(() => '{}');
      const state = JSON.parse(text) as Record<string, string>;
      const writes = writesIn(state);
      expect([reported, reported + 1], `round ${round}: file holds ${writes} writes`).toContain(writes);
      expect(state).toEqual(stateAfter(writes));
      known = writes;
    }
    // Every round was killed while writing, after at least one reported write.
    expect(totalReported).toBeGreaterThanOrEqual(delays.length);
  }, 40_000);
});

/** Runs a bundled child with node, collecting what it prints. */
function spawnChild(script: string, args: string[]) {
  const proc = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  proc.stderr!.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => proc.once('close', (code) => done(code)));
  return { proc, exited, out: () => out, err: () => err };
}

function waitFor(check: () => boolean, timeout: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      if (check()) resolve();
      else if (Date.now() - started > timeout) reject(new Error('timed out waiting for the child'));
      else setTimeout(poll, 2);
    };
    poll();
  });
}

function kill(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    // Wait for 'close' so every byte the child printed before dying has been read.
    proc.once('close', () => resolve());
    proc.kill('SIGKILL');
  });
}

describe('JsonDatabase with several writers on one file', () => {
  let child: string;

  beforeAll(async () => {
    child = await bundleChild('json-writer-child', root);
  });

  const run = (path: string, prefix: string, count: number) =>
    spawnChild(child, [path, prefix, String(count)]);

  it('two processes writing 1,000 keys each lose none of them', async () => {
    const path = freshPath();
    const a = run(path, 'a', 1000);
    const b = run(path, 'b', 1000);
    expect([await a.exited, await b.exited]).toEqual([0, 0]);
    expect(a.err() + b.err()).toBe('');
    const state = JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
    expect(Object.keys(state).length).toBe(2000);
    for (let i = 0; i < 1000; i++) {
      expect(state[`a${i}`]).toBe(String(i));
      expect(state[`b${i}`]).toBe(String(i));
    }
    // No lock or temporary file is left behind.
    expect(
      (await readdir(root)).filter(
        (name) => name.includes(path.split('/').pop()!) && name !== path.split('/').pop(),
      ),
    ).toEqual([]);
  }, 120_000);

  it("writers that find a dead holder's lock at once take it over once, and lose nothing", async () => {
    const path = freshPath();
    for (let round = 0; round < 3; round++) {
      // A lock left by a killed holder, found by four writers starting together.
      const holder = run(path, 'hold', 0);
      await waitFor(() => holder.out().includes('locked') || holder.proc.exitCode !== null, 10_000);
      await kill(holder.proc);
      const writers = ['a', 'b', 'c', 'd'].map((name) => run(path, `${name}${round}-`, 50));
      expect(await Promise.all(writers.map((w) => w.exited))).toEqual([0, 0, 0, 0]);
      expect(writers.map((w) => w.err()).join('')).toBe('');
    }
    const state = JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
    expect(Object.keys(state).length).toBe(3 * 4 * 50);
  }, 120_000);

  it("two instances in one process lose nothing, and each sees the other's writes", async () => {
    const path = freshPath();
    const one = new JsonDatabase({ path });
    const two = new JsonDatabase({ path });
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? one : two).set(`k${i}`, String(i))),
    );
    expect((await one.keys()).length).toBe(200);
    expect(await two.get('k0')).toBe('0');
    expect(await one.get('k199')).toBe('199');
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8'))).length).toBe(200);
  });

  it("a writer that cannot get the lock fails naming the holder; a dead holder's lock is taken over", async () => {
    const path = freshPath();
    const holder = run(path, 'hold', 0);
    await waitFor(() => holder.out().includes('locked') || holder.proc.exitCode !== null, 10_000);
    const db = new JsonDatabase({ path, lockTimeout: 300 });
    const error = await db.set('k', 'v').catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`is locked by pid ${holder.proc.pid} on host ${hostname()}`);
    expect((error as Error).message).toMatch(/gave up after 300 ms/);
    expect(await db.get('k')).toBeUndefined();
    // Killed while holding the lock: its lock folder stays, but its process is gone.
    await kill(holder.proc);
    expect((await readdir(root)).some((name) => name === `${path.split('/').pop()}.lock`)).toBe(true);
    await db.set('k', 'v');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ k: 'v' });
  }, 30_000);

  it('takes over a lock folder left without its holder (a writer killed right after locking)', async () => {
    const path = freshPath();
    const lock = `${path}.lock`;
    await mkdir(lock);
    const db = new JsonDatabase({ path, lockTimeout: 1000 });
    // Fresh, it may be a writer about to name itself: waited for, then the wait gives up.
    expect(await db.set('k', 'v').catch((e: Error) => e.message)).toMatch(/gave up after 1000 ms/);
    // Older than the grace period and still without a holder: orphaned, removed, written.
    const past = new Date(Date.now() - 5000);
    await utimes(lock, past, past);
    await db.set('k', 'v');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ k: 'v' });
  });

  it('refuses a bad lockTimeout', () => {
    expect(() => new JsonDatabase({ path: '/x/a.json', lockTimeout: -1 })).toThrow(RangeError);
  });
});
