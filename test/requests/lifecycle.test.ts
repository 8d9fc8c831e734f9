/**
 * CloudRequests' life cycle against the sandbox with its platform rate limits on (10 sets a second,
 * bursts of 30) and the default `rateLimit` of 0.1 s: stale requests, outages, failures to send,
 * stop and start, pacing, argument checks.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../src/cloud/cloud.js';
import {
  type CloudLike,
  CloudRequestError,
  CloudRequests,
  type CloudResponseEvent,
  type RequestContext,
} from '../../src/cloud/requests/index.js';
import { encode } from '../../src/encoding.js';
import { waitFor } from '../cloud/support.js';
import { ProjectSimulator } from '../support/project-simulator.js';
import { useSandbox } from '../support/sandbox.js';
import { cloudWith } from '../support/unconnected-cloud.js';

const ctx = useSandbox();
const clouds: Cloud[] = [];
async function cloudOf(account: number): Promise<Cloud> {
  const cloud = (await ctx.login(account)).cloud(ctx.sandbox.cloudProjectId);
  clouds.push(cloud);
  return cloud;
}

afterAll(async () => {
  await Promise.all(clouds.map((cloud) => cloud.disconnect().catch(() => undefined)));
});

function record(host: CloudRequests) {
  const events = {
    request: [] as RequestContext[],
    response: [] as CloudResponseEvent[],
    error: [] as Error[],
  };
  host.on('request', (e) => events.request.push(e));
  host.on('response', (e) => events.response.push(e));
  host.on('error', (e) => events.error.push(e));
  return events;
}

describe('CloudRequests life cycle', () => {
  let project: ProjectSimulator;
  let hostCloud: Cloud;
  let host: CloudRequests;
  let events: ReturnType<typeof record>;

  it('leaves the request found on connecting unanswered (its project is gone)', async () => {
    project = await new ProjectSimulator(await cloudOf(1)).start();
    await project.sendRaw(`${encode('echo&stale')}.111110`);
    hostCloud = await cloudOf(0);
    host = hostCloud.requests();
    expect(host).toBeInstanceOf(CloudRequests);
    events = record(host);
    host.request('echo', (args) => args[0]);
    host.request('long', ([n]) => 'y'.repeat(Number(n)));
    await host.start();
    expect(hostCloud.getVar('TO_HOST')).toBe(`${encode('echo&stale')}.111110`);
    await expect(project.waitForAnswer('111110', 600)).rejects.toThrow(/no complete answer/);
    expect(events.request).toHaveLength(0);
    // It stays taken: repeating it does not make it new.
    await project.sendRaw(`${encode('echo&stale')}.111110`);
    expect((await project.request('echo', ['fresh'])).text()).toBe('fresh');
    expect(events.request.map((r) => r.args[0])).toEqual(['fresh']);
  });

  it('looks the requester up on the platform by default', () => {
    expect(host.lookupRequester).toBe(true);
    expect(events.request[0]!.requester).toBe(ctx.sandbox.accounts[1]!.username);
  });

  it("answers at the cloud's pace without losing packets to the server's limits", async () => {
    const response = await project.request('long', ['1500']); // 3000 digits: 13 packets
    expect(response.packets).toHaveLength(13);
    expect(response.text()).toBe('y'.repeat(1500));
    const sent = events.response.at(-1)!;
    expect(sent).toMatchObject({
      requestId: response.rid,
      name: 'long',
      marker: '2',
      digits: 3000,
      packets: 13,
      failed: false,
    });
    // The server logged each packet once, in the order sent (its pace, one set per 0.1 s however
    // late the timers run, is the pacer's: test/cloud/client-pacer.test.ts, on a controlled clock).
    const log = await fetch(
      `${ctx.sandbox.hosts.cloudHttp}/logs?projectid=${ctx.sandbox.cloudProjectId}&limit=40&offset=0`,
    );
    const entries = (await log.json()) as { user: string; name: string; value: string | number }[];
    const answered = entries
      .filter((e) => e.user === hostCloud.username && e.name.startsWith('☁ FROM_HOST'))
      .slice(0, 13)
      .reverse();
    expect(answered.map((e) => [e.name.slice(2), String(e.value)])).toEqual(
      response.packets.map((p) => [p.variable, p.value]),
    );
  });

  it('answers a request sent during an outage once it is back', async () => {
    await hostCloud.disconnect();
    const rid = '222220';
    const answer = project.waitForAnswer(rid);
    await project.sendRaw(`${encode('echo&while away')}.${rid}`);
    await hostCloud.connect();
    expect((await answer).text()).toBe('while away');
  });

  it('reports an answer it could not finish sending', async () => {
    const before = events.error.length;
    const rid = '333330';
    await project.sendRaw(`${encode('long&3000')}.${rid}`); // 25 packets: 2.5 s
    await waitFor(
      () => host.inFlight > 0 && hostCloud.pendingSets > 5,
      'the answer being sent, with packets still queued',
    );
    await hostCloud.disconnect();
    await host.idle();
    const error = events.error.slice(before).at(-1) as CloudRequestError;
    expect(error).toBeInstanceOf(CloudRequestError);
    expect(error.kind).toBe('send');
    expect(error.requestId).toBe(rid);
    expect(error.message).toMatch(/could not be sent: disconnected/);
    await hostCloud.connect();
  });

  it('stops: no new request is taken, the ones taken are still answered; start again serves again', async () => {
    host.request('slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      return 'done';
    });
    const slow = project.request('slow');
    await waitFor(() => host.inFlight > 0, 'the slow request to be taken');
    await host.stop();
    expect(host.running).toBe(false);
    expect((await slow).text()).toBe('done');
    await expect(project.request('echo', ['ignored'], { timeoutMs: 600 })).rejects.toThrow(
      /no complete answer/,
    );
    await host.start();
    await host.start(); // again: nothing more
    expect((await project.request('echo', ['back'])).text()).toBe('back');
  });

  it('serves the lossless encoding when asked, on one response variable', async () => {
    const cloud = await cloudOf(2);
    const lossless = new CloudRequests(cloud, {
      requestVar: '☁ TO_HOST_L',
      usedCloudVars: ['FROM_L'],
      lossless: true,
      lookupRequester: false,
    });
    lossless.request('grüß', ([text]) => `${text} 😀`);
    await lossless.start();
    const sim = await new ProjectSimulator(await cloudOf(1), {
      requestVar: 'TO_HOST_L',
      responseVars: ['FROM_L'],
      lossless: true,
    }).start();
    const response = await sim.request('grüß', ['été'.repeat(60)]);
    expect(response.text(true)).toBe(`${'été'.repeat(60)} 😀`);
    expect(new Set(response.packets.map((p) => p.variable))).toEqual(new Set(['FROM_L']));
    await lossless.stop();
    await sim.stop();
  });
});

describe('CloudRequests arguments', () => {
  const fake = cloudWith();

  it('refuses bad options', () => {
    expect(() => new CloudRequests(null as unknown as CloudLike)).toThrow(TypeError);
    expect(() => new CloudRequests(fake, 'x' as unknown as object)).toThrow(TypeError);
    expect(() => new CloudRequests(fake, { requestVar: '' })).toThrow(RangeError);
    expect(() => new CloudRequests(fake, { requestVar: '☁ ' })).toThrow(RangeError);
    expect(() => new CloudRequests(fake, { requestVar: 'A\nB' })).toThrow(RangeError);
    expect(() => new CloudRequests(fake, { requestVar: 3 as unknown as string })).toThrow(TypeError);
    expect(() => new CloudRequests(fake, { usedCloudVars: [] })).toThrow(RangeError);
    expect(() => new CloudRequests(fake, { usedCloudVars: 'FROM' as unknown as string[] })).toThrow(
      TypeError,
    );
    expect(() => new CloudRequests(fake, { usedCloudVars: ['A', 'A'] })).toThrow(/twice/);
    expect(() => new CloudRequests(fake, { usedCloudVars: ['TO_HOST'] })).toThrow(/request variable/);
    expect(() => new CloudRequests(fake, { handlerTimeout: -1 })).toThrow(RangeError);
    expect(() => new CloudRequests(fake, { handlerTimeout: '1' as unknown as number })).toThrow(TypeError);
    expect(() => new CloudRequests(fake, { lossless: 1 as unknown as boolean })).toThrow(TypeError);
    expect(() => new CloudRequests(fake, { memory: 0 })).toThrow(RangeError);
    expect(() => new CloudRequests({ ...fake, lengthLimit: 19 })).toThrow(/at least 20/);
  });

  it('strips the ☁ prefix and uses the template defaults', () => {
    const host = new CloudRequests(fake, { requestVar: '☁ IN' });
    expect(host.requestVar).toBe('IN');
    expect(new CloudRequests(fake).usedCloudVars).toEqual(
      Array.from({ length: 9 }, (_, i) => `FROM_HOST_${i + 1}`),
    );
    expect(new CloudRequests(fake).lookupRequester).toBe(false);
    expect(new CloudRequests({ ...fake, isPlatform: true }).lookupRequester).toBe(true);
  });

  it('refuses bad request names and handlers', () => {
    const host = new CloudRequests(fake);
    expect(() => host.request('a&b', () => '')).toThrow(RangeError);
    expect(() => host.request('', () => '')).toThrow(RangeError);
    expect(() => host.request(5 as unknown as string, () => '')).toThrow(TypeError);
    expect(() => host.request('ok', 'nope' as unknown as () => string)).toThrow(TypeError);
    expect(() => host.request('héllo', () => '')).toThrow(/cannot spell/);
    expect(() => new CloudRequests(fake, { lossless: true }).request('héllo', () => '')).not.toThrow();
    host.request('ok', () => '');
    expect(host.requestNames).toEqual(['ok']);
    expect(host.removeRequest('ok')).toBe(true);
    expect(host.removeRequest('ok')).toBe(false);
  });

  it('rejects start() when the cloud cannot connect, and stays stopped', async () => {
    const host = new CloudRequests({ ...fake, connect: async () => Promise.reject(new Error('no server')) });
    await expect(host.start()).rejects.toThrow('no server');
    expect(host.running).toBe(false);
  });
});
