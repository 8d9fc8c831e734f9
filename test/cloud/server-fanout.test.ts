/**
 * Fan-out batched per receiver per tick (issue 13 §3): the sets of one tick reach each receiver
 * in one frame, in order, without its own sets, and without sets from before it joined.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudState } from '../../src/sandbox/cloud/index.js';
import { BOT_AGENT, HARNESS_PROJECT, type Harness, RawSocket, startHarness, waitFor } from './support.js';

let harness: Harness;
beforeAll(async () => {
  const state = new CloudState();
  state.project(HARNESS_PROJECT).values.set('☁ v', '0');
  // A long tick, so that what a test sends in a row surely falls in one.
  harness = await startHarness({
    state,
    batchInterval: 300,
    platformRateLimit: null,
    alternateRateLimit: null,
  });
});
afterAll(() => harness.close());

const set = (user: string, name: string, value: string, projectId = HARNESS_PROJECT) => ({
  method: 'set',
  name: `☁ ${name}`,
  value,
  user,
  project_id: projectId,
});

async function member(user: 'alice' | 'bob'): Promise<RawSocket> {
  const socket = new RawSocket(harness.wsUrl, { Cookie: `scratchsessionsid=sid-${user}` });
  await socket.opened;
  socket.send({ method: 'handshake', user, project_id: HARNESS_PROJECT });
  await socket.frame(1); // the values frame
  return socket;
}

const live = (socket: RawSocket) => socket.frames.slice(1);

describe('platform endpoint', () => {
  it('sends each receiver one frame per tick, in order, never its own sets', async () => {
    const [a, b, c] = [await member('alice'), await member('bob'), await member('alice')];
    a.send(set('alice', 'x', '1'));
    b.send(set('bob', 'y', '2'));
    a.send(set('alice', 'x', '3'));
    await waitFor(() => live(c).length === 1 && live(a).length === 1 && live(b).length === 1, 'the tick');
    const x1 = '{"method":"set","name":"☁ x","value":"1"}';
    const y2 = '{"method":"set","name":"☁ y","value":"2"}';
    const x3 = '{"method":"set","name":"☁ x","value":"3"}';
    // The order between two senders is the order the server took them in.
    const order = live(c)[0]!.split('\n');
    expect(order).toHaveLength(3);
    expect(order.filter((line) => line !== y2)).toEqual([x1, x3]);
    expect(live(a)).toEqual([y2]);
    expect(live(b)).toEqual([`${x1}\n${x3}`]);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it('gives a receiver that joins during a tick only what was sent after it joined', async () => {
    const a = await member('alice');
    const b = await member('bob');
    a.send(set('alice', 'v', '10'));
    await waitFor(() => harness.state.peek(HARNESS_PROJECT)?.values.get('☁ v') === '10', 'the first set');
    const late = await member('bob'); // joins within the same tick: its values frame already says 10
    expect(late.frames[0]).toContain('"value":"10"');
    a.send(set('alice', 'v', '11'));
    await waitFor(() => live(late).length === 1 && live(b).length === 1, 'the tick');
    expect(live(b)).toEqual([
      '{"method":"set","name":"☁ v","value":"10"}\n{"method":"set","name":"☁ v","value":"11"}',
    ]);
    expect(live(late)).toEqual(['{"method":"set","name":"☁ v","value":"11"}']);
    await Promise.all([a.close(), b.close(), late.close()]);
  });
});

describe('alternate endpoint', () => {
  it('batches the same way', async () => {
    const join = async (user: string) => {
      const socket = new RawSocket(harness.altUrl, { 'User-Agent': BOT_AGENT });
      await socket.opened;
      const before = harness.cloud.members('alternate', '555');
      socket.send({ method: 'handshake', user, project_id: '555' });
      await waitFor(() => harness.cloud.members('alternate', '555') > before, 'the handshake');
      return socket;
    };
    const a = await join('sender');
    const receivers = [await join('one'), await join('two')];
    for (let i = 0; i < 50; i++) a.send(set('sender', 'n', String(i), '555'));
    await waitFor(() => receivers.every((r) => r.sets().length === 50), 'every set');
    for (const r of receivers) {
      expect(r.frames).toHaveLength(1);
      expect(r.sets()).toEqual(Array.from({ length: 50 }, (_, i) => `☁ n=${i}`));
    }
    expect(a.frames).toEqual([]);
    await Promise.all([a.close(), ...receivers.map((r) => r.close())]);
  });
});
