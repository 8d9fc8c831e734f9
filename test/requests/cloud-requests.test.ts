/**
 * CloudRequests end to end: a host and project simulators, each on its own real `Cloud`
 * connection to the sandbox's platform cloud server (WebSocket, session cookies, the cloud log).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../src/cloud/cloud.js';
import {
  CloudRequestError,
  CloudRequests,
  type CloudRequestsOptions,
  type CloudResponseEvent,
  type RequestContext,
} from '../../src/cloud/requests/index.js';
import { encode } from '../../src/encoding.js';
import { ProjectSimulator } from '../support/project-simulator.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox({ cloudRateLimits: false });
/** Sets are paced at this many seconds on every connection of these tests. */
const RATE = 0.02;

const clouds: Cloud[] = [];
async function cloudOf(account: number, rateLimit = RATE): Promise<Cloud> {
  const session = await ctx.login(account);
  const cloud = session.cloud(ctx.sandbox.cloudProjectId, { rateLimit });
  clouds.push(cloud);
  return cloud;
}

/** A host on its own connection (demo account 0), with every event recorded. */
async function startHost(options: CloudRequestsOptions = {}, rateLimit = RATE) {
  const cloud = await cloudOf(0, rateLimit);
  const host = new CloudRequests(cloud, { lookupRequester: false, ...options });
  const events = {
    request: [] as RequestContext[],
    unknown: [] as RequestContext[],
    response: [] as CloudResponseEvent[],
    error: [] as Error[],
  };
  host.on('request', (e) => events.request.push(e));
  host.on('unknownRequest', (e) => events.unknown.push(e));
  host.on('response', (e) => events.response.push(e));
  host.on('error', (e) => events.error.push(e));
  await host.start();
  return { host, cloud, events };
}

let host: Awaited<ReturnType<typeof startHost>>;
let project: ProjectSimulator;

/** What the `hold` handler waits for: the test lets it go. */
let letGo: () => void = () => undefined;
const held = new Promise<void>((resolve) => {
  letGo = resolve;
});

beforeAll(async () => {
  host = await startHost();
  host.host
    .request('foo', (args) => `foo got ${args.join(',')}`)
    .request('echo', (args) => args[0] ?? '')
    .request('add', ([a, b]) => Number(a) + Number(b))
    .request('list', (args) => args)
    .request('nothing', () => undefined)
    .request('half', ([n]) => Number(n) / 2)
    .request('long', ([n]) => 'abcdefghij'.repeat(Number(n) / 10))
    .request('boom', () => {
      throw new Error('kaput');
    })
    .request('reject', async () => Promise.reject(new RangeError('no way')))
    .request('bool', () => true as unknown as string)
    .request('hold', async () => {
      await held;
      return 'let go';
    });
  project = await new ProjectSimulator(await cloudOf(1)).start();
});

afterAll(async () => {
  await host?.host.stop();
  await Promise.all(clouds.map((cloud) => cloud.disconnect().catch(() => undefined)));
});

describe('CloudRequests over the sandbox cloud', () => {
  it('answers the WIRE.md §8 request vector foo(TimMcCool), rid 417950', async () => {
    const answer = project.waitForAnswer('417950');
    await project.sendRaw('31494996603745462526494943.417950');
    const response = await answer;
    expect(response.marker).toBe('2');
    expect(response.text()).toBe('foo got TimMcCool');
    expect(response.packets).toHaveLength(1);
    expect(response.packets[0]!.value).toBe(`${encode('foo got TimMcCool')}.4179502222`);
    expect(host.events.request.find((r) => r.requestId === '417950')).toMatchObject({
      name: 'foo',
      args: ['TimMcCool'],
      requester: null,
    });
  });

  it('answers an integer raw (marker 3) and other numbers encoded', async () => {
    const sum = await project.request('add', ['40', '2']);
    expect(sum.marker).toBe('3');
    expect(sum.digits).toBe('42');
    expect(sum.packets[0]!.value).toBe(`42.${sum.rid}3222`);

    const negative = await project.request('add', ['-50', '8']);
    expect(negative.marker).toBe('2');
    expect(negative.text()).toBe('-42');

    const float = await project.request('half', ['5']);
    expect(float.marker).toBe('2');
    expect(float.text()).toBe('2.5');

    // A rid that does not end in 0 gets no raw answer.
    const odd = await project.request('add', ['1', '2'], { rid: '123457' });
    expect(odd.marker).toBe('2');
    expect(odd.text()).toBe('3');
  });

  it('answers strings, lists, empty strings and nothing, so the project never waits', async () => {
    expect((await project.request('echo', ['Hello, World!'])).text()).toBe('Hello, World!');
    const empty = await project.request('echo', ['']);
    expect(empty.digits).toBe(encode('-'));
    expect(empty.text()).toBe('-');
    const nothing = await project.request('nothing');
    expect(nothing.marker).toBe('2');
    expect(nothing.text()).toBe('-');
    const list = await project.request('list', ['a', '', 'b c']);
    expect(list.list()).toEqual(['a', '', 'b c']);
    expect(list.digits.endsWith('89')).toBe(true);
    const noItems = await project.request('list');
    expect(noItems.digits).toBe('');
    expect(noItems.packets[0]!.value).toBe(`.${noItems.rid}2222`);
  });

  it('joins a multi-part request (odd-sized pieces) and answers it', async () => {
    const arg = 'The quick brown fox jumps over the lazy dog. '.repeat(8); // 360 characters: 720+ digits
    const response = await project.request('echo', [arg]);
    expect(
      project.sent.filter((v) => v.startsWith('-') && v.endsWith(`.${response.rid}`)).length,
    ).toBeGreaterThan(1);
    expect(response.text()).toBe(arg);

    const forced = await project.request('foo', ['x', 'y'], { pieceDigits: 3 });
    expect(project.sent.filter((v) => v.endsWith(`.${forced.rid}`))).toHaveLength(
      Math.ceil(encode('foo&x&y').length / 3),
    );
    expect(forced.text()).toBe('foo got x,y');
  });

  it('sends a long answer in packets of 244 digits over FROM_HOST_1..9 in turn', async () => {
    const response = await project.request('long', ['1500']); // 3000 digits: 13 packets
    expect(response.text()).toBe('abcdefghij'.repeat(150));
    expect(response.packets).toHaveLength(13);
    response.packets.forEach((packet, i) => {
      expect(packet.value.length).toBeLessThanOrEqual(256);
      if (i < 12) {
        expect(packet.digits).toHaveLength(244);
        expect(packet.value.endsWith(`.${response.rid}${String(i + 1).padStart(3, '0')}1`)).toBe(true);
      } else {
        expect(packet.value.endsWith(`.${response.rid}2222`)).toBe(true);
      }
    });
    // Consecutive packets go to consecutive variables, wrapping after FROM_HOST_9.
    const indexes = response.packets.map((p) => Number(p.variable.slice('FROM_HOST_'.length)));
    for (let i = 1; i < indexes.length; i++) expect(indexes[i]).toBe((indexes[i - 1]! % 9) + 1);
    expect(new Set(indexes).size).toBe(9);
  });

  it('ignores a rid it has already answered', async () => {
    const first = await project.request('echo', ['once'], { rid: '555550' });
    expect(first.text()).toBe('once');
    const before = host.events.request.length;
    const answered = host.events.response.length;
    await project.sendRaw(`${encode('echo&twice')}.555550`);
    // A fresh request after it is answered; the repeat never is.
    expect((await project.request('echo', ['after'])).text()).toBe('after');
    await host.host.idle();
    expect(host.events.request.length).toBe(before + 1);
    expect(host.events.response.length).toBe(answered + 1);
  });

  it('answers "Error: <message>" for a throwing or rejecting handler, reports error, and goes on', async () => {
    const errors = host.events.error.length;
    const boom = await project.request('boom');
    expect(boom.text()).toBe('Error: kaput');
    const reject = await project.request('reject');
    expect(reject.text()).toBe('Error: no way');
    const bool = await project.request('bool');
    expect(bool.text()).toMatch(/^Error: the answer to request "bool" .*cannot be sent/);
    const reported = host.events.error.slice(errors) as CloudRequestError[];
    expect(reported.map((e) => [e.kind, e.requestName])).toEqual([
      ['handler', 'boom'],
      ['handler', 'reject'],
      ['response', 'bool'],
    ]);
    expect(reported[0]).toBeInstanceOf(CloudRequestError);
    expect((reported[0]!.cause as Error).message).toBe('kaput');
    expect((await project.request('add', ['1', '1'])).digits).toBe('2');
  });

  it('answers an unknown request with an error text and the unknownRequest event', async () => {
    const response = await project.request('nope', ['x']);
    expect(response.text()).toBe('Error: unknown request "nope"');
    expect(host.events.unknown.at(-1)).toMatchObject({ name: 'nope', args: ['x'], requestId: response.rid });
  });

  it('answers a request that is not a valid encoding with an error', async () => {
    const errors = host.events.error.length;
    const response = await project.requestDigits('0102');
    expect(response.text()).toMatch(/^Error: request \d+ cannot be read/);
    expect((host.events.error[errors] as CloudRequestError).kind).toBe('request');
  });

  it('does not let a slow handler hold up others', async () => {
    // The slow handler waits until the test lets it go: the fast answer must come first.
    let slowAnswered = false;
    const slow = project.request('hold').then((response) => {
      slowAnswered = true;
      return response;
    });
    const fast = await project.request('echo', ['fast']);
    expect(fast.text()).toBe('fast');
    expect(slowAnswered).toBe(false);
    letGo();
    expect((await slow).text()).toBe('let go');
  });

  it('sends a push (no request) under a 100000000xxxx id', async () => {
    const rid = await host.host.send('hi');
    expect(rid).toMatch(/^100000000\d{4}$/);
    const push = await project.nextPush();
    expect(push.rid).toBe(rid);
    expect(push.packets[0]!.value).toBe(`3537.${rid}2222`);
    expect(push.text()).toBe('hi');
    await host.host.send(['a', 'b']);
    expect((await project.nextPush()).list()).toEqual(['a', 'b']);
    await expect(host.host.send(true as unknown as string)).rejects.toThrow(TypeError);
  });
});

describe('CloudRequests with many projects at once', () => {
  it('answers every request of three simulators sending together', async () => {
    const projects = [
      project,
      await new ProjectSimulator(await cloudOf(2)).start(),
      await new ProjectSimulator(await cloudOf(1)).start(),
    ];
    const jobs = projects.flatMap((p, who) =>
      Array.from({ length: 6 }, (_, i) => {
        const text = `p${who} r${i} ${'z'.repeat(i * 60)}`;
        // Distinct rids: random ones may collide, and a rid is answered once.
        return p
          .request('echo', [text], { rid: `${70001 + who * 100 + i}0` })
          .then((r) => expect(r.text()).toBe(text));
      }),
    );
    await Promise.all(jobs);
    await Promise.all(projects.slice(1).map((p) => p.stop()));
  });
});

describe('CloudRequests handler timeout and requester', () => {
  let second: Awaited<ReturnType<typeof startHost>>;
  let sim: ProjectSimulator;

  beforeAll(async () => {
    // A second host on other variables, looking requesters up in the sandbox's cloud log.
    second = await startHost({
      requestVar: 'TO_HOST_B',
      usedCloudVars: ['FROM_B_1', 'FROM_B_2'],
      handlerTimeout: 0.3,
      lookupRequester: true,
      requesterTimeout: 3,
      maxRequestDigits: 400,
    });
    second.host
      .request('who', (_args, { requester }) => requester ?? 'nobody')
      .request('hang', () => new Promise(() => undefined));
    sim = await new ProjectSimulator(await cloudOf(2), {
      requestVar: 'TO_HOST_B',
      responseVars: ['FROM_B_1', 'FROM_B_2'],
    }).start();
  });

  afterAll(async () => {
    await second.host.stop();
    await sim.stop();
  });

  it('tells the handler who sent the request (from the cloud log)', async () => {
    const response = await sim.request('who');
    expect(response.text()).toBe(ctx.sandbox.accounts[2]!.username);
    expect(second.events.request.at(-1)!.requester).toBe(ctx.sandbox.accounts[2]!.username);
  });

  it('answers a request over maxRequestDigits with an error as soon as it is too long', async () => {
    const response = await sim.request('who', ['w'.repeat(300)]); // 606 digits, in 3 pieces
    expect(response.text()).toMatch(/^Error: request \d+ is over 400 digits/);
    expect((second.events.error.at(-1) as CloudRequestError).kind).toBe('request');
  });

  it('answers a handler that never settles with a timeout error', async () => {
    const response = await sim.request('hang');
    expect(response.text()).toMatch(/^Error: request "hang" \(rid \d+\) timed out after 0\.3 s$/);
    expect((second.events.error.at(-1) as CloudRequestError).kind).toBe('timeout');
    expect((await sim.request('who')).text()).toBe(ctx.sandbox.accounts[2]!.username);
  });
});
