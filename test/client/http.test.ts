import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/http.js';
import { ApiError, Session } from '../../src/index.js';
import { caught } from '../support/caught.js';

// A tiny real server over loopback whose answers each test scripts: this tests the client's
// retry and timeout rules against real sockets, not a stubbed fetch.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.end('{}');
let hits: { method: string; url: string }[] = [];
let base = '';
const server = createServer((req, res) => {
  hits.push({ method: req.method!, url: req.url! });
  handler(req, res);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const session = (options = {}) => new Session({ hosts: { api: base, site: base }, ...options });
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('retries', () => {
  it('retries a GET after 503 and 429, honouring Retry-After', async () => {
    hits = [];
    let n = 0;
    handler = (_req, res) => {
      n++;
      if (n === 1) return json(res, 503, { code: 'Unavailable', message: 'busy' });
      if (n === 2) return json(res, 429, { code: 'TooMany', message: 'slow down' }, { 'retry-after': '0' });
      json(res, 200, { ok: true });
    };
    expect(await session().apiGet('/health')).toEqual({ ok: true });
    expect(hits.length).toBe(3);
  });

  it('gives up after the configured retries with the last status and reason', async () => {
    hits = [];
    handler = (_req, res) => json(res, 500, { code: 'Boom', message: 'database on fire' });
    const error = await session({ retries: 2 })
      .apiGet('/health')
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, reason: 'database on fire' });
    expect(hits.length).toBe(3);
  });

  it('never retries a write blindly', async () => {
    hits = [];
    handler = (req, res) => {
      if (req.url === '/csrf_token/') {
        res.writeHead(200, { 'set-cookie': 'scratchcsrftoken=abcdefgh; Path=/' });
        return res.end();
      }
      json(res, 503, { code: 'Unavailable', message: 'busy' });
    };
    const s = session();
    await expect(s.login('someone', 'pw')).rejects.toMatchObject({ status: 503 });
    expect(hits.filter((h) => h.method === 'POST').length).toBe(1);
  });

  it('reports a network failure and a timeout as ApiError status 0', async () => {
    const dead = new Session({ hosts: { api: 'http://127.0.0.1:1' }, retries: 1 });
    const error = await caught(dead.apiGet('/x'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(error.message).toMatch(/request failed/);
    handler = () => {}; // never answers
    const slow = await caught(session({ timeout: 200, retries: 0 }).apiGet('/slow'));
    expect(slow).toMatchObject({ status: 0 });
    expect(slow.message).toMatch(/timed out after 200 ms/);
  });

  it('parses Retry-After in seconds and as a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
