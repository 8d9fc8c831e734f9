/**
 * The sandbox's cloud server survives its clients (issue 10 §2): peers that never read, never
 * handshake, open too many sockets or send huge frames. Real raw TCP sockets that do the upgrade
 * by hand and then never read a byte, so nothing on the client side drains the server's buffers.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CloudState } from '../../src/sandbox/cloud/index.js';
import { HARNESS_PROJECT, type Harness, RawSocket, startHarness, waitFor } from './support.js';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});
async function harnessWith(options: Parameters<typeof startHarness>[0]): Promise<Harness> {
  const harness = await startHarness(options);
  harnesses.push(harness);
  return harness;
}

/** A client frame (masked with a zero key, which RFC 6455 allows) holding `text`. */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const length = payload.length;
  const head =
    length < 126
      ? Buffer.from([0x81, 0x80 | length])
      : Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff]);
  return Buffer.concat([head, Buffer.alloc(4), payload]);
}

/**
 * A raw socket that upgrades on `path`, optionally sends a handshake right behind the request,
 * and then reads nothing at all.
 */
function deafSocket(port: number, path: string, handshake: object | null, cookie?: string): net.Socket {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  const headers = [
    `GET ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version: 13',
    ...(cookie ? [`Cookie: ${cookie}`] : []),
  ];
  socket.write(`${headers.join('\r\n')}\r\n\r\n`);
  if (handshake) socket.write(clientFrame(`${JSON.stringify(handshake)}\n`));
  socket.pause();
  return socket;
}

describe('peers that never read', () => {
  it('40 of them on a 13 MB project stay within the buffer budget and are cut off once stalled', async () => {
    // The worst project the alternate limits allow: 128 values of 100 000 digits (≈ 13 MB of values frame).
    const state = new CloudState();
    const values = state.project(HARNESS_PROJECT).values;
    for (let i = 0; i < 128; i++) values.set(`☁ v${i}`, String(i % 10).repeat(100_000));
    const budget = 40 * 1024 * 1024;
    const harness = await harnessWith({
      state,
      maxBufferedTotal: budget,
      stallTimeout: 1000,
      closeTimeout: 300,
    });
    const before = process.memoryUsage().arrayBuffers;
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, harness.cloud.bufferedBytes);
    }, 5);
    const sockets = Array.from({ length: 40 }, () =>
      deafSocket(
        harness.port,
        '/clouddata',
        { method: 'handshake', user: 'alice', project_id: HARNESS_PROJECT },
        'scratchsessionsid=sid-alice',
      ),
    );
    try {
      await waitFor(() => harness.cloud.connections === 40, 'all 40 upgrades');
      const grown = process.memoryUsage().arrayBuffers - before;
      // Every one of them gone: the refused ones closed 4003, the stalled ones cut off.
      await waitFor(() => harness.cloud.connections === 0, 'every deaf peer to be dropped', 30_000);
      expect(most).toBeGreaterThan(0); // some did get their values frame
      expect(most).toBeLessThanOrEqual(budget);
      // One values frame shared by every handshake, not 40 copies (the old server grew by ≈ 2 GB).
      expect(grown).toBeLessThan(200 * 1024 * 1024);
    } finally {
      clearInterval(watch);
      for (const socket of sockets) socket.destroy();
    }
  });

  it('closes a socket that does not handshake in time, reading or not', async () => {
    const harness = await harnessWith({ handshakeTimeout: 200, closeTimeout: 200 });
    const idle = new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid=sid-alice' });
    await idle.opened;
    const closed = await idle.closed;
    expect(closed.code).toBe(4000);
    expect(closed.reason).toMatch(/no handshake within 200 ms/);
    const deaf = Array.from({ length: 20 }, () => deafSocket(harness.port, '/clouddata-alt', null));
    await waitFor(() => harness.cloud.connections === 20, 'the deaf upgrades');
    await waitFor(() => harness.cloud.connections === 0, 'the deaf sockets to be cut off');
    for (const socket of deaf) socket.destroy();
  });

  it('drops a receiver whose unread bytes pass the per-connection bound with 4003', async () => {
    const state = new CloudState();
    state.project(HARNESS_PROJECT).values.set('☁ v', '1');
    const harness = await harnessWith({
      state,
      platformRateLimit: null,
      maxBufferedPerConnection: 64 * 1024,
      closeTimeout: 200,
    });
    const deaf = deafSocket(
      harness.port,
      '/clouddata',
      { method: 'handshake', user: 'bob', project_id: HARNESS_PROJECT },
      'scratchsessionsid=sid-bob',
    );
    await waitFor(() => harness.cloud.members('platform', HARNESS_PROJECT) === 1, 'the deaf handshake');
    const sender = new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid=sid-alice' });
    await sender.opened;
    sender.send({ method: 'handshake', user: 'alice', project_id: HARNESS_PROJECT });
    await waitFor(() => harness.cloud.members('platform', HARNESS_PROJECT) === 2, 'the sender');
    const value = '9'.repeat(256);
    for (let i = 0; harness.cloud.members('platform', HARNESS_PROJECT) === 2 && i < 20_000; i++) {
      sender.send({ method: 'set', name: '☁ v', value, user: 'alice', project_id: HARNESS_PROJECT });
      if (i % 200 === 0) await new Promise((resolve) => setTimeout(resolve, 15));
    }
    await waitFor(
      () => harness.cloud.members('platform', HARNESS_PROJECT) === 1,
      'the deaf receiver dropped',
    );
    expect(sender.closeInfo).toBeNull();
    expect(harness.cloud.bufferedBytes).toBeLessThan(8 * 1024 * 1024);
    deaf.destroy();
    await sender.close();
  });
});

describe('peers that vanish', () => {
  it('are cut off when they do not answer a ping; peers that answer stay', async () => {
    const harness = await harnessWith({ pingInterval: 100, handshakeTimeout: 60_000, stallTimeout: 60_000 });
    const gone = deafSocket(harness.port, '/clouddata', null);
    const alive = new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid=sid-alice' });
    await alive.opened;
    await waitFor(() => harness.cloud.connections === 2, 'both upgrades');
    await waitFor(() => harness.cloud.connections === 1, 'the silent peer to be cut off');
    // Four more rounds of pings, each answered (ws answers a ping itself): the one that answers stays.
    let pings = 0;
    alive.ws.on('ping', () => pings++);
    await waitFor(() => pings >= 4, 'four more pings');
    expect(alive.closeInfo).toBeNull();
    expect(harness.cloud.connections).toBe(1);
    gone.destroy();
    await alive.close();
  });
});

describe('connection caps', () => {
  it('answers 429 past the per-address cap and takes the next one once a socket leaves', async () => {
    const harness = await harnessWith({ maxConnectionsPerAddress: 3 });
    const open = Array.from({ length: 3 }, () => new RawSocket(harness.wsUrl));
    await Promise.all(open.map((s) => s.opened));
    const extra = new RawSocket(harness.wsUrl);
    await expect(extra.opened).rejects.toThrow(/429/);
    await open[0]!.close();
    await waitFor(() => harness.cloud.connections < 3, 'a free place');
    const again = new RawSocket(harness.wsUrl);
    await again.opened;
    await Promise.all([again.close(), open[1]!.close(), open[2]!.close()]);
  });

  it('answers 503 past the cap in all', async () => {
    const harness = await harnessWith({ maxConnections: 2, handshakeTimeout: 60_000 });
    const open = [new RawSocket(harness.wsUrl), new RawSocket(harness.wsUrl)];
    await Promise.all(open.map((s) => s.opened));
    const extra = new RawSocket(harness.wsUrl);
    await expect(extra.opened).rejects.toThrow(/503/);
    await Promise.all(open.map((s) => s.close()));
  });
});

describe('hostile frames', () => {
  it('closes a frame past the payload bound (1009) and keeps serving the others', async () => {
    const state = new CloudState();
    state.project(HARNESS_PROJECT).values.set('☁ v', '1');
    const harness = await harnessWith({ state });
    const huge = new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid=sid-alice' });
    await huge.opened;
    huge.send('x'.repeat(2 * 1024 * 1024));
    expect((await huge.closed).code).toBe(1009);
    const reset = deafSocket(harness.port, '/clouddata', null);
    reset.resetAndDestroy();
    const fine = new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid=sid-bob' });
    await fine.opened;
    fine.send({ method: 'handshake', user: 'bob', project_id: HARNESS_PROJECT });
    expect(await fine.frame(1)).toBe('{"method":"set","name":"☁ v","value":"1"}');
    await fine.close();
  });
});
