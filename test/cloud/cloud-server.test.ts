/**
 * The sandbox's cloud server at the wire level (WIRE.md §5-6), driven by raw `ws` sockets so
 * every frame and close code is the server's own doing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsUserAgent, CloudState, isIdentifyingUserAgent } from '../../src/sandbox/cloud/index.js';
import { PLATFORM_COOKIE_WARNING, USER_AGENT_WARNING } from '../../src/sandbox/cloud/warning-frames.js';
import { BOT_AGENT, HARNESS_PROJECT, type Harness, RawSocket, startHarness, waitFor } from './support.js';

const hello = (user: string, projectId = HARNESS_PROJECT) => ({
  method: 'handshake',
  user,
  project_id: projectId,
});
const set = (user: string, name: string, value: string | number, projectId = HARNESS_PROJECT) => ({
  method: 'set',
  name: `☁ ${name}`,
  value,
  user,
  project_id: projectId,
});

let harness: Harness;
beforeAll(async () => {
  const state = new CloudState();
  state.project(HARNESS_PROJECT).values.set('☁ score', '7');
  state.project(HARNESS_PROJECT).values.set('☁ lives', 3);
  harness = await startHarness({ state });
});
afterAll(() => harness.close());

/** Browsers' own User-Agents (Chromium as puppeteer runs it, and Firefox). */
const CHROME_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';
const FIREFOX_AGENT = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

const alice = () => new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid="sid-alice"' });
const bob = () => new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid=sid-bob' });
const guest = (headers: Record<string, string> = { 'User-Agent': BOT_AGENT }) =>
  new RawSocket(harness.altUrl, headers);

/**
 * `first` handshakes into alternate project `projectId` and sets `☁ x` to 1; another guest joins
 * after it and must get that value in its values frame. Answers that guest.
 */
async function joinAfterSet(first: RawSocket, projectId: string): Promise<RawSocket> {
  await first.opened;
  first.send(hello('player1', projectId));
  first.send(set('player1', 'x', '1', projectId));
  const second = guest();
  await second.opened;
  second.send(hello('player2', projectId));
  expect(await second.frame(1)).toBe('{"method":"set","name":"☁ x","value":"1"}');
  return second;
}

describe('platform endpoint', () => {
  it('sends every current value in one frame right after the handshake', async () => {
    const a = alice();
    await a.opened;
    a.send(hello('alice'));
    expect(await a.frame(1)).toBe(
      '{"method":"set","name":"☁ score","value":"7"}\n{"method":"set","name":"☁ lives","value":3}',
    );
    await a.close();
  });

  it('forwards a set to the other connections and never echoes it', async () => {
    const a = alice();
    const b = bob();
    await Promise.all([a.opened, b.opened]);
    a.send(hello('alice'));
    b.send(hello('bob'));
    await Promise.all([a.frame(1), b.frame(1)]);
    a.send(set('alice', 'score', '8'));
    await b.frame(2);
    b.send(set('bob', 'lives', 2));
    await a.frame(2);
    a.send(set('alice', 'marker', '1'));
    await b.frame(3);
    expect(b.frames.slice(1)).toEqual([
      '{"method":"set","name":"☁ score","value":"8"}',
      '{"method":"set","name":"☁ marker","value":"1"}',
    ]);
    expect(a.frames.slice(1)).toEqual(['{"method":"set","name":"☁ lives","value":2}']);
    await Promise.all([a.close(), b.close()]);
    const log = harness.cloud.state.logPage(HARNESS_PROJECT, 3, 0);
    expect(log.map((e) => [e.user, e.verb, e.name, e.value])).toEqual([
      ['alice', 'set_var', '☁ marker', '1'],
      ['bob', 'set_var', '☁ lives', 2],
      ['alice', 'set_var', '☁ score', '8'],
    ]);
  });

  it('drops invalid values silently and keeps the connection', async () => {
    const a = alice();
    const b = bob();
    await Promise.all([a.opened, b.opened]);
    a.send(hello('alice'));
    b.send(hello('bob'));
    await Promise.all([a.frame(1), b.frame(1)]);
    a.send(set('alice', 'score', 'abc'));
    a.send(set('alice', 'score', '1'.repeat(257)));
    a.send(set('alice', 'score', '1.2.3'));
    a.send({ ...set('alice', 'x', '1'), name: 'no prefix' });
    a.send(set('alice', 'score', '-12.5'));
    expect(await b.frame(2)).toBe('{"method":"set","name":"☁ score","value":"-12.5"}');
    expect(a.ws.readyState).toBe(a.ws.OPEN);
    await Promise.all([a.close(), b.close()]);
  });

  it('records create, delete and rename in the log and forwards a create as a set', async () => {
    const a = alice();
    const b = bob();
    await Promise.all([a.opened, b.opened]);
    a.send(hello('alice'));
    b.send(hello('bob'));
    await Promise.all([a.frame(1), b.frame(1)]);
    a.send({ method: 'create', name: '☁ temp', value: '5', user: 'alice', project_id: HARNESS_PROJECT });
    a.send({
      method: 'rename',
      name: '☁ temp',
      new_name: '☁ kept',
      user: 'alice',
      project_id: HARNESS_PROJECT,
    });
    a.send({ method: 'delete', name: '☁ kept', user: 'alice', project_id: HARNESS_PROJECT });
    a.send(set('alice', 'done', '1'));
    const live = () => b.frames.slice(1).join('\n').split('\n');
    await waitFor(() => live().includes('{"method":"set","name":"☁ done","value":"1"}'), 'the last set');
    expect(live()).toEqual([
      '{"method":"set","name":"☁ temp","value":"5"}',
      '{"method":"set","name":"☁ done","value":"1"}',
    ]);
    const log = harness.cloud.state.logPage(HARNESS_PROJECT, 4, 0).reverse();
    expect(log.map((e) => [e.verb, e.name, e.value])).toEqual([
      ['create_var', '☁ temp', '5'],
      ['rename_var', '☁ temp', '☁ kept'],
      ['del_var', '☁ kept', '5'],
      ['set_var', '☁ done', '1'],
    ]);
    expect(harness.cloud.state.peek(HARNESS_PROJECT)!.values.has('☁ kept')).toBe(false);
    await Promise.all([a.close(), b.close()]);
  });

  it('closes 4002 without a session, or when the username is not the session’s', async () => {
    const none = new RawSocket(harness.wsUrl);
    await none.opened;
    none.send(hello('alice'));
    expect((await none.closed).code).toBe(4002);
    const wrong = alice();
    await wrong.opened;
    wrong.send(hello('bob'));
    expect(await wrong.closed).toEqual({ code: 4002, reason: 'the username does not match the session' });
    const stale = new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid="sid-nobody"' });
    await stale.opened;
    stale.send(hello('alice'));
    expect((await stale.closed).code).toBe(4002);
  });

  it('closes 4004 for a project that does not exist', async () => {
    const a = alice();
    await a.opened;
    a.send(hello('alice', '999'));
    expect((await a.closed).code).toBe(4004);
    const b = alice();
    await b.opened;
    b.send(hello('alice', 'not-a-number'));
    expect((await b.closed).code).toBe(4004);
  });

  it('closes 4003 when a connection sends faster than the rate limit', async () => {
    // Its own server: the bucket belongs to alice and the project, and would stay empty for the others.
    const state = new CloudState();
    state.project(HARNESS_PROJECT).values.set('☁ score', '7');
    const own = await startHarness({ state });
    const a = new RawSocket(own.wsUrl, { Cookie: 'scratchsessionsid="sid-alice"' });
    await a.opened;
    a.send(hello('alice'));
    await a.frame(1);
    for (let i = 0; i < 60; i++) a.send(set('alice', 'spam', i));
    const closed = await a.closed;
    expect(closed.code).toBe(4003);
    expect(closed.reason).toMatch(/rate limit/);
    await own.close();
  });
});

describe('bad frames', () => {
  const cases: [string, (s: RawSocket) => void][] = [
    ['bad JSON', (s) => s.send('{"method": "handshake", ')],
    [
      'two messages in one frame',
      (s) => s.send(`${JSON.stringify(hello('alice'))}\n${JSON.stringify(set('alice', 'x', 1))}\n`),
    ],
    ['an unknown method', (s) => s.send({ method: 'explode', user: 'alice', project_id: HARNESS_PROJECT })],
    ['a set before the handshake', (s) => s.send(set('alice', 'x', 1))],
    [
      'a set without user',
      (s) => s.send({ method: 'set', name: '☁ x', value: '1', project_id: HARNESS_PROJECT }),
    ],
    [
      'a set without value',
      (s) => s.send({ method: 'set', name: '☁ x', user: 'alice', project_id: HARNESS_PROJECT }),
    ],
    ['a binary frame (platform)', (s) => s.ws.send(Buffer.from([1, 2, 3]))],
    ['a JSON array', (s) => s.send('[1,2]')],
  ];
  for (const [what, misbehave] of cases) {
    it(`closes 4000 for ${what} and harms no other connection`, async () => {
      const good = bob();
      const sender = alice();
      await Promise.all([good.opened, sender.opened]);
      good.send(hello('bob'));
      sender.send(hello('alice'));
      await Promise.all([good.frame(1), sender.frame(1)]);
      const bad = alice();
      await bad.opened;
      misbehave(bad);
      expect((await bad.closed).code).toBe(4000);
      sender.send(set('alice', 'after', '42'));
      expect(await good.frame(2)).toBe('{"method":"set","name":"☁ after","value":"42"}');
      expect(good.closeInfo).toBeNull();
      await Promise.all([good.close(), sender.close()]);
    });
  }

  it('closes 4002 (permanent) for a handshake without a valid user, on both endpoints', async () => {
    for (const user of [undefined, 42, '', 'no spaces allowed']) {
      const platform = alice();
      const alternate = guest();
      await Promise.all([platform.opened, alternate.opened]);
      platform.send({ method: 'handshake', user, project_id: HARNESS_PROJECT });
      alternate.send({ method: 'handshake', user, project_id: '77' });
      expect((await platform.closed).code, `platform, user ${user}`).toBe(4002);
      expect((await alternate.closed).code, `alternate, user ${user}`).toBe(4002);
    }
  });

  it('closes 4000 for a second handshake', async () => {
    const a = alice();
    await a.opened;
    a.send(hello('alice'));
    await a.frame(1);
    a.send(hello('alice'));
    expect((await a.closed).code).toBe(4000);
  });
});

describe('alternate endpoint', () => {
  it('needs no login, takes digits up to 100 000 and drops text silently, as the real one does', async () => {
    const a = guest();
    const b = guest();
    await Promise.all([a.opened, b.opened]);
    a.send(hello('player123456'));
    b.send(hello('player654321'));
    await waitFor(() => harness.cloud.members('alternate', HARNESS_PROJECT) === 2, 'both handshakes');
    const long = '7'.repeat(100_000);
    a.send(set('player123456', 'chat', 'hello world')); // text: dropped
    a.send(set('player123456', 'chat', `${long}1`)); // one digit too many: dropped
    a.send(set('player123456', 'chat', long));
    a.send(set('player123456', 'edge', '-.')); // the real rule's edge cases pass
    a.send(set('player123456', 'edge', ''));
    a.send(set('player123456', 'edge', '-')); // and these do not
    a.send(set('player123456', 'edge', '.'));
    a.send(set('player123456', 'done', 1));
    await waitFor(() => b.sets().includes('☁ done=1'), 'the last set');
    expect(b.sets()).toEqual([`☁ chat=${long}`, '☁ edge=-.', '☁ edge=', '☁ done=1']);
    expect(a.closeInfo).toBeNull();
    // A binary frame is ignored there, not a protocol error.
    a.ws.send(Buffer.from([1, 2, 3]));
    a.send(set('player123456', 'done', 2));
    await waitFor(() => b.sets().includes('☁ done=2'), 'the set after a binary frame');
    expect(a.closeInfo).toBeNull();
    // No values frame at all for an empty project; the other project's values are its own.
    expect(b.frames.join('\n')).not.toContain('score');
    await Promise.all([a.close(), b.close()]);
  });

  it('says nothing after the handshake of a project without values, and sends the values of one with', async () => {
    const a = guest();
    await a.opened;
    a.send(hello('player1', 'empty-project'));
    await waitFor(() => harness.cloud.members('alternate', 'empty-project') === 1, 'the handshake');
    const p = guest();
    await p.opened;
    p.send(hello('player2', 'empty-project'));
    await waitFor(() => harness.cloud.members('alternate', 'empty-project') === 2, 'the second handshake');
    p.send(set('player2', 'x', '5', 'empty-project'));
    await a.frame(1);
    const c = guest();
    await c.opened;
    c.send(hello('player3', 'empty-project'));
    expect(await c.frame(1)).toBe('{"method":"set","name":"☁ x","value":"5"}');
    // The first guest's only frame is the live set: its handshake was answered by nothing.
    expect(a.frames).toEqual(['{"method":"set","name":"☁ x","value":"5"}']);
    await Promise.all([a.close(), p.close(), c.close()]);
  });

  it('closes 4000 for a project id it cannot read', async () => {
    const a = guest();
    await a.opened;
    a.send(hello('player1', 'has space'));
    expect((await a.closed).code).toBe(4000);
  });

  it('sends a text warning, then closes 4005, when a platform cookie is sent', async () => {
    const a = guest({ 'User-Agent': BOT_AGENT, Cookie: 'scratchsessionsid="sid-alice"' });
    expect((await a.closed).code).toBe(4005);
    expect(a.frames).toEqual([PLATFORM_COOKIE_WARNING]);
    expect(PLATFORM_COOKIE_WARNING).toMatch(
      /^The cloud data library you are using is putting your Scratch account at risk/,
    );
  });

  it('sends a text warning, then closes 4006, without an identifying User-Agent', async () => {
    const bare = guest({});
    expect((await bare.closed).code).toBe(4006);
    expect(bare.frames).toEqual([USER_AGENT_WARNING]);
    expect(USER_AGENT_WARNING).toMatch(/^Please provide a valid User-Agent header/);
    expect((await guest({ 'User-Agent': 'node' }).closed).code).toBe(4006);
    expect(
      (await guest({ 'User-Agent': 'scratchlab/0.1 (+https://www.npmjs.com/package/scratchlab)' }).closed)
        .code,
    ).toBe(4006);
  });

  it('takes a browser as it is: its own User-Agent and an Origin, no contact needed', async () => {
    const browser = {
      'User-Agent': CHROME_AGENT,
      Origin: `http://127.0.0.1:${harness.port}`,
    };
    const a = guest(browser);
    const b = guest(browser);
    await Promise.all([a.opened, b.opened]);
    a.send(hello('player1', 'browsers'));
    b.send(hello('player2', 'browsers'));
    a.send(set('player1', 'seen', '1', 'browsers'));
    await waitFor(() => b.sets().includes('☁ seen=1'), 'the set between two browsers');
    expect(a.closeInfo).toBeNull();
    expect(b.closeInfo).toBeNull();
    await Promise.all([a.close(), b.close()]);
  });

  it('does not hold the sandbox’s own platform cookie against a page of its site (one host serves both here)', async () => {
    const browser = guest({
      'User-Agent': CHROME_AGENT,
      Origin: `http://127.0.0.1:${harness.port}`,
      Cookie: 'scratchsessionsid="sid-alice"; scratchcsrftoken=abc',
    });
    const other = await joinAfterSet(browser, 'cookies');
    expect(browser.closeInfo).toBeNull();
    // The same cookie from a bot, even one that borrows a browser's User-Agent: 4005.
    const bot = guest({ 'User-Agent': CHROME_AGENT, Cookie: 'scratchsessionsid="sid-alice"' });
    expect((await bot.closed).code).toBe(4005);
    // ...and one that also sends another site's Origin (as libraries do towards the platform).
    const posing = guest({
      'User-Agent': CHROME_AGENT,
      Origin: 'https://scratch.mit.edu',
      Cookie: 'scratchsessionsid="sid-alice"',
    });
    expect((await posing.closed).code).toBe(4005);
    expect(posing.frames).toEqual([PLATFORM_COOKIE_WARNING]);
    await Promise.all([browser.close(), other.close()]);
  });

  it('refuses a browser’s User-Agent without an Origin (a bot borrowing it), and an empty one', async () => {
    const borrowed = guest({ 'User-Agent': CHROME_AGENT });
    expect((await borrowed.closed).code).toBe(4006);
    expect(borrowed.frames).toEqual([USER_AGENT_WARNING]);
    const empty = guest({ 'User-Agent': '', Origin: 'http://127.0.0.1' });
    expect((await empty.closed).code).toBe(4006);
    const originOnly = guest({ Origin: 'http://127.0.0.1' });
    expect((await originOnly.closed).code).toBe(4006);
  });

  it('documents its User-Agent rule', () => {
    // Never without a User-Agent (the alternate server's own rule); a browser always; a bot with a contact.
    expect(acceptsUserAgent(undefined, undefined)).toBe(false);
    expect(acceptsUserAgent('', 'https://turbowarp.org')).toBe(false);
    expect(acceptsUserAgent(CHROME_AGENT, 'https://turbowarp.org')).toBe(true);
    expect(acceptsUserAgent(FIREFOX_AGENT, 'https://turbowarp.org')).toBe(true);
    expect(acceptsUserAgent(CHROME_AGENT, undefined)).toBe(false);
    expect(acceptsUserAgent('python-requests/2.31', 'https://turbowarp.org')).toBe(false);
    expect(acceptsUserAgent(BOT_AGENT, undefined)).toBe(true);
    expect(isIdentifyingUserAgent('mybot/1.0 (Purpose: leaderboard; Contact: @name on the forums)')).toBe(
      true,
    );
    expect(isIdentifyingUserAgent('mybot/1.0 (contact: https://example.org)')).toBe(true);
    expect(isIdentifyingUserAgent('mybot/1.0 owner@example.org')).toBe(true);
    expect(isIdentifyingUserAgent('python-requests/2.31')).toBe(false);
    expect(isIdentifyingUserAgent('mybot/1.0 (Contact: )')).toBe(false);
    expect(isIdentifyingUserAgent(undefined)).toBe(false);
  });
});

describe('frames', () => {
  it('are all text: the values after a handshake, batched sets (shared and own) and warnings', async () => {
    const a = alice();
    const b = bob();
    const c = alice();
    await Promise.all([a.opened, b.opened, c.opened]);
    for (const [socket, user] of [
      [a, 'alice'],
      [b, 'bob'],
      [c, 'alice'],
    ] as const)
      socket.send(hello(user));
    await Promise.all([a.frame(1), b.frame(1), c.frame(1)]);
    // a and b send in the same tick: each gets a frame of its own (without its line), c the shared one.
    a.send(set('alice', 'score', '11'));
    b.send(set('bob', 'score', '12'));
    await waitFor(
      () =>
        c.sets().includes('☁ score=12') && a.sets().includes('☁ score=12') && b.sets().includes('☁ score=11'),
      'the forwarded sets',
    );
    const g1 = guest();
    const g2 = await joinAfterSet(g1, 'frames');
    const warned = guest({});
    await warned.closed;
    const sockets = [a, b, c, g1, g2, warned];
    expect(sockets.map((socket) => socket.frames.length > 0)).toEqual([true, true, true, false, true, true]);
    expect(sockets.map((socket) => socket.binaryFrames)).toEqual([0, 0, 0, 0, 0, 0]);
    await Promise.all([a, b, c, g1, g2].map((socket) => socket.close()));
  });
});

describe('logs endpoint', () => {
  const get = async (query: string) => {
    const answer = await fetch(`${harness.logsHost}/logs?${query}`);
    return { status: answer.status, body: (await answer.json()) as unknown };
  };

  it('answers newest first with limit and offset', async () => {
    const state = harness.cloud.state;
    for (let i = 0; i < 5; i++)
      state.record('4243', {
        user: 'u',
        verb: 'set_var',
        name: '☁ n',
        value: String(i),
        timestamp: 1000 + i,
      });
    const first = await get('projectid=4243&limit=2');
    expect(first).toEqual({
      status: 200,
      body: [
        { user: 'u', verb: 'set_var', name: '☁ n', value: '4', timestamp: 1004 },
        { user: 'u', verb: 'set_var', name: '☁ n', value: '3', timestamp: 1003 },
      ],
    });
    const rest = await get('projectid=4243&limit=100&offset=3');
    expect((rest.body as { value: string }[]).map((e) => e.value)).toEqual(['1', '0']);
    expect((await get('projectid=4243')).body).toHaveLength(5);
    expect((await get('projectid=777')).body).toEqual([]);
  });

  it('answers 400 with a JSON reason for bad parameters', async () => {
    for (const query of [
      '',
      'projectid=abc',
      'projectid=4243&limit=0',
      'projectid=4243&limit=101',
      'projectid=4243&offset=-1',
      'projectid=4243&limit=x',
    ]) {
      const answer = await get(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toMatchObject({ code: 'BadRequest' });
    }
  });
});

describe('stopping', () => {
  it('closes every socket with 1001 and can be started again on the same port', async () => {
    const own = await startHarness();
    const a = new RawSocket(own.wsUrl, { Cookie: 'scratchsessionsid="sid-alice"' });
    const b = new RawSocket(own.altUrl, { 'User-Agent': BOT_AGENT });
    await Promise.all([a.opened, b.opened]);
    a.send(hello('alice'));
    await waitFor(() => own.cloud.members('platform', HARNESS_PROJECT) === 1, 'the handshake');
    await own.close();
    expect((await a.closed).code).toBe(1001);
    expect((await b.closed).code).toBe(1001);
    expect(own.cloud.connections).toBe(0);
    const again = await startHarness({ port: own.port });
    const c = new RawSocket(again.wsUrl, { Cookie: 'scratchsessionsid="sid-bob"' });
    await c.opened;
    c.send(hello('bob'));
    await waitFor(() => again.cloud.members('platform', HARNESS_PROJECT) === 1, 'the handshake');
    expect(c.frames).toEqual([]); // a project without values: the handshake is answered by nothing
    await c.close();
    await again.close();
  });

  it('refuses other upgrade paths with 404', async () => {
    const other = new RawSocket(`ws://127.0.0.1:${harness.port}/elsewhere`);
    await expect(other.opened).rejects.toThrow(/404/);
    await waitFor(() => other.closeInfo, 'the refused socket to close');
  });
});
