import { describe, expect, it } from 'vitest';
import { CloudStorage, PING_ANSWER } from '../../src/cloud/requests/cloud-storage.js';
import { CloudRequests } from '../../src/cloud/requests/index.js';
import { MemoryDatabase } from '../../src/databases/memory-database.js';
import { refusal } from '../support/refusals.js';
import { cloudWith } from '../support/unconnected-cloud.js';

// The checks of a request host's cloud and options, each refusal with its exact class and
// message (the hosts at work are in cloud-requests.test.ts and lifecycle.test.ts).
describe('a request host', () => {
  it('takes only a cloud with setVar and on', () => {
    const message = 'TypeError: cloud must be a Cloud (an object with setVar, on and off)';
    expect(refusal(() => new CloudRequests(null as never))).toBe(message);
    expect(refusal(() => new CloudRequests('cloud' as never))).toBe(message);
    expect(refusal(() => new CloudRequests(cloudWith({ setVar: 1 as never })))).toBe(message);
    expect(refusal(() => new CloudRequests(cloudWith({ on: undefined as never })))).toBe(message);
    expect(refusal(() => new CloudRequests(cloudWith()))).toBe('accepted');
  });

  it('checks its options and variable names', () => {
    const cloud = cloudWith();
    const options = 'TypeError: options must be an object like { requestVar, usedCloudVars }';
    expect(refusal(() => new CloudRequests(cloud, null as never))).toBe(options);
    expect(refusal(() => new CloudRequests(cloud, 'x' as never))).toBe(options);
    expect(refusal(() => new CloudRequests(cloud, [] as never))).toBe(options);
    expect(refusal(() => new CloudRequests(cloud, { usedCloudVars: 'A' as never }))).toBe(
      'TypeError: options.usedCloudVars must be an array of variable names',
    );
    expect(refusal(() => new CloudRequests(cloud, { usedCloudVars: [] }))).toBe(
      'RangeError: options.usedCloudVars must name at least one variable',
    );
    expect(refusal(() => new CloudRequests(cloud, { usedCloudVars: ['A', '☁ TO_HOST'] }))).toBe(
      'RangeError: options.usedCloudVars must not include the request variable "TO_HOST"',
    );
    expect(refusal(() => new CloudRequests(cloud, { usedCloudVars: ['A', 'B', '☁ A'] }))).toBe(
      'RangeError: options.usedCloudVars names "A" twice',
    );
    expect(refusal(() => new CloudRequests(cloud, { usedCloudVars: ['A', 5 as never] }))).toBe(
      'TypeError: options.usedCloudVars[1] must be a string, got 5',
    );
    expect(refusal(() => new CloudRequests(cloud, { requestVar: '' }))).toBe(
      'RangeError: options.requestVar must not be empty (the "☁ " prefix is added for you)',
    );
    const host = new CloudRequests(cloud, { requestVar: '☁ ASK', usedCloudVars: ['☁ A', 'B'] });
    expect([
      host.requestVar,
      host.usedCloudVars,
      host.lossless,
      host.handlerTimeout,
      host.lookupRequester,
    ]).toEqual(['ASK', ['A', 'B'], false, 8, false]);
    expect(Object.isFrozen(host.usedCloudVars)).toBe(true);
    const defaults = new CloudRequests(cloudWith({ isPlatform: true }));
    expect([defaults.requestVar, defaults.usedCloudVars.join(','), defaults.lookupRequester]).toEqual([
      'TO_HOST',
      'FROM_HOST_1,FROM_HOST_2,FROM_HOST_3,FROM_HOST_4,FROM_HOST_5,FROM_HOST_6,FROM_HOST_7,FROM_HOST_8,FROM_HOST_9',
      true,
    ]);
    expect(refusal(() => new CloudRequests(cloud, { lossless: 1 as never }))).toBe(
      'TypeError: options.lossless must be a boolean, got 1',
    );
    expect(refusal(() => new CloudRequests(cloud, { handlerTimeout: -1 }))).toBe(
      'RangeError: options.handlerTimeout must be a finite number of seconds, at least 0, got -1',
    );
    expect(refusal(() => new CloudRequests(cloud, { requesterTimeout: 3_000_000 }))).toBe(
      'RangeError: options.requesterTimeout must be at most 2147483 seconds (about 24.8 days, the longest wait a timer keeps), got 3000000',
    );
  });

  it('needs a length limit that fits a packet: a push id, its overhead and one digit', () => {
    // A push id is 13 characters (9 of prefix, 4 more), a packet's overhead 6: 20 at least.
    expect(refusal(() => new CloudRequests(cloudWith({ lengthLimit: 20 })))).toBe('accepted');
    expect(refusal(() => new CloudRequests(cloudWith({ lengthLimit: 19 })))).toBe(
      "RangeError: the cloud's lengthLimit (19) must be at least 20 to fit a packet",
    );
    expect(refusal(() => new CloudRequests(cloudWith({ lengthLimit: 20.5 })))).toBe(
      "RangeError: the cloud's lengthLimit (20.5) must be at least 20 to fit a packet",
    );
    expect(refusal(() => new CloudRequests(cloudWith({ lengthLimit: '256' as never })))).toBe(
      "RangeError: the cloud's lengthLimit (256) must be at least 20 to fit a packet",
    );
  });

  it('refuses a handler that is no function, and a name the encoding cannot spell', () => {
    const host = new CloudRequests(cloudWith());
    expect(refusal(() => host.request('greet', 'hi' as never))).toBe(
      'TypeError: the handler of request "greet" must be a function, got string',
    );
    expect(refusal(() => host.request('grüße', () => 1))).toBe(
      `RangeError: request name "grüße" has characters the project's encoding cannot spell (it would arrive differently); use the characters of the table, or the lossless option`,
    );
    const lossless = new CloudRequests(cloudWith(), { lossless: true });
    expect(refusal(() => lossless.request('grüße', () => 1))).toBe('accepted');
    expect(host.request('greet', () => 'hi')).toBe(host);
    expect(host.requestNames).toEqual(['greet']);
  });
});

describe('a request host that cannot connect', () => {
  it("rejects start() with the cloud's error, takes its listeners off, and can start again", async () => {
    const listening = new Map<string, unknown>();
    let refuse = true;
    const cloud = cloudWith({
      connect: async () => {
        if (refuse) throw new Error('no server');
      },
      on: (event: string, listener: unknown) => listening.set(event, listener),
      off: (event: string, listener: unknown) => {
        if (listening.get(event) === listener) listening.delete(event);
      },
    });
    const host = new CloudRequests(cloud);
    await expect(host.start()).rejects.toThrow('no server');
    expect(host.running).toBe(false);
    expect([...listening.keys()]).toEqual([]);
    refuse = false;
    await host.start();
    expect(host.running).toBe(true);
    expect([...listening.keys()]).toEqual(['set', 'connect']);
    await host.stop();
    expect([...listening.keys()]).toEqual([]);
  });
});

describe('a storage host', () => {
  const db = (name: string) => new MemoryDatabase({ name });

  it('checks its options and databases, and serves each name once', () => {
    expect(refusal(() => new CloudStorage(cloudWith(), null as never))).toBe(
      'TypeError: options must be an object like { databases }',
    );
    expect(refusal(() => new CloudStorage(cloudWith(), [] as never))).toBe(
      'TypeError: options must be an object like { databases }',
    );
    expect(refusal(() => new CloudStorage(cloudWith(), 'x' as never))).toBe(
      'TypeError: options must be an object like { databases }',
    );
    expect(new CloudStorage(cloudWith()).databaseNames).toEqual([]);
    expect(refusal(() => new CloudStorage(cloudWith(), { databases: db('a') as never }))).toBe(
      'TypeError: options.databases must be an array of databases',
    );
    expect(refusal(() => new CloudStorage(cloudWith(), { usedCloudVars: [] }))).toBe(
      'RangeError: options.usedCloudVars must name at least one variable',
    );
    const storage = new CloudStorage(cloudWith(), {
      databases: [db('scores'), db('names')],
      requestVar: 'ASK',
    });
    expect(storage.databaseNames).toEqual(['scores', 'names']);
    expect(storage.requests.requestVar).toBe('ASK');
    expect(storage.requests.requestNames).toEqual(['get', 'set', 'keys', 'database_names', 'ping']);
    expect(storage.running).toBe(false);
    const notDb = 'TypeError: a database must be an object with name, get(key), set(key, value) and keys()';
    expect(refusal(() => storage.addDatabase(null as never))).toBe(notDb);
    expect(refusal(() => storage.addDatabase('db' as never))).toBe(notDb);
    // A function carrying the methods is not a database object either.
    const callable = Object.assign(() => undefined, {
      get: async () => undefined,
      set: async () => undefined,
      keys: async () => [],
    });
    expect(refusal(() => storage.addDatabase(callable as never))).toBe(notDb);
    for (const missing of ['get', 'set', 'keys']) {
      const partial = {
        name: 'x',
        get: async () => undefined,
        set: async () => undefined,
        keys: async () => [],
      };
      delete (partial as Record<string, unknown>)[missing];
      expect(refusal(() => storage.addDatabase(partial as never))).toBe(notDb);
    }
    const named = (name: unknown) => ({
      name,
      get: async () => undefined,
      set: async () => undefined,
      keys: async () => [],
    });
    expect(refusal(() => storage.addDatabase(named('') as never))).toBe(
      'TypeError: a database must have a non-empty string name',
    );
    expect(refusal(() => storage.addDatabase(named(5) as never))).toBe(
      'TypeError: a database must have a non-empty string name',
    );
    expect(refusal(() => storage.addDatabase(named('a&b') as never))).toBe(
      'RangeError: database name "a&b" must not contain "&" (it separates arguments)',
    );
    expect(refusal(() => storage.addDatabase(db('scores')))).toBe(
      'RangeError: a database named "scores" is already served',
    );
    const extra = db('extra');
    expect(storage.addDatabase(extra)).toBe(storage);
    expect(storage.getDatabase('extra')).toBe(extra);
    expect(storage.getDatabase('none')).toBeUndefined();
    expect(storage.removeDatabase('scores')).toBe(true);
    expect(storage.removeDatabase('scores')).toBe(false);
    expect(storage.databaseNames).toEqual(['names', 'extra']);
    expect(PING_ANSWER).toBe('pong');
  });
});
