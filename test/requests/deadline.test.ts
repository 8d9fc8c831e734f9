/**
 * One deadline per request, counted from its arrival (review finding 6): the requester lookup
 * and the handler share `handlerTimeout`, so the timeout answer leaves well before the project
 * gives up (about 10 s), even when the cloud log lags and the lookup waits its longest.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CloudLike, CloudRequests, type CloudSetLike } from '../../src/cloud/requests/index.js';
import { encode } from '../../src/encoding.js';

/** A cloud whose log never shows the request (it lags, as the real one can), recording every set. */
function laggingCloud() {
  const listeners = new Set<(event: CloudSetLike) => void>();
  const sets: { at: number; name: string; value: string }[] = [];
  const cloud: CloudLike = {
    lengthLimit: 256,
    rateLimit: 0.1,
    isPlatform: true, // so the requester is looked up by default
    connect: async () => undefined,
    setVar: async (name, value) => {
      sets.push({ at: performance.now(), name, value: String(value) });
    },
    on: (event: string, listener: (event: never) => void) => {
      if (event === 'set') listeners.add(listener as (event: CloudSetLike) => void);
    },
    off: (event: string, listener: (event: never) => void) => {
      if (event === 'set') listeners.delete(listener as (event: CloudSetLike) => void);
    },
    logs: async () => [],
  };
  const request = (name: string, rid: string) => {
    for (const listener of listeners) listener({ name: 'TO_HOST', value: `${encode(name)}.${rid}` });
  };
  return { cloud, sets, request };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the deadline of a request', () => {
  it('is shared by the requester lookup and the handler', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { cloud, sets, request } = laggingCloud();
    const host = new CloudRequests(cloud, { handlerTimeout: 0.6, requesterTimeout: 0.5 });
    host.request('slow', () => new Promise(() => undefined));
    const errors: Error[] = [];
    host.on('error', (error) => errors.push(error));
    await host.start();
    const arrived = performance.now();
    request('slow', '123450');
    // 0.6 s from arrival, not 0.5 s of lookup plus 0.6 s of handler.
    await vi.advanceTimersByTimeAsync(599);
    expect(sets).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sets).toHaveLength(1);
    expect(sets[0]!.at - arrived).toBe(600);
    expect(errors.map((e) => e.message)).toEqual(['request "slow" (rid 123450) timed out after 0.6 s']);
    await host.stop();
  });

  it('with the defaults, answers 8 s after arrival, the 2 s lookup included (fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { cloud, sets, request } = laggingCloud();
    const host = new CloudRequests(cloud);
    expect([host.handlerTimeout, host.lookupRequester]).toEqual([8, true]);
    let requester: string | null | undefined;
    host.request('slow', (_args, ctx) => {
      requester = ctx.requester;
      return new Promise(() => undefined);
    });
    host.on('error', () => undefined);
    await host.start();
    const arrived = performance.now();
    request('slow', '123450');
    await vi.advanceTimersByTimeAsync(2000);
    expect(requester).toBeNull(); // the lookup gave up at its 2 s and the handler started
    await vi.advanceTimersByTimeAsync(5990);
    expect(sets).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(20);
    expect(sets).toHaveLength(1);
    expect(sets[0]!.at - arrived).toBe(8000);
    expect(sets[0]!.name).toBe('FROM_HOST_1');
    await host.stop();
  });

  it('caps the lookup at the deadline when requesterTimeout is longer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { cloud, sets, request } = laggingCloud();
    const host = new CloudRequests(cloud, { handlerTimeout: 1, requesterTimeout: 5 });
    host.request('quick', () => 'done');
    await host.start();
    request('quick', '223450');
    await vi.advanceTimersByTimeAsync(1000);
    // The lookup stopped at the deadline; the handler answered at once, in time.
    expect(sets.map((s) => s.value)).toEqual([`${encode('done')}.2234502222`]);
    await host.stop();
  });
});
