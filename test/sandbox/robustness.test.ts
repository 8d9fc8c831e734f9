import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, User } from '../../src/records/records.js';
import { HttpError } from '../../src/sandbox/errors.js';
import { json } from '../../src/sandbox/http-utils.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { Router } from '../../src/sandbox/router.js';
import { createSandboxServer } from '../../src/sandbox/server.js';
import { connectionsOf, waitFor } from '../cloud/support.js';
import { Client, loggedIn, raw, rawUntilServerCloses } from './helpers.js';

/** `promise`, or a failure if it has not settled within `ms` (a bound, not a measure). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

let sandbox: Sandbox;
let anon: Client;
beforeAll(async () => {
  sandbox = await startSandbox();
  anon = new Client(sandbox.url);
});
afterAll(() => sandbox.close());

/** Sends a WebSocket upgrade request for `path`, then resets the connection at once. */
function resetAfterUpgrade(port: number, path: string): Promise<void> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        () => {
          socket.resetAndDestroy();
          resolve();
        },
      );
    });
    socket.on('error', () => resolve());
  });
}

async function stillServes(): Promise<void> {
  const answer = await anon.get(`/api/users/${sandbox.samples.demoUser}`);
  expect((answer.body as User).username).toBe(sandbox.samples.demoUser);
}

describe('bad requests get 4xx JSON and the server keeps serving', () => {
  it('answers unknown paths with 404 JSON', async () => {
    for (const path of [
      '/nope',
      '/api',
      '/api/nope',
      '/api/users',
      '/projects',
      '/assets',
      '/clouddata/logs',
      '/%',
    ]) {
      const answer = await anon.get(path);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(typeof (answer.body as ErrorBody).code).toBe('string');
    }
    expect((await anon.get('/api/nope')).body).toEqual({ code: 'NotFound', message: '' });
    expect((await anon.get('/%E0%A4%A')).status).toBe(400);
    await stillServes();
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const answer = await anon.request('DELETE', `/api/users/${sandbox.samples.demoUser}`);
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
    expect((answer.body as ErrorBody).code).toBe('MethodNotAllowed');
    const post = await anon.request('POST', '/api/projects/123');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, PUT');
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await fetch(`${sandbox.url}/api/users/${sandbox.samples.demoUser}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await res.text()).toBe('');
  });

  it('survives malformed JSON and oversized bodies', async () => {
    const client = await loggedIn(sandbox);
    const id = sandbox.samples.fixtureProjects.cloud_variables_simple;
    for (const body of ['{', 'null', '{"title": "x"', '\u0000', 'x'.repeat(70_000)]) {
      const answer = await client.write('PUT', `/api/projects/${id}`, {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body).toMatchObject({ code: expect.any(String) });
    }
    await stillServes();
  });

  it('answers a body declared past the drain ceiling with 413 and closes instead of reading it', async () => {
    // The server hangs up by itself: it does not wait for the rest of the body.
    const answer = await rawUntilServerCloses(
      sandbox.port,
      'POST /login/ HTTP/1.1\r\nHost: x\r\nCookie: scratchcsrftoken=a\r\nX-CSRFToken: a\r\n' +
        `Content-Length: ${200 * 1024 * 1024}\r\n\r\n${'a'.repeat(1_000)}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain('"code":"PayloadTooLarge"');
    await stillServes();
  });

  it('answers a request that is not HTTP with 400 JSON', async () => {
    const answer = await raw(sandbox.port, 'HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"BadRequest"');
    const truncated = await raw(
      sandbox.port,
      'GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    );
    expect(truncated).toMatch(/^HTTP\/1\.1 400 /);
    await stillServes();
  });

  it('survives upgrade requests to other paths that are reset at once', async () => {
    const before = await connectionsOf(sandbox.server);
    for (let i = 0; i < 50; i++) await resetAfterUpgrade(sandbox.port, '/not-cloud');
    // The server has seen every reset through: its connections are back to what they were.
    await waitFor(async () => (await connectionsOf(sandbox.server)) <= before, 'the reset sockets to go');
    await stillServes();
  });

  it('refuses a doubled X-Token header instead of picking one', async () => {
    const owner = await loggedIn(sandbox);
    const path = `/api/projects/${sandbox.samples.unsharedProject}`;
    const request = (tokens: string[]) =>
      raw(
        sandbox.port,
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
          tokens.map((t) => `X-Token: ${t}\r\n`).join('') +
          '\r\n',
      );
    // The owner's token alone shows the unshared project; the same token twice matches no session.
    expect(await request([owner.token!])).toMatch(/^HTTP\/1\.1 200 /);
    expect(await request([owner.token!, owner.token!])).toMatch(/^HTTP\/1\.1 404 /);
  });

  it('keeps absolute-looking paths as paths', async () => {
    const answer = await raw(
      sandbox.port,
      'GET //evil.example/api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
  });
});

describe('the server layer', () => {
  it('turns a throwing handler into 500 JSON and keeps serving', async () => {
    const router = new Router()
      .get('/boom', () => {
        throw new Error('kaboom');
      })
      .get('/async-boom', async () => {
        await Promise.resolve();
        throw new TypeError('async kaboom');
      })
      .get('/teapot', () => {
        throw new HttpError(418, 'Teapot', 'short and stout');
      })
      .get('/ok', () => json({ ok: true }));
    const app = createSandboxServer({ latency: 0 });
    const seen: unknown[] = [];
    app.server.on('handlerError', (err) => seen.push(err));
    app.setRouter(router);
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    try {
      for (const path of ['/boom', '/async-boom']) {
        const res = await fetch(base + path);
        expect(res.status).toBe(500);
        const body = (await res.json()) as ErrorBody;
        expect(body.code).toBe('InternalServerError');
        expect(body.message).toMatch(/kaboom/);
      }
      expect(seen).toHaveLength(2);
      const teapot = await fetch(`${base}/teapot`);
      expect(teapot.status).toBe(418);
      expect(await teapot.json()).toEqual({ code: 'Teapot', message: 'short and stout' });
      expect(await (await fetch(`${base}/ok`)).json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });

  it('survives upgrade listeners that write to sockets the peer has reset', async () => {
    const app = createSandboxServer({ latency: 0 });
    app.setRouter(new Router());
    // A careless upgrade listener: it answers a moment later and listens for no socket error.
    let written = 0;
    app.server.on('upgrade', (_req, socket: Socket) => {
      setTimeout(() => {
        socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
        written++;
      }, 20);
    });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const port = (app.server.address() as AddressInfo).port;
    try {
      for (let i = 0; i < 30; i++) await resetAfterUpgrade(port, '/anything');
      // Every careless write is done and every socket gone (with whatever error it raised).
      await waitFor(
        async () => written === 30 && (await connectionsOf(app.server)) === 0,
        'the writes and the sockets to end',
      );
      // Still listening, and the process is still here (an uncaught error fails the whole run).
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('closes connections past maxConnections at once, and serves again when some close', async () => {
    const app = createSandboxServer({ latency: 0, maxConnections: 3 });
    app.setRouter(new Router().get('/ok', () => json({ ok: true })));
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    const port = (app.server.address() as AddressInfo).port;
    const open = (): Promise<Socket> =>
      new Promise((resolve, reject) => {
        const socket: Socket = connect(port, '127.0.0.1', () => resolve(socket));
        socket.on('error', reject);
      });
    try {
      const held = [await open(), await open(), await open()];
      // The fourth is accepted by the kernel, then dropped by the server without an answer.
      const answer = await raw(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(answer).toBe('');
      for (const socket of held) socket.destroy();
      // Serves again once the server has seen them close (until then, a try is dropped).
      await waitFor(
        async () =>
          /^HTTP\/1\.1 200 /.test(
            await raw(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
          ),
        'an answer once the held sockets closed',
      );
    } finally {
      await app.close();
    }
  });

  it('answers 503 until the routes are installed', async () => {
    const app = createSandboxServer({ latency: 0 });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`);
      expect(res.status).toBe(503);
    } finally {
      await app.close();
    }
  });
});

describe('latency and lifecycle', () => {
  it('waits the latency before every answer, errors included', async () => {
    // No clock: each answer is still pending once the slow sandbox has logged its request and a
    // whole round trip to a sandbox without latency has come back; then it comes.
    const slow = await startSandbox({ latency: 1_000 });
    try {
      const client = new Client(slow.url);
      const paths = ['/api/health', '/api/nope', '/api/users/x/followers?limit=99'];
      const answered: string[] = [];
      const answers = paths.map((path) =>
        client.get(path).then((answer) => {
          answered.push(path);
          return answer.status;
        }),
      );
      await waitFor(() => slow.traffic.requests === paths.length, 'the three requests arrived');
      expect((await anon.get('/api/health')).status).toBe(200);
      expect(answered).toEqual([]);
      expect(await Promise.all(answers)).toEqual([200, 404, 404]);
    } finally {
      await slow.close();
    }
  });

  it('closes promptly with keep-alive sockets open, and restarts on the same port', async () => {
    const first = await startSandbox({ seed: 7 });
    const port = first.port;
    const client = new Client(first.url);
    // undici keeps this connection alive after the answer.
    expect((await client.get('/api/health')).status).toBe(200);
    // And a request whose body is half sent: a close that waited for it would wait out its timeout.
    const half = connect(port, '127.0.0.1');
    half.on('error', () => undefined);
    half.write('POST /api/nope HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
    await waitFor(() => first.traffic.requests === 2, 'the half-sent request to arrive');
    // Past the keep-alive (5 s) and headers (10 s) timeouts that would otherwise end them.
    await within(first.close(), 4_000, 'the sandbox to close');
    half.destroy();
    await expect(fetch(`${first.url}/api/health`)).rejects.toThrow();

    const second = await startSandbox({ port, seed: 7 });
    try {
      expect(second.port).toBe(port);
      expect(second.url).toBe(first.url);
      expect(second.samples).toEqual(first.samples);
      expect((await new Client(second.url).get('/api/health')).status).toBe(200);
      // The port is taken while the second one runs.
      await expect(startSandbox({ port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await second.close();
    }
  });
});
