/**
 * The `Cloud` client against the sandbox's cloud server, over loopback: real sockets, real
 * handshakes, real sessions.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Cloud, CloudError } from '../../src/cloud/index.js';
import { decode, encode, LoginRequiredError } from '../../src/index.js';
import { useSandbox } from '../support/sandbox.js';
import { BOT_AGENT, startHarness, waitFor } from './support.js';

const ctx = useSandbox();

/** Collects a cloud's `set` events as `name=value`. */
function recorder(cloud: Cloud): string[] {
  const seen: string[] = [];
  cloud.on('set', (e) => seen.push(`${e.name}=${e.value}`));
  return seen;
}

/** A connection to the alternate endpoint (no login), on a project of its own. */
function guest(projectId: string, options: Partial<Parameters<typeof Cloud.alternate>[1]> = {}): Cloud {
  return Cloud.alternate(projectId, {
    purpose: 'tests',
    contact: '@tester',
    host: ctx.sandbox.alternateCloudHost,
    ...options,
  });
}

describe('Cloud basics', () => {
  it('has the platform hosts and limits', () => {
    expect(Cloud.PLATFORM_HOST).toBe('wss://clouddata.scratch.mit.edu');
    expect(Cloud.ALTERNATE_HOST).toBe('wss://clouddata.turbowarp.org');
    const cloud = new Cloud({ projectId: 1, username: 'someone', cookies: 'scratchsessionsid="x"' });
    expect(cloud.isPlatform).toBe(true);
    expect([cloud.projectId, cloud.lengthLimit, cloud.rateLimit, cloud.allowNonNumeric]).toEqual([
      '1',
      256,
      0.1,
      false,
    ]);
    const alt = Cloud.alternate(5, { purpose: 'leaderboard', contact: '@me on the forums' });
    expect(alt.host).toBe(Cloud.ALTERNATE_HOST);
    expect(alt.isPlatform).toBe(false);
    expect(alt.userAgent).toBe('scratchlab/0.1 (Purpose: leaderboard; Contact: @me on the forums)');
    expect(Cloud.alternate(5, { purpose: 'p', contact: 'c', userAgent: 'mybot/2.0' }).userAgent).toBe(
      'mybot/2.0 (Purpose: p; Contact: c)',
    );
    // Numeric only on every host: the alternate server drops text silently (WIRE.md §5).
    expect([alt.lengthLimit, alt.allowNonNumeric]).toEqual([100_000, false]);
    expect(alt.username).toMatch(/^player\d{6}$/);
  });

  it('refuses an alternate connection without purpose and contact', () => {
    expect(() => Cloud.alternate(5, { purpose: '', contact: '@me' })).toThrow(/purpose/);
    // @ts-expect-error: contact is required
    expect(() => Cloud.alternate(5, { purpose: 'bot' })).toThrow(/contact/);
    expect(() => Cloud.alternate(5, { purpose: 'bot\r\nX-Evil: 1', contact: '@me' })).toThrow(RangeError);
  });

  it('checks names and values before sending anything', async () => {
    const cloud = new Cloud({ projectId: 1, host: 'ws://127.0.0.1:9', username: 'x' });
    await expect(cloud.setVar('score', 'abc')).rejects.toThrow(TypeError);
    await expect(cloud.setVar('score', 'abc')).rejects.toThrow(/must be numeric/);
    await expect(cloud.setVar('score', '1'.repeat(257))).rejects.toThrow(RangeError);
    await expect(cloud.setVar('score', Number.NaN)).rejects.toThrow(RangeError);
    await expect(cloud.setVar('score', 5e-324)).rejects.toThrow(/326 characters long; the limit is 256/);
    await expect(cloud.setVar('score', '1.2.3')).rejects.toThrow(TypeError);
    // @ts-expect-error: a boolean is not a value
    await expect(cloud.setVar('score', true)).rejects.toThrow(TypeError);
    await expect(cloud.setVar('', 1)).rejects.toThrow(RangeError);
    await expect(cloud.setVar('☁ ', 1)).rejects.toThrow(RangeError);
    await expect(cloud.setVar('a\nb', 1)).rejects.toThrow(RangeError);
    // @ts-expect-error: names are strings
    await expect(cloud.setVar(3, 1)).rejects.toThrow(TypeError);
    await expect(cloud.setVars({ good: 1, bad: 'x' })).rejects.toThrow(/value of "bad"/);
    expect(cloud.state).toBe('idle'); // nothing above tried to connect
    const text = new Cloud({
      projectId: 1,
      host: 'ws://127.0.0.1:9',
      username: 'x',
      allowNonNumeric: true,
      lengthLimit: 5,
    });
    await expect(text.setVar('name', 'hello!')).rejects.toThrow(/limit is 5/);
    expect(() => new Cloud({ projectId: -1, host: 'ws://x' })).toThrow(RangeError);
    expect(() => new Cloud({ projectId: 1, host: 'http://x' })).toThrow(/ws: or wss:/);
    expect(() => new Cloud({ projectId: 1, host: 'ws://x', rateLimit: -1 })).toThrow(RangeError);
    expect(() => new Cloud({ projectId: 1 })).toThrow(/logged-in user/);
  });
});

describe('Cloud on the sandbox platform endpoint', () => {
  it('session.cloud needs a login on the platform host, and none on a custom host', async () => {
    const anonymous = ctx.anonymous();
    expect(() => anonymous.cloud(ctx.sandbox.cloudProjectId)).toThrow(LoginRequiredError);
    const custom = anonymous.cloud('custom-host', {
      host: ctx.sandbox.alternateCloudHost,
      userAgent: BOT_AGENT,
    });
    expect(custom.isPlatform).toBe(false);
    await custom.connect(); // the alternate endpoint would close 4005 if a platform cookie came with it
    await custom.disconnect();
    const session = await ctx.login(0);
    const onCustom = session.cloud('custom-host', {
      host: ctx.sandbox.alternateCloudHost,
      userAgent: BOT_AGENT,
    });
    await onCustom.connect();
    await onCustom.disconnect();
  });

  it('receives the current values after the handshake', async () => {
    const session = await ctx.login(0);
    const cloud = session.cloud(ctx.sandbox.cloudProjectId);
    expect(cloud.isPlatform).toBe(true);
    expect(cloud.username).toBe(session.username);
    const seen: { name: string; initial: boolean }[] = [];
    cloud.on('set', (e) => seen.push({ name: e.name, initial: e.initial }));
    await cloud.connect();
    const values = cloud.getAllVars();
    expect(Object.keys(values).sort()).toEqual([
      'daily best',
      'high score',
      'last score',
      'players online',
      'total plays',
    ]);
    expect(Number(values['total plays'])).toBeGreaterThan(1000);
    expect(cloud.getVar('high score')).toBe(values['high score']);
    expect(cloud.getVar('☁ high score')).toBe(values['high score']);
    expect(seen.every((e) => e.initial)).toBe(true);
    expect(seen).toHaveLength(5);
    await cloud.disconnect();
  });

  it('two connections see each other’s sets, never their own', async () => {
    const [one, two] = await Promise.all([ctx.login(0), ctx.login(1)]);
    const a = one.cloud(ctx.sandbox.cloudProjectId, { rateLimit: 0.05 });
    const b = two.cloud(ctx.sandbox.cloudProjectId, { rateLimit: 0.05 });
    await Promise.all([a.connect(), b.connect()]);
    const seenByA = recorder(a);
    const seenByB = recorder(b);
    await a.setVar('last score', 1230);
    await waitFor(() => seenByB.length === 1, 'b to see a’s set');
    await b.setVars({ 'players online': '4', 'last score': '-7.5' });
    await waitFor(() => seenByA.length === 2, 'a to see b’s sets');
    await a.setVar('☁ high score', '99999');
    await waitFor(() => seenByB.length === 2, 'b to see a’s second set');
    expect(seenByB).toEqual(['last score=1230', 'high score=99999']);
    expect(seenByA).toEqual(['players online=4', 'last score=-7.5']);
    // Own sets count as seen values too.
    expect(a.getVar('last score')).toBe('-7.5');
    expect(b.getVar('high score')).toBe('99999');
    expect(a.getVar('players online')).toBe('4');
    await Promise.all([a.disconnect(), b.disconnect()]);
  });

  it('sends queued sets one at a time, in call order, each exactly once', async () => {
    const [one, two] = await Promise.all([ctx.login(0), ctx.login(1)]);
    const sender = one.cloud(ctx.sandbox.cloudProjectId, { rateLimit: 0.02 });
    const receiver = two.cloud(ctx.sandbox.cloudProjectId);
    await receiver.connect();
    const seen = recorder(receiver);
    const values = Array.from({ length: 25 }, (_, i) => String(1000 + i));
    // Not awaited one by one: they queue, and the first one connects.
    await Promise.all(values.map((v) => sender.setVar('last score', v)));
    await waitFor(() => seen.length === values.length, 'every set to arrive');
    expect(seen).toEqual(values.map((v) => `last score=${v}`));
    const log = await sender.logs({ variable: 'last score', limit: values.length });
    expect(log.map((e) => e.value).reverse()).toEqual(values);
    expect(log.every((e) => e.user === one.username && e.verb === 'set')).toBe(true);
    const times = log.map((e) => e.timestamp).reverse();
    expect(times).toEqual([...times].sort((x, y) => x - y));
    await Promise.all([sender.disconnect(), receiver.disconnect()]);
  });

  it('disconnect() rejects the sets not sent yet and does not reconnect', async () => {
    const session = await ctx.login(0);
    const cloud = session.cloud(ctx.sandbox.cloudProjectId, { rateLimit: 10 });
    const events: string[] = [];
    cloud.on('connect', () => events.push('connect'));
    cloud.on('disconnect', (e) => events.push(`disconnect ${e.code} ${e.willReconnect}`));
    const first = cloud.setVar('last score', 1);
    const second = cloud.setVar('last score', 2).then(
      () => 'sent',
      (error: Error) => error.message,
    );
    await first;
    await cloud.disconnect();
    expect(await second).toMatch(/^disconnected: /);
    expect(cloud.state).toBe('idle');
    expect(events).toEqual(['connect', 'disconnect 1000 false']);
  });
});

describe('numbers and reconnects', () => {
  it('writes numbers out in full: 1e21 and 1e-7 are numbers, not "not numeric"', async () => {
    const [one, two] = await Promise.all([ctx.login(0), ctx.login(1)]);
    const sender = one.cloud(ctx.sandbox.cloudProjectId, { rateLimit: 0.02 });
    const receiver = two.cloud(ctx.sandbox.cloudProjectId);
    await receiver.connect();
    const seen = recorder(receiver);
    await sender.setVar('last score', 1e21);
    await sender.setVar('last score', 1e-7);
    await sender.setVar('last score', -2.5e-8);
    await waitFor(() => seen.length === 3, 'the three sets');
    // The platform endpoint drops values that are not numeric: these all passed its rule.
    expect(seen).toEqual([
      'last score=1000000000000000000000',
      'last score=0.0000001',
      'last score=-0.000000025',
    ]);
    expect(sender.getVar('last score')).toBe('-0.000000025');
    await Promise.all([sender.disconnect(), receiver.disconnect()]);
  });

  it('reconnect() after disconnect() rejects when the server is gone, instead of retrying forever', async () => {
    const server = await startHarness();
    const cloud = Cloud.alternate('gone', {
      purpose: 'tests',
      contact: '@tester',
      host: server.altUrl,
      reconnectDelay: 0.01,
    });
    await cloud.connect();
    await cloud.disconnect();
    await server.close();
    const outcome = await Promise.race([
      cloud.reconnect().then(
        () => 'connected',
        (error: Error) => error,
      ),
      new Promise((resolve) => setTimeout(() => resolve('still retrying after 3 s'), 3000)),
    ]);
    expect(outcome).toBeInstanceOf(CloudError);
    expect((outcome as CloudError).message).toMatch(
      /^could not connect to ws:\/\/127\.0\.0\.1:\d+\/clouddata-alt/,
    );
    expect(cloud.state).toBe('idle');
  });
});

describe('permanent close codes', () => {
  async function expectPermanent(cloud: Cloud, code: number, fix: RegExp, secret?: string): Promise<void> {
    const errors: Error[] = [];
    const disconnects: boolean[] = [];
    cloud.on('error', (e) => errors.push(e));
    cloud.on('disconnect', (e) => disconnects.push(e.willReconnect));
    const pending = cloud.setVar('score', 1);
    await expect(pending).rejects.toThrow(fix);
    await expect(pending).rejects.toBeInstanceOf(CloudError);
    expect(errors).toHaveLength(1);
    expect((errors[0] as CloudError).closeCode).toBe(code);
    expect(errors[0]!.message).toMatch(fix);
    expect(disconnects).toEqual([]); // never ready, so never disconnected: the error says it all
    expect(cloud.state).toBe('failed'); // no reconnect is scheduled
    await expect(cloud.setVar('score', 2)).rejects.toThrow(fix);
    expect(errors).toHaveLength(1);
    if (secret) expect(`${errors[0]!.message} ${errors[0]!.stack}`).not.toContain(secret);
  }

  it('4002: a username that is not the session’s', async () => {
    const session = await ctx.login(0);
    const sessionId = session.http.cookie(session.hosts.site, 'scratchsessionsid')!.replace(/"/g, '');
    await expectPermanent(
      session.cloud(ctx.sandbox.cloudProjectId, { username: ctx.sandbox.accounts[1]!.username }),
      4002,
      /log in again.*username matches the session/,
      sessionId,
    );
    const forged = new Cloud({
      projectId: ctx.sandbox.cloudProjectId,
      host: ctx.sandbox.hosts.cloudWs,
      username: 'demo_scratcher',
      cookies: 'scratchsessionsid="forged-session-id"',
    });
    await expectPermanent(forged, 4002, /log in again/, 'forged-session-id');
  });

  it('4004: a project that does not exist', async () => {
    const session = await ctx.login(0);
    await expectPermanent(session.cloud(987_654_321_012), 4004, /project unavailable: check the project id/);
  });

  it('4005: a platform cookie sent to the alternate server', async () => {
    await expectPermanent(
      guest('cookie-test', { cookies: 'scratchsessionsid="abc"' }),
      4005,
      /refuses platform cookies: use a custom host without a session/,
    );
  });

  it('4006: a bot that does not identify itself', async () => {
    const anonymousBot = new Cloud({ projectId: 'ua-test', host: ctx.sandbox.alternateCloudHost });
    await expectPermanent(anonymousBot, 4006, /identify your bot: pass purpose and contact/);
  });

  it('connect() starts over after a permanent close', async () => {
    const cloud = new Cloud({ projectId: 'again', host: ctx.sandbox.alternateCloudHost, userAgent: 'node' });
    cloud.on('error', () => undefined);
    await expect(cloud.connect()).rejects.toThrow(/identify your bot/);
    await expect(cloud.connect()).rejects.toThrow(/identify your bot/);
    expect(cloud.state).toBe('failed');
  });
});

describe('the alternate endpoint through Cloud.alternate', () => {
  it('connects without login and carries numeric values up to 100 000 characters', async () => {
    const a = guest('alt-text');
    const b = guest('alt-text');
    await Promise.all([a.connect(), b.connect()]);
    const seen = recorder(b);
    await a.setVar('chat', encode('hello, world!'));
    await a.setVar('big', '7'.repeat(100_000));
    await waitFor(() => seen.length === 2, 'both sets');
    expect(seen[0]).toBe(`chat=${encode('hello, world!')}`);
    expect(decode(b.getVar('chat')!)).toBe('hello, world!');
    expect(b.getVar('big')).toHaveLength(100_000);
    const c = guest('alt-text');
    await c.connect();
    expect(c.getAllVars()).toEqual({ chat: encode('hello, world!'), big: '7'.repeat(100_000) });
    // Text is refused before sending, as everywhere: the real server would drop it silently.
    await expect(a.setVar('chat', 'hello')).rejects.toThrow(/must be numeric.*encode\(\)/);
    await Promise.all([a.disconnect(), b.disconnect(), c.disconnect()]);
  });

  it('sends one JSON message per frame with user and project_id, names prefixed', async () => {
    // The client's own socket class, recording each frame as written.
    const written: string[] = [];
    class RecordingWebSocket extends WebSocket {
      override send(data: unknown, ...rest: never[]): void {
        written.push(String(data));
        super.send(data as string, ...rest);
      }
    }
    const listener = guest('frames', { username: 'listener' });
    const seen = recorder(listener);
    await listener.connect();
    const cloud = guest('frames', { username: 'framebot', WebSocket: RecordingWebSocket });
    await cloud.setVars({ a: 1, b: '2' });
    await waitFor(() => seen.length === 2, 'both sets');
    expect(seen).toEqual(['a=1', 'b=2']);
    expect(written).toEqual([
      '{"method":"handshake","user":"framebot","project_id":"frames"}\n',
      '{"method":"set","user":"framebot","project_id":"frames","name":"☁ a","value":"1"}\n',
      '{"method":"set","user":"framebot","project_id":"frames","name":"☁ b","value":"2"}\n',
    ]);
    await Promise.all([cloud.disconnect(), listener.disconnect()]);
  });
});

describe('duration options', () => {
  it('refuse a period no timer keeps (over 2^31-1 ms it would fire at once) with a RangeError naming the option', () => {
    const over = 2_147_484; // seconds: just past 2^31-1 ms
    for (const name of ['reconnectDelay', 'rateLimit', 'stableAfter', 'initialValuesWait'] as const) {
      expect(() => new Cloud({ projectId: 1, host: 'ws://x', [name]: over }), name).toThrow(RangeError);
      expect(() => new Cloud({ projectId: 1, host: 'ws://x', [name]: over }), name).toThrow(
        new RegExp(`^options\\.${name} must be at most 2147483 seconds \\(about 24\\.8 days`),
      );
      // The longest a timer keeps is still taken.
      expect(new Cloud({ projectId: 1, host: 'ws://x', [name]: 2_147_483 })).toBeInstanceOf(Cloud);
    }
    const cloud = new Cloud({ projectId: 1, host: 'ws://x' });
    for (const name of ['handlerTimeout', 'requesterTimeout'] as const) {
      expect(() => cloud.requests({ lookupRequester: true, [name]: over }), name).toThrow(
        new RegExp(`^options\\.${name} must be at most 2147483 seconds`),
      );
      expect(() => cloud.requests({ [name]: 2_147_483 }), name).not.toThrow();
    }
    expect(() => cloud.events({ interval: over })).toThrow(/^interval must be at most 2147483 seconds/);
  });
});
