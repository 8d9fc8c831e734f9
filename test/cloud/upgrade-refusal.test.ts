/**
 * Upgrades the cloud server refuses (review findings 1 and 21): a peer that resets the
 * connection while the refusal is written must not crash the process, and every refusal is a
 * JSON `{"code","message"}` answer, including the ones `ws` would have written as plain text.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { useSandbox } from '../support/sandbox.js';
import { connectionsOf, HARNESS_PROJECT, startHarness, waitFor } from './support.js';

const ctx = useSandbox();
const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

function upgrade(path: string, headers: Record<string, string> = {}, method = 'GET'): string {
  const all: Record<string, string> = {
    Host: '127.0.0.1',
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': KEY,
    'Sec-WebSocket-Version': '13',
    ...headers,
  };
  const lines = Object.entries(all)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** Sends a request and reads the whole answer (the server closes after it). */
function exchange(
  port: number,
  request: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket: net.Socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

/** Sends a request and resets the connection at once (a TCP RST), without reading anything. */
function sendAndReset(port: number, request: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(request);
      socket.resetAndDestroy();
      resolve();
    });
    socket.on('error', () => resolve());
  });
}

// An uncaught exception in this process is the crash the review found: record it as a failure.
const uncaught: Error[] = [];
const onUncaught = (error: Error) => uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', onUncaught);
});
afterEach(() => {
  process.off('uncaughtException', onUncaught);
});

describe('refused upgrades and resetting peers', () => {
  // The harness is a plain node:http server (nothing else guards its sockets); the sandbox is
  // the whole thing, as `scratchlab sandbox` runs it.
  for (const where of ['a plain http server', 'the sandbox'] as const) {
    it(`survives hundreds of peers that reset right after an upgrade to an unknown path (${where})`, async () => {
      const harness = where === 'the sandbox' ? null : await startHarness();
      const port = harness?.port ?? ctx.sandbox.port;
      const server = harness?.server ?? ctx.sandbox.server;
      const before = await connectionsOf(server);
      // Every 50 peers, and at the end, the server has seen each reset through (its connections
      // are back to what they were): any error a reset raised has been raised by then.
      const drained = () => waitFor(async () => (await connectionsOf(server)) <= before, 'the resets to end');
      for (let i = 0; i < 300; i++) {
        await sendAndReset(port, upgrade('/not-cloud'));
        if (i % 50 === 0) await drained();
      }
      await drained();
      expect(uncaught).toEqual([]);
      // Still serving: HTTP, and a cloud connection.
      const logsHost = harness?.logsHost ?? ctx.sandbox.hosts.cloudHttp;
      const projectId = harness ? HARNESS_PROJECT : ctx.sandbox.cloudProjectId;
      expect((await fetch(`${logsHost}/logs?projectid=${projectId}&limit=1`)).status).toBe(200);
      const cloud = Cloud.alternate('after-resets', {
        purpose: 'tests',
        contact: '@tester',
        host: harness?.altUrl ?? ctx.sandbox.alternateCloudHost,
      });
      await cloud.connect();
      expect(cloud.state).toBe('open');
      await cloud.disconnect();
      await harness?.close();
    });
  }

  it('survives peers that reset after an upgrade refused during close() (503)', async () => {
    const harness = await startHarness({ closeTimeout: 1500 });
    // A peer that took the upgrade but never answers our close keeps close() waiting.
    const silent = net.connect(harness.port, '127.0.0.1');
    silent.on('error', () => undefined);
    silent.write(upgrade('/clouddata'));
    await new Promise<void>((resolve) => silent.once('data', () => resolve()));
    const closing = harness.cloud.close();
    const refused = await exchange(harness.port, upgrade('/clouddata'));
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toEqual({
      code: 'ServiceUnavailable',
      message: 'the cloud server is shutting down',
    });
    const before = await connectionsOf(harness.server);
    for (let i = 0; i < 100; i++) await sendAndReset(harness.port, upgrade('/clouddata'));
    // Only the silent peer is left once the server has seen every reset through.
    await waitFor(async () => (await connectionsOf(harness.server)) <= before, 'the resets to end');
    expect(uncaught).toEqual([]);
    silent.destroy();
    await closing;
    await harness.close();
  });
});

describe('refusals are JSON', () => {
  let port: number;
  beforeAll(() => {
    port = ctx.sandbox.port;
  });
  afterAll(() => expect(uncaught).toEqual([]));

  it('404 for another path', async () => {
    const answer = await exchange(port, upgrade('/elsewhere'));
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toMatchObject({
      code: 'NotFound',
      message: expect.stringContaining('/clouddata'),
    });
  });

  it('400 for a bad or missing Sec-WebSocket-Key, before ws sees it', async () => {
    for (const key of ['not-a-key', '']) {
      const answer = await exchange(port, upgrade('/clouddata', { 'Sec-WebSocket-Key': key }));
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toEqual({
        code: 'BadRequest',
        message: 'missing or invalid Sec-WebSocket-Key header (16 random bytes in base64)',
      });
    }
  });

  it('400 for an unsupported version or a malformed protocol header, 405 for another method', async () => {
    const version = await exchange(port, upgrade('/clouddata-alt', { 'Sec-WebSocket-Version': '7' }));
    expect(version.status).toBe(400);
    expect(version.headers['sec-websocket-version']).toBe('13, 8');
    expect(JSON.parse(version.body).code).toBe('BadRequest');
    // Refused by ws itself, after our checks: still JSON.
    const protocol = await exchange(
      port,
      upgrade('/clouddata', { 'Sec-WebSocket-Protocol': 'bad@protocol' }),
    );
    expect(protocol.status).toBe(400);
    expect(JSON.parse(protocol.body)).toEqual({
      code: 'BadRequest',
      message: 'Invalid Sec-WebSocket-Protocol header',
    });
    const method = await exchange(port, upgrade('/clouddata', {}, 'POST'));
    expect(method.status).toBe(405);
    expect(JSON.parse(method.body).code).toBe('MethodNotAllowed');
  });
});
