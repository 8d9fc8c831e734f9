import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/http/http.js';
import { ApiError, Session, type SessionOptions } from '../../src/index.js';
import { caught } from '../support/caught.js';
import { closeLocal, listenLocal } from '../support/local-server.js';

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
  base = await listenLocal(server);
});
afterAll(() => closeLocal(server));

const session = (options: SessionOptions = {}) =>
  new Session({ hosts: { api: base, site: base }, ...options });
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

  it('reports a network failure and a timeout as ApiError without a status', async () => {
    const dead = new Session({ hosts: { api: 'http://127.0.0.1:1' }, retries: 1 });
    const error = await caught(dead.apiGet('/x'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/→ no answer: request failed/);
    handler = () => {}; // never answers
    const slow = await caught(session({ timeout: 200, retries: 0 }).apiGet('/slow'));
    expect(slow.status).toBeUndefined();
    expect(slow.message).toMatch(/timed out after 200 ms/);
  });

  it('parses Retry-After in seconds and as a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});

describe('rate limits and blocks', () => {
  const page = (res: ServerResponse, status: number, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'text/html', ...headers });
    res.end(
      '<!DOCTYPE html><html><head><title>Access denied</title><style>p{}</style></head><body><p>Too much traffic from your address.</p></body></html>',
    );
  };

  it('a 403 page is named a block at once; a 429 or 503 page gets two tries at most', async () => {
    for (const [status, tries] of [
      [403, 1],
      [429, 2],
      [503, 2],
    ] as const) {
      hits = [];
      handler = (_req, res) => page(res, status, { 'retry-after': '0' });
      const error = await caught(session().apiGet('/users/someone'));
      expect(error).toMatchObject({ status, blocked: true });
      expect(error.reason).toBe(
        `the address looks blocked or rate-limited: the service answered ${status} with an HTML page instead of JSON: "Access denied Too much traffic from your address."`,
      );
      expect(hits.length).toBe(tries);
    }
  });

  it('an HTML page where JSON was due (200) is named too, not a JSON parse error', async () => {
    handler = (_req, res) => page(res, 200);
    const error = await caught(session().apiGet('/users/someone'));
    expect(error).toMatchObject({ status: 200, blocked: true });
    expect(error.message).toContain('looks blocked or rate-limited');
    expect(error.message).toContain('"Access denied Too much traffic from your address."');
  });

  it('a JSON 403 is the API’s own answer, not a block', async () => {
    handler = (_req, res) => json(res, 403, { code: 'Forbidden', message: 'not yours' });
    const error = await caught(session().apiGet('/projects/1'));
    expect(error).toMatchObject({ status: 403, blocked: false, reason: 'not yours' });
  });

  it('a write refused with 429 is retried (nothing was done); a 503 to a write is not', async () => {
    hits = [];
    let n = 0;
    handler = (_req, res) => {
      n++;
      if (n === 1) return json(res, 429, { code: 'TooMany', message: 'slow down' }, { 'retry-after': '0' });
      json(res, 200, { saved: true });
    };
    expect(await session().http.json(`${base}/save`, { method: 'PUT', json: {} })).toEqual({ saved: true });
    expect(hits.map((hit) => hit.method)).toEqual(['PUT', 'PUT']);
    hits = [];
    handler = (_req, res) => json(res, 503, { code: 'Unavailable', message: 'busy' });
    await expect(session().http.json(`${base}/save`, { method: 'PUT', json: {} })).rejects.toMatchObject({
      status: 503,
    });
    expect(hits).toHaveLength(1);
  });

  it('a 429 that stays says so and names the budget; a Retry-After past maxRetryDelay fails at once', async () => {
    hits = [];
    handler = (_req, res) =>
      json(res, 429, { code: 'TooMany', message: 'slow down' }, { 'retry-after': '0' });
    const error = await caught(session({ retries: 1 }).apiGet('/users/someone'));
    expect(error).toMatchObject({ status: 429, blocked: false });
    expect(error.reason).toBe(
      "rate-limited: still refused after 2 tries (slow down); lower the session's rateLimit",
    );
    hits = [];
    const later = new Date(Date.now() + 3_600_000).toUTCString();
    handler = (_req, res) =>
      json(res, 429, { code: 'TooMany', message: 'slow down' }, { 'retry-after': later });
    const long = await caught(session().apiGet('/users/someone'));
    expect(long.reason).toMatch(/^the service asks to retry after 3[56]\d\d s$/);
    expect(hits).toHaveLength(1);
  });
});

describe('redirects', () => {
  it('never forwards tokens to another origin', async () => {
    const seen: Record<string, string | undefined>[] = [];
    const other = createServer((req, res) => {
      seen.push({ token: req.headers['x-token'] as string, csrf: req.headers['x-csrftoken'] as string });
      json(res, 200, { ok: true });
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    handler = (_req, res) => {
      res.writeHead(302, { location: `${otherBase}/landing` });
      res.end();
    };
    const client = session().http;
    const answer = await client.json(`${base}/start`, {
      headers: { 'X-Token': 'token-secret-123', 'X-CSRFToken': 'csrf-secret-456' },
    });
    expect(answer).toEqual({ ok: true });
    expect(seen).toEqual([{ token: undefined, csrf: undefined }]);
    other.closeAllConnections();
    await new Promise((resolve) => other.close(resolve));
  });

  it('keeps tokens on a same-origin redirect', async () => {
    const tokens: (string | undefined)[] = [];
    handler = (req, res) => {
      tokens.push(req.headers['x-token'] as string);
      if (req.url === '/a') {
        res.writeHead(301, { location: '/b' });
        return res.end();
      }
      json(res, 200, { at: req.url });
    };
    expect(await session().http.json(`${base}/a`, { headers: { 'X-Token': 'same-origin' } })).toEqual({
      at: '/b',
    });
    expect(tokens).toEqual(['same-origin', 'same-origin']);
  });

  it('a redirected write is an error, not a silent success', async () => {
    handler = (_req, res) => {
      res.writeHead(302, { location: '/login/' });
      res.end();
    };
    const error = await caught(session().http.json(`${base}/save`, { method: 'PUT', json: {} }));
    expect(error).toMatchObject({ status: 302 });
    expect(error.message).toContain('unexpected redirect (302) to /login/');
    const accepted = await session().http.request(`${base}/logout`, { method: 'POST', acceptRedirect: true });
    expect(accepted.status).toBe(302);
  });
});

describe('secrets in errors', () => {
  it('scrubs secrets this client sent from a text error body and reason', async () => {
    handler = (req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`crash while checking x-token ${req.headers['x-token']} for token=abcd1234`);
    };
    const error = await caught(
      session({ retries: 0 }).http.request(`${base}/x`, { headers: { 'X-Token': 'sekrit-token-value' } }),
    );
    const text = `${error.message} ${JSON.stringify(error.body)} ${inspect(error)}`;
    expect(text).not.toContain('sekrit-token-value');
    expect(text).not.toContain('abcd1234');
    expect(text).toContain('[redacted]');
  });

  it('a cut-off JSON answer does not leak the token it carried', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"user": {"id": 1, "username": "me", "token": "cut-off-token-abc');
    };
    const error = await caught(session().http.json(`${base}/session/`));
    expect(error.message).toMatch(/not valid JSON/);
    expect(JSON.stringify(error.body)).not.toContain('cut-off-token-abc');
  });

  it('inspect and JSON of the HTTP client hide the jar', async () => {
    const s = session();
    await s.jar.setCookie('scratchsessionsid="very-secret-session"; Path=/', base);
    expect(inspect(s.http, { depth: 10 })).not.toContain('very-secret-session');
    expect(JSON.stringify(s.http)).not.toContain('very-secret-session');
  });
});

describe('options and limits', () => {
  it('checks timeout and retries when the session is made', () => {
    expect(() => session({ timeout: -1 })).toThrow(RangeError);
    expect(() => session({ retries: -5 })).toThrow(RangeError);
    expect(() => session({ retries: 1.5 })).toThrow(TypeError);
  });

  it('a Retry-After beyond the cap is reported, not slept through', async () => {
    hits = [];
    handler = (_req, res) => json(res, 503, { message: 'maintenance' }, { 'retry-after': '120' });
    const error = await caught(session().apiGet('/health'));
    expect(error).toMatchObject({ status: 503 });
    expect(error.message).toContain('retry after 120 s');
    expect(hits.length).toBe(1);
  });

  it('an awaited window of many pages keeps at most `prefetch` requests in flight, and honours signal', async () => {
    let active = 0;
    let peak = 0;
    handler = (req, res) => {
      active++;
      peak = Math.max(peak, active);
      const limit = Number(new URL(req.url!, base).searchParams.get('limit'));
      setTimeout(() => {
        active--;
        json(
          res,
          200,
          Array.from({ length: limit }, (_, i) => ({ i })),
        );
      }, 5);
    };
    const s = session();
    const rows = await s.users.followers('someone', { limit: 400, prefetch: 3 });
    expect(rows.length).toBe(400);
    expect(peak).toBeLessThanOrEqual(3);
    const controller = new AbortController();
    controller.abort(new Error('stop now'));
    await expect(s.users.followers('someone', { limit: 400, signal: controller.signal })).rejects.toThrow(
      'stop now',
    );
    expect(() => s.users.followers('someone', { onProgress: 1 as never })).toThrow(
      /onProgress must be a function/,
    );
  });
});
