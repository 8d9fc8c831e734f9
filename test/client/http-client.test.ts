import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { CookieJar } from 'tough-cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { HttpClient } from '../../src/http/http.js';
import { caught } from '../support/caught.js';
import { closeLocal, listenLocal } from '../support/local-server.js';

// The HTTP core on its own against a server of the test's over loopback: which cookies count as
// secrets, how many times each answer is tried, and what a redirect of a write says.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.end('{}');
let hits: string[] = [];
let base = '';
const server = createServer((req, res) => {
  hits.push(`${req.method} ${req.url}`);
  handler(req, res);
});

beforeAll(async () => {
  base = await listenLocal(server);
});
afterAll(async () => {
  await closeLocal(server);
});

// Backoff waits are capped to 0 ms (maxRetryDelay) so the retries follow at once.
const client = (options: ConstructorParameters<typeof HttpClient>[0] = {}) =>
  new HttpClient({ retries: 2, maxRetryDelay: 0, rateLimit: Number.POSITIVE_INFINITY, ...options });

describe('the secrets of an HTTP client', () => {
  it('are its credential cookies of every host, unquoted, remembered tokens and extras of 4 characters or more', async () => {
    const jar = new CookieJar();
    await jar.setCookie('scratchsessionsid="abcdef"; Path=/', 'https://scratch.mit.edu/');
    await jar.setCookie('scratchcsrftoken=csrf1234; Path=/', 'https://scratch.mit.edu/');
    await jar.setCookie('scratchlanguage=en; Path=/', 'https://scratch.mit.edu/');
    await jar.setCookie('seen_banner=yes12345; Path=/', 'https://scratch.mit.edu/');
    await jar.setCookie('auth=xyz; Path=/', 'https://api.scratch.mit.edu/');
    await jar.setCookie('mysid=local123; Path=/', base);
    const http = client({ jar });
    http.rememberSecret('tok1');
    http.rememberSecret('abc');
    http.rememberSecret(null);
    http.rememberSecret(undefined);
    expect(http.secretsFor(`${base}/x`, ['extra-secret', null, 'ab', undefined]).sort()).toEqual(
      ['abcdef', 'csrf1234', 'extra-secret', 'local123', 'tok1'].sort(),
    );
    // An unreadable URL still answers the whole jar's secrets.
    expect(http.secretsFor('not a url').sort()).toEqual(['abcdef', 'csrf1234', 'local123', 'tok1'].sort());
  });

  it('keeps the 256 most recent remembered secrets', () => {
    const http = client();
    for (let i = 0; i < 300; i++) http.rememberSecret(`secret-${i}`);
    http.rememberSecret('secret-50');
    const secrets = http.secretsFor(base);
    expect(secrets).toHaveLength(256);
    expect(secrets).toContain('secret-50');
    expect(secrets).not.toContain('secret-43');
    expect(secrets).toContain('secret-299');
    expect(secrets[0]).toBe('secret-44');
    expect(secrets.at(-1)).toBe('secret-50');
  });

  it('are never pushed out of the remembered few hundred by values too short to be secrets', () => {
    const http = client();
    http.rememberSecret('the-real-token');
    for (let i = 0; i < 300; i++) http.rememberSecret(String(i));
    expect(http.secretsFor(base)).toEqual(['the-real-token']);
  });

  it('include every host’s credential cookies when the jar holds one without a value', async () => {
    const jar = new CookieJar();
    // Serialized, a cookie of empty value has no `value` at all.
    await jar.setCookie('scratchsessionsid=; Path=/', 'https://a.example/');
    await jar.setCookie('scratchcsrftoken=csrf1234; Path=/', 'https://b.example/');
    expect(client({ jar }).secretsFor('https://c.example/')).toEqual(['csrf1234']);
  });

  it('are never shown by inspect or JSON', async () => {
    const jar = new CookieJar();
    await jar.setCookie('scratchsessionsid=abcdef', 'https://scratch.mit.edu/');
    const http = client({ jar, userAgent: 'ua/1', timeout: 5000 });
    expect(inspect(http)).toBe(
      'HttpClient { userAgent: "ua/1", timeout: 5000, retries: 2, jar: [redacted] }',
    );
    expect(JSON.stringify(http)).toBe('{"userAgent":"ua/1","timeout":5000,"retries":2}');
  });
});

describe('tries of an HTTP client', () => {
  it('tries a read 1 + retries times on 5xx, a write once, and a 429 even for a write', async () => {
    handler = (_req, res) => {
      res.statusCode = 503;
      res.end('{"code":"down"}');
    };
    hits = [];
    expect((await caught(client().request(`${base}/r`))).status).toBe(503);
    expect(hits).toEqual(['GET /r', 'GET /r', 'GET /r']);
    hits = [];
    expect((await caught(client().request(`${base}/w`, { method: 'post' }))).status).toBe(503);
    expect(hits).toEqual(['POST /w']);
    hits = [];
    await caught(client().request(`${base}/w`, { method: 'POST', retry: true }));
    expect(hits).toHaveLength(3);
    handler = (_req, res) => {
      res.statusCode = 429;
      res.end('{"code":"slow down"}');
    };
    hits = [];
    expect((await caught(client().request(`${base}/w`, { method: 'POST' }))).status).toBe(429);
    expect(hits).toHaveLength(3);
    hits = [];
    await caught(client().request(`${base}/w`, { method: 'POST', retry: false }));
    expect(hits).toHaveLength(1);
    hits = [];
    handler = (_req, res) => {
      res.statusCode = 404;
      res.end('{}');
    };
    expect((await caught(client().request(`${base}/missing`))).status).toBe(404);
    expect(hits).toEqual(['GET /missing']);
  });

  it('answers a success after failures, and gives a refused group back its rate', async () => {
    let n = 0;
    handler = (_req, res) => {
      n++;
      res.statusCode = n === 1 ? 500 : 200;
      res.end(`{"n":${n}}`);
    };
    const http = client();
    const answer = await http.request(`${base}/flaky`);
    expect([answer.status, Buffer.from(answer.bytes).toString()]).toEqual([200, '{"n":2}']);
  });

  it('fails at a redirect of a write unless told to take it, naming where it went', async () => {
    handler = (_req, res) => {
      res.statusCode = 302;
      res.setHeader('location', '/login/');
      res.end();
    };
    const error = await caught(client().request(`${base}/write`, { method: 'POST' }));
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.reason]).toEqual([302, 'unexpected redirect (302) to /login/']);
    const taken = await client().request(`${base}/write`, { method: 'POST', acceptRedirect: true });
    expect(taken.status).toBe(302);
    handler = (_req, res) => {
      res.statusCode = 303;
      res.end();
    };
    expect((await caught(client().request(`${base}/write`, { method: 'POST' }))).reason).toBe(
      'unexpected redirect (303) to nowhere',
    );
  });

  it('gives up at once when the service asks to wait longer than maxRetryDelay', async () => {
    handler = (_req, res) => {
      res.statusCode = 503;
      res.setHeader('retry-after', '120');
      res.end('{}');
    };
    hits = [];
    const error = await caught(client({ maxRetryDelay: 60_000 }).request(`${base}/later`));
    expect([error.status, error.reason]).toEqual([503, 'the service asks to retry after 120 s']);
    expect(hits).toHaveLength(1);
  });

  it('tries a page that looks like a block twice at most, and says so', async () => {
    handler = (_req, res) => {
      res.statusCode = 503;
      res.end('<html><body><h1>Blocked</h1></body></html>');
    };
    hits = [];
    const error = await caught(client({ retries: 5 }).request(`${base}/blocked`));
    expect(error.reason).toBe(
      'the address looks blocked or rate-limited: the service answered 503 with an HTML page instead of JSON: "Blocked"',
    );
    expect(hits).toHaveLength(2);
  });
});
