/**
 * The `Cloud` client against a server that answers like TurboWarp's cloud-server (see
 * `client-peer.ts`): no answer at all to a handshake on a project without values, text warning
 * frames, 4002 for a bad username, text values dropped silently.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Cloud, CloudError, type CloudSetEvent, decode, encode } from '../../src/index.js';
import { type Peer, type PeerHooks, startPeer } from './client-peer.js';
import { waitFor } from './support.js';

const peers: Peer[] = [];
const clouds: Cloud[] = [];
afterEach(async () => {
  await Promise.all(clouds.splice(0).map((cloud) => cloud.disconnect()));
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

async function peer(hooks: PeerHooks = {}): Promise<Peer> {
  const started = await startPeer(hooks);
  peers.push(started);
  return started;
}

/**
 * A bot on the peer. `initialValuesWait` is a minute: a client that waited for it (instead of
 * telling the handshake's answer) would make these tests time out.
 */
function bot(target: Peer, projectId: string, options: Partial<Parameters<typeof Cloud.alternate>[1]> = {}) {
  const cloud = Cloud.alternate(projectId, {
    purpose: 'tests',
    contact: '@tester',
    host: target.url,
    initialValuesWait: 60,
    ...options,
  });
  clouds.push(cloud);
  return cloud;
}

describe('the answer to a handshake', () => {
  it('connect() on a project without values settles at once: the server sends nothing then', async () => {
    const server = await peer();
    const cloud = bot(server, 'empty');
    await cloud.connect();
    expect(cloud.state).toBe('open');
    expect(cloud.getAllVars()).toEqual({});
    expect(server.handshakes).toBe(1);
  });

  it('a set that arrives just after connecting is live, not initial', async () => {
    const server = await peer();
    const cloud = bot(server, 'live');
    const seen: CloudSetEvent[] = [];
    cloud.on('set', (event) => seen.push(event));
    await cloud.connect();
    server.broadcast('live', '☁ score', '12');
    await waitFor(() => seen.length === 1, 'the live set');
    expect(seen).toEqual([{ name: 'score', value: '12', initial: false }]);
  });

  it('the values frame after the handshake is initial; later frames are not', async () => {
    const server = await peer();
    const writer = bot(server, 'values', { username: 'writer' });
    await writer.setVars({ a: 1, b: '2.5' });
    await waitFor(() => Object.keys(server.values('values')).length === 2, 'the values on the server');
    const reader = bot(server, 'values', { username: 'reader' });
    const seen: CloudSetEvent[] = [];
    reader.on('set', (event) => seen.push(event));
    await reader.connect();
    expect(reader.getAllVars()).toEqual({ a: '1', b: '2.5' });
    await writer.setVar('a', 3);
    await waitFor(() => seen.length === 3, 'the live set');
    expect(seen).toEqual([
      { name: 'a', value: '1', initial: true },
      { name: 'b', value: '2.5', initial: true },
      { name: 'a', value: '3', initial: false },
    ]);
  });

  it('a text warning frame is a warning, not the answer: connect() waits for the values', async () => {
    const server = await peer({
      beforeValues: (ws) =>
        ws.send('Please update your cloud library: this server will soon require a newer one.'),
    });
    const writer = bot(server, 'warned', { username: 'writer' });
    await writer.setVar('x', 7);
    await waitFor(() => server.values('warned')['☁ x'] === '7', 'the value on the server');
    const warnings: string[] = [];
    const reader = bot(server, 'warned', { username: 'reader' });
    reader.on('warning', ({ text }) => warnings.push(text));
    await reader.connect();
    expect(reader.getVar('x')).toBe('7');
    expect(warnings).toEqual([
      'Please update your cloud library: this server will soon require a newer one.',
    ]);
  });

  it('a warning before any answer does not settle connect(); the close that follows rejects it', async () => {
    const server = await peer();
    const cloud = bot(server, 'cookie', { cookies: 'scratchsessionsid="abc"' });
    const warnings: string[] = [];
    const disconnects: number[] = [];
    cloud.on('warning', ({ text }) => warnings.push(text));
    cloud.on('disconnect', ({ code }) => disconnects.push(code));
    cloud.on('error', () => undefined);
    const failure = await cloud.connect().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CloudError);
    expect((failure as CloudError).closeCode).toBe(4005);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^The cloud data library you are using sends us your login token/);
    expect(disconnects).toEqual([]); // never ready, so never disconnected
    expect(cloud.state).toBe('failed');
  });

  it('waits for the values on a socket that cannot ping, and still skips warnings', async () => {
    const server = await peer({ beforeValues: (ws) => ws.send('not JSON at all') });
    const writer = bot(server, 'noping', { username: 'writer' });
    await writer.setVar('v', 1);
    await waitFor(() => server.values('noping')['☁ v'] === '1', 'the value on the server');
    // A WHATWG-style socket: no ping, no `on`.
    class PlainSocket {
      readonly #ws: WebSocket;
      constructor(url: string, init: { headers: Record<string, string> }) {
        this.#ws = new WebSocket(url, { headers: init.headers });
      }
      get readyState() {
        return this.#ws.readyState;
      }
      send(data: string) {
        this.#ws.send(data);
      }
      close(code?: number, reason?: string) {
        this.#ws.close(code, reason);
      }
      addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: object) => void) {
        this.#ws.addEventListener(type, listener as never);
      }
    }
    const reader = bot(server, 'noping', { username: 'reader', WebSocket: PlainSocket });
    const warnings: string[] = [];
    reader.on('warning', ({ text }) => warnings.push(text));
    await reader.connect();
    expect(reader.getVar('v')).toBe('1');
    expect(warnings).toEqual(['not JSON at all']);
  });
});

describe('frames that are not cloud messages', () => {
  it('surface as one warning per frame (bounded); the messages of the same frame still count', async () => {
    const server = await peer();
    const cloud = bot(server, 'mixed');
    const warnings: string[] = [];
    const seen: string[] = [];
    cloud.on('warning', ({ text }) => warnings.push(text));
    cloud.on('set', ({ name, value }) => seen.push(`${name}=${value}`));
    await cloud.connect();
    const [socket] = server.sockets();
    socket!.send(['server restarting soon', '{"method":"set","name":"☁ a","value":"5"}', '[1,2]'].join('\n'));
    socket!.send('x'.repeat(5000));
    await waitFor(() => warnings.length === 2, 'two warnings');
    expect(warnings[0]).toBe('server restarting soon\n[1,2]');
    expect(warnings[1]).toBe(`${'x'.repeat(1000)}…`);
    expect(seen).toEqual(['a=5']);
    expect(cloud.state).toBe('open');
  });
});

describe('values: numeric only, on every host', () => {
  it('Cloud.alternate refuses text before sending; the real server would drop it without a word', async () => {
    const server = await peer();
    const a = bot(server, 'text', { username: 'a' });
    const b = bot(server, 'text', { username: 'b' });
    await Promise.all([a.connect(), b.connect()]);
    expect(a.allowNonNumeric).toBe(false);
    await expect(a.setVar('greeting', 'hello')).rejects.toThrow(/must be numeric.*encode\(\)/);
    // Opting in sends it, and the server drops it silently: what the old default lost.
    const optIn = bot(server, 'text', { username: 'c', allowNonNumeric: true });
    await optIn.setVar('greeting', 'hello');
    await waitFor(() => server.dropped === 1, 'the server to drop it');
    // Encoded text arrives.
    const seen: string[] = [];
    b.on('set', ({ value }) => seen.push(decode(value)));
    await a.setVar('greeting', encode('hello'));
    await waitFor(() => seen.length === 1, 'the encoded greeting');
    expect(seen).toEqual(['hello']);
    expect(server.values('text')).toEqual({ '☁ greeting': encode('hello') });
  });
});

describe('close codes of the real server', () => {
  it('4002 for a username it refuses is permanent: one error, no retry, no disconnect event', async () => {
    const server = await peer();
    const cloud = bot(server, 'names', { username: 'not a valid name!' });
    const errors: Error[] = [];
    const disconnects: unknown[] = [];
    cloud.on('error', (error) => errors.push(error));
    cloud.on('disconnect', (info) => disconnects.push(info));
    await expect(cloud.connect()).rejects.toThrow(/closed with 4002: bad username/);
    expect(errors.map((e) => (e as CloudError).closeCode)).toEqual([4002]);
    expect(disconnects).toEqual([]);
    expect(cloud.state).toBe('failed');
    expect(server.connections).toBe(1);
  });

  it('disconnect is emitted for a ready connection that goes down, once', async () => {
    let kill: (() => void) | undefined;
    const server = await peer({ handshaken: (ws) => (kill ??= () => ws.terminate()) });
    const cloud = bot(server, 'drop', { reconnectDelay: 0.01 });
    const disconnects: { code: number; willReconnect: boolean }[] = [];
    const connects: boolean[] = [];
    cloud.on('disconnect', ({ code, willReconnect }) => disconnects.push({ code, willReconnect }));
    cloud.on('connect', ({ reconnected }) => connects.push(reconnected));
    await cloud.connect();
    kill!();
    await waitFor(() => connects.length === 2, 'the reconnect');
    expect(disconnects).toEqual([{ code: 1006, willReconnect: true }]);
    expect(connects).toEqual([false, true]);
  });
});
