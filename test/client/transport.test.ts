import { getEventListeners } from 'node:events';
import { createServer, type Socket } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyLimitError } from '../../src/http/body-limit.js';
import { fetchTransport, undiciTransport } from '../../src/http/transport.js';
import { closeLocal, listenLocal } from '../support/local-server.js';

// The default transport against a raw TCP server that writes each answer byte for byte (interim
// 1xx answers, a Content-Length that lies, a body that never ends), and a custom fetch's transport.

/** What the server writes for a path: the bytes, and whether to keep the socket open after them. */
const answers = new Map<string, { bytes: Buffer | string; hold?: boolean }>();
const requests: string[] = [];
const open = new Set<Socket>();
let base = '';
const server = createServer((socket) => {
  open.add(socket);
  socket.on('close', () => open.delete(socket));
  socket.on('error', () => undefined);
  let head = '';
  socket.on('data', (data) => {
    head += data.toString('latin1');
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    const [method, path] = head.split(' ');
    requests.push(`${method} ${path}`);
    head = head.slice(end + 4);
    const answer = answers.get(path!);
    if (!answer) return void socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    if (answer.hold) socket.write(answer.bytes);
    else socket.end(answer.bytes);
  });
});

beforeAll(async () => {
  base = await listenLocal(server);
});
afterAll(async () => {
  for (const socket of open) socket.destroy();
  await closeLocal(server);
});

const get = (path: string, options: { maxBytes?: number; signal?: AbortSignal; method?: string } = {}) =>
  undiciTransport(`${base}${path}`, {
    method: options.method ?? 'GET',
    headers: {},
    redirect: 'manual',
    maxBytes: options.maxBytes ?? 1000,
    signal: options.signal,
  });
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();

/** Waits (a bounded number of turns) until `condition` holds. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 10_000; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error(`never happened: ${what}`);
}

describe('the default transport', () => {
  it('skips interim 1xx answers and reads the real one', async () => {
    answers.set('/hints', {
      bytes:
        'HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n' +
        'HTTP/1.1 201 Created\r\nContent-Length: 2\r\nX-Id: 7\r\n\r\nok',
    });
    const answer = await get('/hints');
    expect([answer.status, answer.headers.get('x-id'), text(answer.bytes)]).toEqual([201, '7', 'ok']);
  });

  it('keeps every Set-Cookie line', async () => {
    answers.set('/cookies', {
      bytes:
        'HTTP/1.1 200 OK\r\nSet-Cookie: a=1; Path=/\r\nSet-Cookie: b=2; Path=/\r\nX-One: 1\r\nContent-Length: 0\r\n\r\n',
    });
    const answer = await get('/cookies');
    expect(answer.headers.getSetCookie?.()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(answer.headers.get('x-one')).toBe('1');
  });

  it('refuses a Content-Length past the cap before reading the body; takes one at the cap', async () => {
    // The body never comes: the answer is refused on its head alone.
    answers.set('/long', { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 1001\r\n\r\n', hold: true });
    const error = await get('/long').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyLimitError);
    expect(error).toMatchObject({ limit: 1000, status: 200 });
    // The exchange is aborted: the client hangs up the connection that would bring the body.
    await until(() => open.size === 0, 'the client closed the connection');
    answers.set('/exact', { bytes: `HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n${'x'.repeat(1000)}` });
    expect((await get('/exact')).bytes).toHaveLength(1000);
  });

  it('reads no body of a HEAD whatever Content-Length it announces', async () => {
    answers.set('/head', { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n' });
    const head = await get('/head', { method: 'HEAD' });
    expect([head.status, head.bytes.length]).toEqual([200, 0]);
  });

  it('caps an encoded body by its decoded size, not its Content-Length', async () => {
    const packed = zlib.gzipSync(Buffer.alloc(900, 97));
    answers.set('/packed', {
      bytes: Buffer.concat([
        Buffer.from(`HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${packed.length}\r\n\r\n`),
        packed,
      ]),
    });
    expect(text((await get('/packed', { maxBytes: 900 })).bytes)).toBe('a'.repeat(900));
    expect(await get('/packed', { maxBytes: 899 }).catch((e: unknown) => e)).toMatchObject({
      name: 'BodyLimitError',
      limit: 899,
    });
  });

  it('stops at an abort: before the request, or midway through a body, with the signal’s reason', async () => {
    const before = new AbortController();
    before.abort(new Error('not wanted'));
    requests.length = 0;
    await expect(get('/hints', { signal: before.signal })).rejects.toThrow('not wanted');
    expect(requests).toEqual([]);

    answers.set('/endless', { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nstart', hold: true });
    for (const [reason, message] of [
      [new Error('user gave up'), 'user gave up'],
      ['a plain reason', 'a plain reason'],
    ] as const) {
      requests.length = 0;
      const midway = new AbortController();
      const pending = get('/endless', { signal: midway.signal });
      await until(() => requests.length === 1, 'the request reached the server');
      midway.abort(reason);
      const error = await pending.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(message);
      await until(() => open.size === 0, 'the client closed the connection');
    }
  });

  it('takes its abort listener off the signal once the answer is read', async () => {
    const controller = new AbortController();
    expect((await get('/hints', { signal: controller.signal })).status).toBe(201);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('rejects when the peer breaks off mid-body', async () => {
    answers.set('/cut', { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this' });
    const error = await get('/cut').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(BodyLimitError);
  });

  it('asks for gzip, deflate and br unless the caller names an encoding', async () => {
    let seen = '';
    answers.set('/echo', { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n' });
    const capture = createServer((socket) => {
      socket.once('data', (data) => {
        seen = data.toString('latin1');
        socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
      });
    });
    const at = await listenLocal(capture);
    await undiciTransport(`${at}/a?b=1`, {
      method: 'POST',
      headers: { 'X-A': '1' },
      body: 'hi',
      redirect: 'manual',
      maxBytes: 10,
    });
    await closeLocal(capture);
    expect(seen.split('\r\n')[0]).toBe('POST /a?b=1 HTTP/1.1');
    expect(seen.toLowerCase()).toContain('\r\naccept-encoding: gzip, deflate, br\r\n');
    expect(seen).toContain('\r\nX-A: 1\r\n');
    expect(seen.endsWith('\r\n\r\nhi')).toBe(true);
  });
});

describe('the transport over a custom fetch', () => {
  const init = { method: 'GET', headers: {}, redirect: 'manual' as const };

  it('reads a streamed body under the cap', async () => {
    answers.set('/ten', { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789' });
    const transport = fetchTransport((url, request) => fetch(url, request));
    const answer = await transport(`${base}/ten`, { ...init, maxBytes: 10 });
    expect([answer.status, text(answer.bytes)]).toEqual([200, '0123456789']);
    expect(await transport(`${base}/ten`, { ...init, maxBytes: 9 }).catch((e: unknown) => e)).toMatchObject({
      name: 'BodyLimitError',
      limit: 9,
      status: 200,
    });
  });

  it('reads a body without a stream through arrayBuffer(), under the same cap', async () => {
    answers.set('/ten', { bytes: 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789' });
    // A fetch whose answers carry no stream (an older polyfill's shape), or a body that is no web
    // stream (node-fetch 2 answers a Node stream): both read through arrayBuffer().
    const withBody = (body: ReadableStream<Uint8Array> | null) =>
      fetchTransport(async (url, request) => {
        const response = await fetch(url, request);
        return {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
          body,
          arrayBuffer: () => response.arrayBuffer(),
          text: () => response.text(),
        };
      });
    const transport = withBody(null);
    expect(text((await transport(`${base}/ten`, { ...init, maxBytes: 10 })).bytes)).toBe('0123456789');
    const nodeStyle = withBody({} as ReadableStream<Uint8Array>);
    expect(text((await nodeStyle(`${base}/ten`, { ...init, maxBytes: 10 })).bytes)).toBe('0123456789');
    expect(await transport(`${base}/ten`, { ...init, maxBytes: 9 }).catch((e: unknown) => e)).toMatchObject({
      name: 'BodyLimitError',
      limit: 9,
      status: 200,
    });
  });

  it('stops reading a streamed body at the cap, never reading it whole', async () => {
    let pulled = 0;
    const endless = fetchTransport(async () => ({
      status: 200,
      statusText: 'OK',
      headers: new Headers(),
      body: new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled++;
          controller.enqueue(new Uint8Array(4));
        },
      }),
      arrayBuffer: () => Promise.reject(new Error('read whole')),
      text: () => Promise.reject(new Error('read whole')),
    }));
    expect(await endless(`${base}/any`, { ...init, maxBytes: 10 }).catch((e: unknown) => e)).toMatchObject({
      name: 'BodyLimitError',
      limit: 10,
    });
    expect(pulled).toBeLessThan(10);
  });
});
