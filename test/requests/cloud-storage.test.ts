/**
 * CloudStorage end to end over the sandbox's platform cloud: a project simulator calls get, set,
 * keys, database_names and ping against a MemoryDatabase and a JsonDatabase.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../src/cloud/cloud.js';
import {
  type CloudRequestError,
  type CloudResponseEvent,
  CloudStorage,
  PING_ANSWER,
  type RequestContext,
} from '../../src/cloud/requests/index.js';
import type { Database } from '../../src/databases/database.js';
import { JsonDatabase } from '../../src/databases/json-database.js';
import { MemoryDatabase } from '../../src/databases/memory-database.js';
import { ProjectSimulator } from '../support/project-simulator.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox({ cloudRateLimits: false });
const RATE = 0.02;

let dir: string;
let hostCloud: Cloud;
let simCloud: Cloud;
let storage: CloudStorage;
let project: ProjectSimulator;
let scores: MemoryDatabase;
let saves: JsonDatabase;
const errors: Error[] = [];
const requests: RequestContext[] = [];
const unknown: RequestContext[] = [];

/** A database whose every call fails like a broken disk. */
const broken: Database = {
  name: 'broken',
  get: async () => {
    throw new Error('disk on fire');
  },
  set: async () => {
    throw new Error('disk on fire');
  },
  keys: async () => {
    throw new Error('disk on fire');
  },
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scratchlab-storage-'));
  scores = new MemoryDatabase({ name: 'scores' });
  saves = new JsonDatabase({ path: join(dir, 'saves.json') });
  hostCloud = (await ctx.login(0)).cloud(ctx.sandbox.cloudProjectId, { rateLimit: RATE });
  storage = hostCloud.storage({ databases: [scores], lookupRequester: false });
  expect(storage).toBeInstanceOf(CloudStorage);
  storage.addDatabase(saves).addDatabase(broken);
  storage.on('error', (e) => errors.push(e));
  storage.on('request', (e) => requests.push(e));
  storage.on('unknownRequest', (e) => unknown.push(e));
  await storage.start();
  simCloud = (await ctx.login(1)).cloud(ctx.sandbox.cloudProjectId, { rateLimit: RATE });
  project = await new ProjectSimulator(simCloud).start();
});

afterAll(async () => {
  await storage?.stop();
  await project?.stop();
  await hostCloud?.disconnect();
  await rm(dir, { recursive: true, force: true });
});

describe('CloudStorage', () => {
  it('answers ping and database_names', async () => {
    expect((await project.request('ping')).text()).toBe(PING_ANSWER);
    expect((await project.request('database_names')).list()).toEqual(['scores', 'saves', 'broken']);
    expect(storage.databaseNames).toEqual(['scores', 'saves', 'broken']);
  });

  it('sets and gets in a MemoryDatabase; a missing key answers ""', async () => {
    expect((await project.request('get', ['scores', 'alice'])).text()).toBe('-'); // "" travels as "-"
    const set = await project.request('set', ['scores', 'alice', '1200']);
    expect(set.text()).toBe('1200');
    expect(await scores.get('alice')).toBe('1200');
    expect((await project.request('get', ['scores', 'alice'])).text()).toBe('1200');
    await project.request('set', ['scores', 'bob', '900']);
    expect((await project.request('keys', ['scores'])).list()).toEqual(['alice', 'bob']);
  });

  it('sets and gets in a JsonDatabase, which writes its file', async () => {
    expect((await project.request('set', ['saves', 'level', 'World 3'])).text()).toBe('World 3');
    expect((await project.request('get', ['saves', 'level'])).text()).toBe('World 3');
    expect(JSON.parse(await readFile(join(dir, 'saves.json'), 'utf8'))).toEqual({ level: 'World 3' });
    expect((await project.request('keys', ['saves'])).list()).toEqual(['level']);
    expect(storage.getDatabase('saves')).toBe(saves);
  });

  it('keeps a value holding "&" whole, and stores an empty value', async () => {
    expect((await project.request('set', ['scores', 'pair', 'a&b&c'])).text()).toBe('a&b&c');
    expect(await scores.get('pair')).toBe('a&b&c');
    expect((await project.request('set', ['scores', 'blank', ''])).text()).toBe('-');
    expect(await scores.get('blank')).toBe('');
  });

  it("answers the project's mistakes with readable errors and no error event", async () => {
    const before = errors.length;
    expect((await project.request('get', ['nowhere', 'k'])).text()).toBe(
      'Error: unknown database "nowhere" (databases: scores, saves, broken)',
    );
    expect((await project.request('get', ['scores'])).text()).toBe(
      'Error: get(database, key) needs 2 arguments, got 1',
    );
    expect((await project.request('set', ['scores', 'k'])).text()).toMatch(
      /^Error: set\(database, key, value\) needs 3/,
    );
    expect((await project.request('keys')).text()).toBe('Error: keys(database) needs 1 argument, got 0');
    expect((await project.request('get', ['scores', ''])).text()).toMatch(
      /^Error: MemoryDatabase.get: key must not be empty/,
    );
    expect((await project.request('set', ['scores', 'k'.repeat(300), 'v'])).text()).toMatch(
      /key is 300 characters long/,
    );
    expect(errors.length).toBe(before);
  });

  it('answers a failing database with an error and reports it', async () => {
    const before = errors.length;
    expect((await project.request('get', ['broken', 'k'])).text()).toBe('Error: disk on fire');
    expect(errors.length).toBe(before + 1);
    expect((errors.at(-1) as CloudRequestError).kind).toBe('handler');
    expect((await project.request('ping')).text()).toBe(PING_ANSWER);
  });

  it('forwards request and unknownRequest events', async () => {
    await project.request('drop_table', ['scores']);
    expect(unknown.at(-1)).toMatchObject({ name: 'drop_table', args: ['scores'] });
    expect(requests.some((r) => r.name === 'ping')).toBe(true);
  });

  it('answers long values and lists over several packets', async () => {
    const value = 'x'.repeat(400);
    expect((await project.request('set', ['saves', 'big', value])).text()).toBe(value);
    const got = await project.request('get', ['saves', 'big']);
    expect(got.packets.length).toBe(4);
    expect(got.text()).toBe(value);
  });
});

describe('CloudStorage arguments', () => {
  it('refuses bad databases', () => {
    expect(() => storage.addDatabase(scores)).toThrow(/already served/);
    expect(() => storage.addDatabase({} as Database)).toThrow(TypeError);
    expect(() => storage.addDatabase({ ...broken, name: '' })).toThrow(TypeError);
    expect(() => storage.addDatabase({ ...broken, name: 'a&b' })).toThrow(RangeError);
    expect(() => new CloudStorage(hostCloud, { databases: 'x' as unknown as Database[] })).toThrow(TypeError);
    expect(() => new CloudStorage(hostCloud, null as unknown as object)).toThrow(TypeError);
  });

  it('removes a database', async () => {
    const extra = new MemoryDatabase({ name: 'extra' });
    storage.addDatabase(extra);
    expect(storage.removeDatabase('extra')).toBe(true);
    expect(storage.removeDatabase('extra')).toBe(false);
    expect(storage.getDatabase('extra')).toBeUndefined();
  });
});

describe('CloudStorage, exactly', () => {
  /** A database that refuses every key as an adapter does: TypeError on get and keys, RangeError on set. */
  const picky: Database = {
    name: 'picky',
    get: async () => {
      throw new TypeError('picky.get: no such key shape');
    },
    set: async () => {
      throw new RangeError('picky.set: value out of range');
    },
    keys: async () => {
      throw new TypeError('picky.keys: not today');
    },
  };
  const responses: CloudResponseEvent[] = [];

  beforeAll(() => {
    storage.addDatabase(picky);
    storage.on('response', (e) => responses.push(e));
  });

  afterAll(() => {
    storage.removeDatabase('picky');
  });

  it('serves no database until one is added, and forwards all four events (a store built here)', async () => {
    // Built inside the test, so that a mutation tool counts its construction as this test's.
    const empty = new CloudStorage(hostCloud, {
      requestVar: 'STORE_IN',
      usedCloudVars: ['STORE_OUT'],
      lookupRequester: false,
    });
    const events: string[] = [];
    let rid = '';
    empty.on('request', (e) => events.push(`request ${e.name}`));
    empty.on('unknownRequest', (e) => events.push(`unknownRequest ${e.name}`));
    empty.on('response', (e) => events.push(`response ${e.name} ${e.failed}`));
    empty.on('error', (e) => events.push(`error ${e.message}`));
    expect(empty.running).toBe(false);
    await empty.start();
    expect(empty.running).toBe(true);
    const sim = await new ProjectSimulator(simCloud, {
      requestVar: 'STORE_IN',
      responseVars: ['STORE_OUT'],
    }).start();
    try {
      expect(empty.databaseNames).toEqual([]);
      expect((await sim.request('database_names')).list()).toEqual([]);
      expect((await sim.request('get', ['scores', 'alice'])).text()).toBe(
        'Error: unknown database "scores" (none is served)',
      );
      expect((await sim.request('keys', ['scores'])).text()).toBe(
        'Error: unknown database "scores" (none is served)',
      );
      empty.addDatabase(new MemoryDatabase({ name: 'late' })).addDatabase({ ...broken, name: 'bad' });
      expect((await sim.request('set', ['late', 'k', 'v&w'])).text()).toBe('v&w');
      expect((await sim.request('get', ['late', 'k'])).text()).toBe('v&w');
      expect((await sim.request('get', ['late', 'none'])).text()).toBe('-');
      expect((await sim.request('keys', ['late'])).list()).toEqual(['k']);
      expect((await sim.request('database_names')).list()).toEqual(['late', 'bad']);
      expect((await sim.request('ping')).text()).toBe('pong');
      expect((await sim.request('drop', ['late'])).text()).toBe('Error: unknown request "drop"');
      const failed = await sim.request('keys', ['bad']);
      expect(failed.text()).toBe('Error: disk on fire');
      rid = failed.rid;
      await empty.idle();
    } finally {
      await empty.stop();
      await sim.stop();
    }
    expect(empty.running).toBe(false);
    expect(events).toEqual([
      ...['database_names', 'get', 'keys', 'set', 'get', 'get', 'keys', 'database_names', 'ping'].flatMap(
        (name) => [`request ${name}`, `response ${name} false`],
      ),
      'request drop',
      'unknownRequest drop',
      'response drop true',
      'request keys',
      `error request "keys" (rid ${rid}) failed: disk on fire`,
      'response keys true',
    ]);
  });

  it('counts the arguments each request needs, in its exact words', async () => {
    expect((await project.request('get')).text()).toBe('Error: get(database, key) needs 2 arguments, got 0');
    expect((await project.request('set', ['scores', 'k'])).text()).toBe(
      'Error: set(database, key, value) needs 3 arguments, got 2',
    );
    expect((await project.request('set', ['scores'])).text()).toBe(
      'Error: set(database, key, value) needs 3 arguments, got 1',
    );
  });

  it('rejoins a key holding "&" for get, and a database name for keys', async () => {
    await scores.set('x&y', 'joined');
    expect((await project.request('get', ['scores', 'x', 'y'])).text()).toBe('joined');
    expect(await scores.get('x')).toBeUndefined();
    expect((await project.request('keys', ['sco', 'res'])).text()).toBe(
      'Error: unknown database "sco&res" (databases: scores, saves, broken, picky)',
    );
  });

  it("answers an adapter's TypeError and RangeError as the project's mistake, with no error event", async () => {
    const before = errors.length;
    expect((await project.request('get', ['picky', 'k'])).text()).toBe('Error: picky.get: no such key shape');
    expect((await project.request('set', ['picky', 'k', 'v'])).text()).toBe(
      'Error: picky.set: value out of range',
    );
    expect((await project.request('keys', ['picky'])).text()).toBe('Error: picky.keys: not today');
    expect(errors.length).toBe(before);
  });

  it('forwards the response event of each answer, failed or not', async () => {
    const ok = await project.request('get', ['scores', 'alice']);
    const bad = await project.request('get', ['broken', 'k']);
    const idle = storage.idle();
    expect(idle).toBeInstanceOf(Promise);
    await idle;
    expect(storage.requests.inFlight).toBe(0);
    expect(responses.find((r) => r.requestId === ok.rid)).toMatchObject({
      name: 'get',
      failed: false,
      packets: 1,
      digits: ok.digits.length,
    });
    expect(responses.find((r) => r.requestId === bad.rid)).toMatchObject({
      name: 'get',
      failed: true,
      digits: bad.digits.length,
    });
    expect(bad.text()).toBe('Error: disk on fire');
  });
});
