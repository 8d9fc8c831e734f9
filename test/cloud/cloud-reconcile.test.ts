/**
 * Sets that cross a close by the server (review findings 3 and 4). The wire has no
 * acknowledgement, so the client reconciles after the reconnect: a value it wrote just before
 * the close that the server does not hold is sent again, once; one the server holds is not.
 *
 * The crossing is made deterministic: the server's `close()` marks its clients closing and
 * writes their close frames synchronously, and the client's set is written in the same turn,
 * before the client can read the close frame. So the set reaches a server that already closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Cloud, CloudError } from '../../src/cloud/index.js';
import { CloudState } from '../../src/sandbox/cloud/index.js';
import { HARNESS_PROJECT, type Harness, startHarness, waitFor } from './support.js';

const harnesses: Harness[] = [];
const clouds: Cloud[] = [];
afterEach(async () => {
  await Promise.all(clouds.splice(0).map((cloud) => cloud.disconnect()));
  await Promise.all(harnesses.splice(0).map((harness) => harness.close()));
});

async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const started = await startHarness(options);
  harnesses.push(started);
  return started;
}

function client(on: Harness, user: 'alice' | 'bob', rateLimit = 0): Cloud {
  const cloud = new Cloud({
    projectId: HARNESS_PROJECT,
    host: on.wsUrl,
    username: user,
    cookies: `scratchsessionsid="sid-${user}"`,
    rateLimit,
    reconnectDelay: 0.02,
  });
  clouds.push(cloud);
  return cloud;
}

/** The log entries of a variable, oldest first, as `value`. */
function logged(state: CloudState, name: string): string[] {
  return state
    .logPage(HARNESS_PROJECT, 100, 0)
    .filter((entry) => entry.name === `☁ ${name}`)
    .map((entry) => String(entry.value))
    .reverse();
}

/** Stops the first server with a set crossing its close, and starts the second on the same port. */
async function restartAcrossSet(
  first: Harness,
  sender: Cloud,
  secondState: CloudState,
): Promise<{ second: Harness; written: Promise<void> }> {
  const closing = first.close();
  const written = sender.setVar('x', 41); // written before the sender can see the 1001
  await closing;
  harnesses.splice(harnesses.indexOf(first), 1);
  const second = await harness({ port: first.port, state: secondState });
  return { second, written };
}

describe('a set that crosses a server-initiated close', () => {
  it('is sent again after the reconnect when the server lost it, and arrives exactly once', async () => {
    const first = await harness({ platformRateLimit: null });
    const sender = client(first, 'alice');
    const receiver = client(first, 'bob');
    await Promise.all([sender.connect(), receiver.connect()]);
    const seen: string[] = [];
    receiver.on('set', (e) => seen.push(`${e.name}=${e.value}`));
    const reconnected = new Promise<void>((resolve) => sender.once('connect', () => resolve()));

    // The second server starts empty: a restart without persistence.
    const { second, written } = await restartAcrossSet(first, sender, new CloudState());
    await written; // its promise resolved: the set was written
    await reconnected;
    await waitFor(() => logged(second.state, 'x').length > 0, 'x on the second server');
    // A marker after it: any second copy of x would have arrived before the marker.
    await sender.setVar('marker', 1);
    await waitFor(() => seen.includes('marker=1'), 'the marker at the receiver');
    expect(logged(second.state, 'x')).toEqual(['41']);
    expect(seen.filter((line) => line.startsWith('x='))).toEqual(['x=41']);
    expect(sender.pendingSets).toBe(0);
  });

  it('is applied by the closing server and not sent twice when the server kept it', async () => {
    const state = new CloudState();
    const first = await harness({ platformRateLimit: null, state });
    const sender = client(first, 'alice');
    await sender.connect();
    const reconnected = new Promise<void>((resolve) => sender.once('connect', () => resolve()));
    // The same state again: a restart that keeps its values (as the platform does).
    const { written } = await restartAcrossSet(first, sender, state);
    await written;
    // The closing server still applied the set it received before the client's close arrived.
    expect(logged(state, 'x')).toEqual(['41']);
    await reconnected;
    await sender.setVar('marker', 1);
    await waitFor(() => logged(state, 'marker').length > 0, 'the marker');
    expect(logged(state, 'x')).toEqual(['41']);
  });

  it('restores only the latest value of each variable, in the order they were written', async () => {
    const first = await harness({ platformRateLimit: null });
    const sender = client(first, 'alice');
    await sender.connect();
    const reconnected = new Promise<void>((resolve) => sender.once('connect', () => resolve()));
    const closing = first.close();
    const writes = [sender.setVar('a', 1), sender.setVar('b', 2), sender.setVar('a', 3)];
    await closing;
    harnesses.splice(harnesses.indexOf(first), 1);
    const state = new CloudState();
    const second = await harness({ port: first.port, state });
    await Promise.all(writes);
    await reconnected;
    await sender.setVar('marker', 1);
    await waitFor(() => logged(state, 'marker').length > 0, 'the marker');
    const order = state
      .logPage(HARNESS_PROJECT, 100, 0)
      .reverse()
      .map((entry) => `${entry.name.slice(2)}=${entry.value}`);
    expect(order).toEqual(['b=2', 'a=3', 'marker=1']);
    expect(second.state).toBe(state);
  });

  it('does not resend a set the server confirmed (a pong came back), even to a server that lost it', async () => {
    const first = await harness({ platformRateLimit: null });
    const sender = client(first, 'alice', 0.05); // paced: each set is followed by a ping
    const receiver = client(first, 'bob');
    await Promise.all([sender.connect(), receiver.connect()]);
    const seen: string[] = [];
    receiver.on('set', (e) => seen.push(`${e.name}=${e.value}`));
    await sender.setVar('seen', 1);
    await waitFor(() => seen.includes('seen=1'), 'the receiver to get it');
    // The pong is back: the server answered the ping that followed the set before it read a set
    // the receiver sends once it has the value, and the sender hears that one after the pong.
    const heard: string[] = [];
    sender.on('set', (e) => heard.push(`${e.name}=${e.value}`));
    await receiver.setVar('ack', 1);
    await waitFor(() => heard.includes('ack=1'), 'the sender to hear a later set');
    const reconnected = new Promise<void>((resolve) => sender.once('connect', () => resolve()));
    await first.close();
    harnesses.splice(harnesses.indexOf(first), 1);
    const state = new CloudState();
    await harness({ port: first.port, state });
    await reconnected;
    await sender.setVar('marker', 1);
    await waitFor(() => seen.includes('marker=1'), 'the marker');
    expect(logged(state, 'seen')).toEqual([]);
    expect(seen).toEqual(['seen=1', 'marker=1']);
  });

  it('does not resend after disconnect() and connect(): this side closed after the server read everything', async () => {
    const state = new CloudState();
    const server = await harness({ platformRateLimit: null, state });
    const sender = client(server, 'alice');
    await sender.setVar('y', 1);
    await sender.disconnect();
    // Another user changes it meanwhile: bringing our old value back would undo that.
    const other = client(server, 'bob');
    await other.setVar('y', 2);
    await sender.connect();
    await sender.setVar('marker', 1);
    await waitFor(() => logged(state, 'marker').length > 0, 'the marker');
    expect(logged(state, 'y')).toEqual(['1', '2']);
  });
});

describe('a 4003 "overloaded" close', () => {
  it('emits one error saying what to fix, and the latest value still lands', async () => {
    const server = await harness({ platformRateLimit: { perSecond: 1, burst: 3 } });
    const sender = client(server, 'alice', 0); // rateLimit 0: allowed, and too fast for this server
    const errors: Error[] = [];
    const disconnects: number[] = [];
    sender.on('error', (error) => errors.push(error));
    sender.on('disconnect', (e) => disconnects.push(e.code));
    await sender.connect();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => sender.setVar('burst', i + 1)),
    );
    expect(outcomes.every((o) => o.status === 'fulfilled')).toBe(true);
    await waitFor(
      () => server.state.peek(HARNESS_PROJECT)?.values.get('☁ burst') === '10',
      'the latest value',
    );
    // The server's rate bucket belongs to the user and project, so the value sent again at once
    // after the reconnect may meet it again: a 4003 close each time, until the bucket refills
    // (the waits grow meanwhile, as these connections do not stay up).
    expect(disconnects.length).toBeGreaterThanOrEqual(1);
    expect(disconnects.every((code) => code === 4003)).toBe(true);
    const overloaded = errors.filter((error) => /as overloaded/.test(error.message));
    expect(overloaded).toHaveLength(disconnects.length); // one per close, saying what to fix
    expect(overloaded[0]).toBeInstanceOf(CloudError);
    expect((overloaded[0] as CloudError).closeCode).toBe(4003);
    expect(overloaded[0]!.message).toMatch(
      /^the server closed the connection as overloaded \(4003, server said: "rate limit: [^"]+"\): keep rateLimit ≥ 0\.1 s on the platform \(this connection's is 0 s\)/,
    );
    // From the second close in a row on, a report of the retries as well.
    for (const error of errors.filter((e) => !overloaded.includes(e))) {
      expect(error.message).toMatch(
        /closed the connection [\d.]+ s after the handshake \(code 4003.*\d+ tries in a row/,
      );
    }
    // 1, 2, 3 before the close, then the latest value again after the reconnect: 4-9 are lost.
    expect(logged(server.state, 'burst')).toEqual(['1', '2', '3', '10']);
    expect(sender.state).toBe('open');
  });
});
