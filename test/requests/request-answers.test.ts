/**
 * What a request host answers and reports, word for word: the response and error events of each
 * kind of answer, the contexts handlers get, what it ignores, and its deadline switched off.
 * A host and a project simulator on their own connections to the sandbox's platform cloud.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../src/cloud/cloud.js';
import {
  CloudRequestError,
  CloudRequests,
  type CloudResponseEvent,
  type RequestContext,
} from '../../src/cloud/requests/index.js';
import { encode } from '../../src/encoding.js';
import { waitFor } from '../cloud/support.js';
import { ProjectSimulator } from '../support/project-simulator.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox({ cloudRateLimits: false });
const RATE = 0.02;

let hostCloud: Cloud;
let simCloud: Cloud;
let host: CloudRequests;
let project: ProjectSimulator;
const seen: RequestContext[] = [];
const responses: CloudResponseEvent[] = [];
const errors: CloudRequestError[] = [];
/** What the `hold` handler waits for: the test lets it go. */
let letGo: (value: string) => void = () => undefined;
const held = new Promise<string>((resolve) => {
  letGo = resolve;
});
/** The arguments the `mutate` handler got, after it changed them. */
let mutated: { args: string[]; ctx: RequestContext } | undefined;

/** The response event of `rid`, once it is out. */
async function responseOf(rid: string): Promise<CloudResponseEvent> {
  await waitFor(() => responses.some((r) => r.requestId === rid), `the response event of ${rid}`);
  return responses.find((r) => r.requestId === rid)!;
}

beforeAll(async () => {
  hostCloud = (await ctx.login(0)).cloud(ctx.sandbox.cloudProjectId, { rateLimit: RATE });
  // No deadline: a handler may take as long as it needs.
  host = new CloudRequests(hostCloud, {
    requestVar: 'ASK',
    usedCloudVars: ['TELL_1', 'TELL_2', 'TELL_3'],
    handlerTimeout: 0,
    lookupRequester: false,
  });
  host
    .request('echo', (args) => args[0] ?? '')
    .request('count', (args) => args.length)
    .request('boom', () => {
      throw new Error('kaput');
    })
    .request('text', () => {
      throw 'a thrown text';
    })
    .request('bool', () => true as unknown as string)
    .request('hold', () => held)
    .request('mutate', (args, context) => {
      args.push('extra');
      mutated = { args, ctx: context };
      return args.join('+');
    });
  host.on('request', (e) => seen.push(e));
  host.on('response', (e) => responses.push(e));
  host.on('error', (e) => errors.push(e as CloudRequestError));
  await host.start();
  simCloud = (await ctx.login(1)).cloud(ctx.sandbox.cloudProjectId, { rateLimit: RATE });
  project = await new ProjectSimulator(simCloud, {
    requestVar: 'ASK',
    responseVars: ['TELL_1', 'TELL_2', 'TELL_3'],
  }).start();
});

afterAll(async () => {
  await host?.stop();
  await project?.stop();
  await hostCloud?.disconnect();
});

describe('a request host, word for word', () => {
  it('reports each answer: rid, name, marker, digits, packets, failed', async () => {
    const text = await project.request('echo', ['hi there'], { rid: '600010' });
    expect(text.text()).toBe('hi there');
    expect(await responseOf('600010')).toMatchObject({
      requestId: '600010',
      name: 'echo',
      marker: '2',
      digits: encode('hi there').length,
      packets: 1,
      failed: false,
    });
    const raw = await project.request('count', ['a', 'b', 'c'], { rid: '600020' });
    expect(raw.packets[0]!.value).toBe('3.6000203222');
    expect(await responseOf('600020')).toMatchObject({
      name: 'count',
      marker: '3',
      digits: 1,
      failed: false,
    });
    const long = await project.request('echo', ['z'.repeat(250)], { rid: '600030' });
    // The two answers before took TELL_1 and TELL_2: the turn goes on from there, and wraps.
    expect(long.packets.map((p) => p.variable)).toEqual(['TELL_3', 'TELL_1', 'TELL_2']);
    expect(await responseOf('600030')).toMatchObject({ digits: 500, packets: 3, failed: false });
  });

  it("answers a handler's throw with its own message, and reports it with the rid and name", async () => {
    const before = errors.length;
    expect((await project.request('boom', [], { rid: '600040' })).text()).toBe('Error: kaput');
    expect((await project.request('text', [], { rid: '600050' })).text()).toBe('Error: a thrown text');
    const [boom, text] = errors.slice(before);
    expect(boom).toBeInstanceOf(CloudRequestError);
    expect([boom!.name, boom!.kind, boom!.requestId, boom!.requestName, boom!.message]).toEqual([
      'CloudRequestError',
      'handler',
      '600040',
      'boom',
      'request "boom" (rid 600040) failed: kaput',
    ]);
    expect((boom!.cause as Error).message).toBe('kaput');
    expect([text!.kind, text!.message, text!.cause]).toEqual([
      'handler',
      'request "text" (rid 600050) failed: a thrown text',
      'a thrown text',
    ]);
    expect(await responseOf('600040')).toMatchObject({ name: 'boom', failed: true });
  });

  it('answers a value it cannot send with the reason, kind response', async () => {
    const before = errors.length;
    const bool = await project.request('bool', [], { rid: '600060' });
    const error = errors[before]!;
    expect([error.kind, error.requestId, error.requestName]).toEqual(['response', '600060', 'bool']);
    expect(error.message).toBe(
      `the answer to request "bool" (rid 600060) cannot be sent: ${(error.cause as Error).message}`,
    );
    expect(bool.text()).toBe(`Error: ${error.message}`);
    expect(await responseOf('600060')).toMatchObject({ name: 'bool', failed: true });
  });

  it('answers an unknown request, failed, with the name it asked for', async () => {
    const before = errors.length;
    expect((await project.request('nope', ['x'], { rid: '600070' })).text()).toBe(
      'Error: unknown request "nope"',
    );
    expect(await responseOf('600070')).toMatchObject({ name: 'nope', failed: true });
    expect(errors.length).toBe(before);
  });

  it('answers a request it cannot read with the rid, no name, kind request', async () => {
    const before = errors.length;
    const response = await project.requestDigits('0102', { rid: '600080' });
    const error = errors[before]!;
    expect([error.kind, error.requestId, error.requestName]).toEqual(['request', '600080', null]);
    const reason =
      'decode: pair "01" at offset 0 (pair 0) is not a code of the table (a lossless escape: pass';
    expect(error.message).toBe(`request 600080 cannot be read: ${reason} { lossless: true })`);
    expect((error.cause as Error).message).toBe(`${reason} { lossless: true })`);
    // The table has no braces: the project reads spaces in their place.
    expect(response.text()).toBe(`Error: request 600080 cannot be read: ${reason}   lossless: true  )`);
    expect(await responseOf('600080')).toMatchObject({ name: null, failed: true });
  });

  it('gives each handler its own copy of the arguments, and a frozen context', async () => {
    expect((await project.request('mutate', ['a', 'b'], { rid: '600090' })).text()).toBe('a+b+extra');
    expect(mutated!.args).toEqual(['a', 'b', 'extra']);
    expect(mutated!.ctx).toEqual({ name: 'mutate', args: ['a', 'b'], requestId: '600090', requester: null });
    expect(Object.isFrozen(mutated!.ctx)).toBe(true);
    expect(Object.isFrozen(mutated!.ctx.args)).toBe(true);
    expect(seen.find((c) => c.requestId === '600090')).toBe(mutated!.ctx);
  });

  it('with no deadline, waits for a handler as long as it takes', async () => {
    const answer = project.request('hold', [], { rid: '600100' });
    await waitFor(() => host.inFlight === 1, 'the held request to be taken');
    // A later request is answered meanwhile: the held one has not timed out.
    expect((await project.request('echo', ['meanwhile'])).text()).toBe('meanwhile');
    expect(host.inFlight).toBe(1);
    letGo('released');
    expect((await answer).text()).toBe('released');
    await host.idle();
    expect(host.inFlight).toBe(0);
    expect(errors.some((e) => e.requestId === '600100')).toBe(false);
  });

  it('ignores request-shaped values on other variables, and values not of the request form', async () => {
    const count = seen.length;
    await simCloud.setVar('TELL_1', `${encode('echo&elsewhere')}.600110`);
    await simCloud.setVar('ASK', '12345');
    await simCloud.setVar('ASK', '-12345');
    expect((await project.request('echo', ['after'], { rid: '600120' })).text()).toBe('after');
    await host.idle();
    expect(seen.slice(count).map((c) => c.requestId)).toEqual(['600120']);
  });

  it('pushes on the next variable in turn, and reports the push with no name', async () => {
    const rid = await host.send('pushed');
    const push = await project.nextPush();
    expect([push.rid, push.text()]).toEqual([rid, 'pushed']);
    expect(await responseOf(rid)).toMatchObject({ name: null, marker: '2', failed: false, packets: 1 });
  });
});

describe('a request host built inside its test', () => {
  it('answers, times out and drops an over-long request, word for word', async () => {
    // Built and started here, so that a mutation tool counts its construction as this test's.
    const sim = await new ProjectSimulator(simCloud, {
      requestVar: 'ASK_2',
      responseVars: ['TELL_B'],
    }).start();
    const own = new CloudRequests(hostCloud, {
      requestVar: '☁ ASK_2',
      usedCloudVars: ['TELL_B'],
      handlerTimeout: 0.3,
      lookupRequester: false,
      maxRequestDigits: 40,
    });
    const names: string[] = [];
    const failures: CloudRequestError[] = [];
    const answered: CloudResponseEvent[] = [];
    own.on('request', (e) => names.push(`${e.requestId} ${e.name}`));
    own.on('response', (e) => answered.push(e));
    own.on('error', (e) => failures.push(e as CloudRequestError));
    own.request('echo', (args) => args[0] ?? '').request('hang', () => new Promise(() => undefined));
    try {
      await own.start();
      expect((await sim.request('echo', ['fresh'], { rid: '610020' })).text()).toBe('fresh');

      const hang = await sim.request('hang', [], { rid: '610030' });
      expect(hang.text()).toBe('Error: request "hang" (rid 610030) timed out after 0.3 s');
      expect([failures[0]!.kind, failures[0]!.requestName, failures[0]!.cause]).toEqual([
        'timeout',
        'hang',
        undefined,
      ]);
      expect('cause' in failures[0]!).toBe(false);

      const long = await sim.request('echo', ['x'.repeat(20)], { rid: '610040', pieceDigits: 30 });
      expect(long.text()).toBe('Error: request 610040 is over 40 digits (maxRequestDigits); it was dropped');
      expect([failures[1]!.kind, failures[1]!.requestId, failures[1]!.requestName]).toEqual([
        'request',
        '610040',
        null,
      ]);
      // A request of exactly 40 digits is read: "echo&" and 15 characters.
      const fits = 'y'.repeat(15);
      expect(encode(`echo&${fits}`)).toHaveLength(40);
      expect((await sim.request('echo', [fits], { rid: '610050' })).text()).toBe(fits);
      await own.idle();
      // The over-long request was never read.
      expect(names).toEqual(['610020 echo', '610030 hang', '610050 echo']);
      expect(answered.map((e) => [e.requestId, e.name, e.failed])).toEqual([
        ['610020', 'echo', false],
        ['610030', 'hang', true],
        ['610040', null, true],
        ['610050', 'echo', false],
      ]);
      expect(failures).toHaveLength(2);
    } finally {
      await own.stop();
      await sim.stop();
    }
    expect(own.running).toBe(false);
  });
});

describe('a request host on a connection of its own', () => {
  it('leaves the value found on connecting, forgets a removed request, and reports what it could not send', async () => {
    const sim = await new ProjectSimulator(simCloud, {
      requestVar: 'ASK_3',
      responseVars: ['TELL_C'],
    }).start();
    const stale = `${encode('echo&stale')}.620010`;
    await sim.sendRaw(stale);
    // The server has it once another connection has seen it: then it is state, sent on connecting.
    await waitFor(() => hostCloud.getVar('ASK_3') === stale, 'the stale request to reach the server');
    const ownCloud = (await ctx.login(2)).cloud(ctx.sandbox.cloudProjectId, { rateLimit: RATE });
    const own = new CloudRequests(ownCloud, {
      requestVar: 'ASK_3',
      usedCloudVars: ['TELL_C'],
      handlerTimeout: 0,
      lookupRequester: false,
    });
    const names: string[] = [];
    const failures: CloudRequestError[] = [];
    own.on('request', (e) => names.push(`${e.requestId} ${e.name}`));
    own.on('error', (e) => failures.push(e as CloudRequestError));
    own
      .request('echo', (args) => args[0] ?? '')
      .request('gone', () => 'never')
      .request('long', () => 'z'.repeat(2000)); // 4000 digits: 17 packets
    try {
      await own.start();
      expect(own.removeRequest('gone')).toBe(true);
      expect(own.requestNames).toEqual(['echo', 'long']);
      expect((await sim.request('echo', ['fresh'], { rid: '620020' })).text()).toBe('fresh');
      expect((await sim.request('gone', [], { rid: '620030' })).text()).toBe('Error: unknown request "gone"');
      // The answer cannot all go out: the connection is closed with its packets queued.
      void sim.request('long', [], { rid: '620040', timeoutMs: 60_000 }).catch(() => undefined);
      await waitFor(() => own.inFlight === 1 && ownCloud.pendingSets > 5, 'the long answer being sent');
      await ownCloud.disconnect();
      await own.idle();
      expect(own.inFlight).toBe(0);
      expect(names).toEqual(['620020 echo', '620030 gone', '620040 long']);
      expect(failures.map((e) => [e.kind, e.requestId, e.requestName])).toEqual([['send', '620040', 'long']]);
      expect(failures[0]!.message).toBe(
        `the answer to request "long" (rid 620040) could not be sent: ${(failures[0]!.cause as Error).message}`,
      );
      // So does a push's: its promise rejects with the cloud's error.
      await ownCloud.connect();
      const push = own.send('p'.repeat(2000));
      const refused = expect(push).rejects.toThrow((failures[0]!.cause as Error).message);
      await waitFor(() => ownCloud.pendingSets > 5, 'the long push being sent');
      await ownCloud.disconnect();
      await refused;
      expect(failures).toHaveLength(1);
    } finally {
      await own.stop();
      await ownCloud.disconnect();
      await sim.stop();
    }
  });
});
