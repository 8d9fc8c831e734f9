import { constants as bufferConstants } from 'node:buffer';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { CookieJar, MemoryCookieStore } from 'tough-cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import {
  DEFAULT_MAX_DOWNLOAD_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_USER_AGENT,
  HttpClient,
  MAX_ERROR_BODY_CHARS,
  readJson,
  retryAfterMs,
} from '../../src/http/http.js';
import type { RateLimitWait } from '../../src/http/request-budget.js';
import { MAX_JSON_DEPTH } from '../../src/records/json.js';
import { caught } from '../support/caught.js';
import { closeLocal, listenLocal, requestBody } from '../support/local-server.js';

// The rules of the HTTP core, each against a node:http server of the test's over loopback that
// answers what the rule needs: what is sent, what is retried, and what each failure says.

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
let handler: Handler = (_req, res) => res.end('{}');
let hits: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let base = '';
const server = createServer(async (req, res) => {
  const body = await requestBody(req);
  if (body === null) return;
  hits.push({ method: req.method!, url: req.url!, headers: req.headers, body });
  handler(req, res, body);
});

beforeAll(async () => {
  base = await listenLocal(server);
});
afterAll(() => closeLocal(server));

// Backoff waits are capped to 0 ms so retries follow at once; no pacing.
const client = (options: ConstructorParameters<typeof HttpClient>[0] = {}) =>
  new HttpClient({ retries: 0, maxRetryDelay: 0, rateLimit: Number.POSITIVE_INFINITY, ...options });
const answer = (status: number, body = '{}', headers: Record<string, string> = {}): Handler => {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
};

describe('retryAfterMs', () => {
  it('reads seconds and dates, and never answers a negative wait', () => {
    expect(retryAfterMs('1.5')).toBe(1500);
    expect(retryAfterMs('0')).toBe(0);
    expect(retryAfterMs('-5')).toBe(0);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 12_000)).toBe(0);
    expect(retryAfterMs('')).toBeUndefined();
  });
});

describe('an HTTP client’s options', () => {
  it('has documented defaults', () => {
    const http = new HttpClient();
    expect({
      userAgent: http.userAgent,
      timeout: http.timeout,
      retries: http.retries,
      maxRetryDelay: http.maxRetryDelay,
      maxResponseBytes: http.maxResponseBytes,
      maxDownloadBytes: http.maxDownloadBytes,
      rateLimit: http.rateLimit,
    }).toEqual({
      userAgent: DEFAULT_USER_AGENT,
      timeout: 30_000,
      retries: 3,
      maxRetryDelay: 30_000,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      maxDownloadBytes: DEFAULT_MAX_DOWNLOAD_BYTES,
      rateLimit: { perSecond: 10, burst: 5 },
    });
    expect([DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_MAX_DOWNLOAD_BYTES]).toEqual([
      16 * 1024 * 1024,
      256 * 1024 * 1024,
    ]);
    expect(Object.isFrozen(http.rateLimit)).toBe(true);
  });

  it('takes each bound and refuses one past it', () => {
    const most = bufferConstants.MAX_LENGTH;
    const edges = new HttpClient({
      timeout: 2_147_483_647,
      retries: 10,
      maxRetryDelay: 3_600_000,
      maxResponseBytes: most,
      maxDownloadBytes: most,
      userAgent: 'mine/1',
    });
    expect([
      edges.timeout,
      edges.retries,
      edges.maxRetryDelay,
      edges.maxResponseBytes,
      edges.userAgent,
    ]).toEqual([2_147_483_647, 10, 3_600_000, most, 'mine/1']);
    const low = new HttpClient({
      timeout: 1,
      retries: 0,
      maxRetryDelay: 0,
      maxResponseBytes: 1,
      maxDownloadBytes: 1,
    });
    expect([low.timeout, low.retries, low.maxRetryDelay, low.maxResponseBytes, low.maxDownloadBytes]).toEqual(
      [1, 0, 0, 1, 1],
    );
    for (const bad of [
      { timeout: 0 },
      { timeout: 2_147_483_648 },
      { retries: 11 },
      { maxRetryDelay: -1 },
      { maxRetryDelay: 3_600_001 },
      { maxResponseBytes: 0 },
      { maxResponseBytes: most + 1 },
      { maxDownloadBytes: 0 },
      { maxDownloadBytes: most + 1 },
    ]) {
      expect(() => new HttpClient(bad), JSON.stringify(bad)).toThrow(RangeError);
    }
    expect(() => new HttpClient({ timeout: 0 })).toThrow(/^timeout \(ms\) must be/);
    expect(() => new HttpClient({ retries: 11 })).toThrow(/^retries must be/);
    expect(() => new HttpClient({ maxRetryDelay: -1 })).toThrow(/^maxRetryDelay \(ms\) must be/);
    expect(() => new HttpClient({ maxResponseBytes: 0 })).toThrow(/^maxResponseBytes must be/);
    expect(() => new HttpClient({ maxDownloadBytes: 0 })).toThrow(/^maxDownloadBytes must be/);
  });

  it('gives the hosts of one group one budget, and every other origin its own', () => {
    const http = client({
      hostGroups: [['https://api.example.org/', 'https://example.org/x'], ['https://other.example.org']],
    });
    const api = http.budgetFor('https://api.example.org/users/a');
    expect(http.budgetFor('https://example.org/projects/1')).toBe(api);
    expect(http.budgetFor('https://api.example.org:443/other')).toBe(api);
    const other = http.budgetFor('https://other.example.org/');
    expect(other).not.toBe(api);
    const own = http.budgetFor('https://elsewhere.example.org/a');
    expect(http.budgetFor('https://elsewhere.example.org/b')).toBe(own);
    expect([own === api, own === other]).toEqual([false, false]);
    expect(http.budgetFor('http://api.example.org/')).not.toBe(api);
  });

  it('keeps budgets of 256 origins at most, dropping the idle ones past that', async () => {
    const http = client();
    const first = http.budgetFor('http://host-0.test/');
    for (let i = 1; i < 256; i++) http.budgetFor(`http://host-${i}.test/`);
    expect(http.budgetFor('http://host-0.test/')).toBe(first);
    // The 257th: every idle budget goes, so host-0's is a new one after.
    http.budgetFor('http://host-256.test/');
    expect(http.budgetFor('http://host-0.test/')).not.toBe(first);
    // A budget that is not idle (paused by a refusal) stays.
    const busy = client();
    const paused = busy.budgetFor('http://host-0.test/');
    paused.refused(60_000, performance.now());
    for (let i = 1; i < 256; i++) busy.budgetFor(`http://host-${i}.test/`);
    busy.budgetFor('http://host-256.test/');
    expect(busy.budgetFor('http://host-0.test/')).toBe(paused);
  });

  it('reads one cookie of a URL', async () => {
    const jar = new CookieJar();
    await jar.setCookie('a=1; Path=/', base);
    await jar.setCookie('b=2; Path=/', base);
    const http = client({ jar });
    expect(http.jar).toBe(jar);
    expect([http.cookie(base, 'b'), http.cookie(base, 'c')]).toEqual(['2', undefined]);
  });
});

describe('what a request sends', () => {
  it('sends its User-Agent, the upper-cased method, the query without undefined values, and JSON', async () => {
    hits = [];
    handler = answer(200, '{"ok":true}');
    const http = client({ userAgent: 'rules/1' });
    const got = await http.json(`${base}/p?keep=1&n=0`, {
      method: 'put',
      query: { n: 5, flag: true, name: 'a b', gone: undefined },
      json: { x: [1, 2] },
    });
    expect(got).toEqual({ ok: true });
    expect(
      hits.map((h) => [h.method, h.url, h.headers['user-agent'], h.headers['content-type'], h.body]),
    ).toEqual([['PUT', '/p?keep=1&n=5&flag=true&name=a+b', 'rules/1', 'application/json', '{"x":[1,2]}']]);
  });

  it('keeps a Content-Type of the caller’s, sends a body as it is, and no body with a GET', async () => {
    hits = [];
    handler = answer(200);
    const http = client();
    await http.request(`${base}/a`, {
      method: 'POST',
      json: 'x',
      headers: { 'Content-Type': 'text/x-mine' },
    });
    await http.request(`${base}/b`, {
      method: 'POST',
      body: 'raw text',
      headers: { 'User-Agent': 'other/2' },
    });
    await http.request(`${base}/c`, { body: 'dropped' });
    expect(hits.map((h) => [h.url, h.headers['content-type'], h.headers['user-agent'], h.body])).toEqual([
      ['/a', 'text/x-mine', DEFAULT_USER_AGENT, '"x"'],
      ['/b', undefined, 'other/2', 'raw text'],
      ['/c', undefined, DEFAULT_USER_AGENT, ''],
    ]);
  });

  it('sends the jar’s cookies and keeps those set at every hop of a redirect', async () => {
    hits = [];
    handler = (req, res) => {
      if (req.url === '/login') {
        res.writeHead(302, { location: '/home', 'set-cookie': ['sid=abc123; Path=/', 'lang=en; Path=/'] });
        return res.end();
      }
      res.writeHead(200, { 'set-cookie': 'seen=yes; Path=/' });
      res.end('{}');
    };
    const http = client();
    await http.request(`${base}/login`);
    expect(hits.map((h) => [h.url, h.headers.cookie])).toEqual([
      ['/login', undefined],
      ['/home', 'sid=abc123; lang=en'],
    ]);
    expect(http.cookie(base, 'seen')).toBe('yes');
  });

  it('follows five redirects of a read and stops at the sixth', async () => {
    handler = (req, res) => {
      const n = Number(req.url!.slice(1));
      if (n < 6) {
        res.writeHead(302, { location: `/${n + 1}` });
        return res.end();
      }
      res.end(`{"at":${n}}`);
    };
    hits = [];
    expect(await client().json(`${base}/1`)).toEqual({ at: 6 });
    expect(hits.map((h) => h.url)).toEqual(['/1', '/2', '/3', '/4', '/5', '/6']);
    hits = [];
    const error = await caught(client().json(`${base}/0`));
    expect([error.status, error.reason]).toEqual([302, 'unexpected redirect (302) to /6']);
    expect(hits.map((h) => h.url)).toEqual(['/0', '/1', '/2', '/3', '/4', '/5']);
  });

  it('returns a redirect of a write as it came, for the caller to judge', async () => {
    hits = [];
    handler = answer(307, '{}', { location: '/elsewhere' });
    const got = await client().request(`${base}/w`, { method: 'DELETE', acceptRedirect: true });
    expect([got.status, got.bytes.length, got.url]).toEqual([307, 0, `${base}/w`]);
    expect(hits.map((h) => h.url)).toEqual(['/w']);
    // A 3xx without Location is an answer of its own.
    handler = answer(304, '');
    expect((await client().request(`${base}/cached`, { acceptRedirect: true })).status).toBe(304);
  });

  it('answers the URL the answer came from', async () => {
    handler = (req, res) => {
      if (req.url === '/from') {
        res.writeHead(301, { location: '/to' });
        return res.end();
      }
      res.end('{}');
    };
    expect((await client().request(`${base}/from`)).url).toBe(`${base}/to`);
  });
});

describe('tries', () => {
  it('retries a network failure (1 + retries tries) and names it with its cause', async () => {
    const dead = client({ retries: 2 });
    const error = await caught(dead.request('http://127.0.0.1:1/x'));
    expect(error.status).toBeUndefined();
    expect(error.reason).toMatch(/^request failed: .*ECONNREFUSED/);
    expect(error.method).toBe('GET');
  });

  it('does not retry an answer it cannot decode', async () => {
    hits = [];
    handler = answer(502, 'not gzip at all', { 'content-encoding': 'gzip' });
    const error = await caught(client({ retries: 3 }).request(`${base}/corrupt`));
    expect([error.status, error.method]).toEqual([502, 'GET']);
    expect(error.reason).toMatch(/^cannot decode the answer: /);
    expect(hits).toHaveLength(1);
  });

  it('passes a caller’s abort through as it is, without retrying', async () => {
    hits = [];
    const controller = new AbortController();
    handler = () => controller.abort(new Error('caller stopped'));
    const error = await caught<Error>(
      client({ retries: 3 }).request(`${base}/slow`, { signal: controller.signal }),
    );
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error.message).toBe('caller stopped');
    expect(hits).toHaveLength(1);
  });

  it('names a timeout with its length', async () => {
    handler = () => undefined;
    const error = await caught(client({ timeout: 50 }).request(`${base}/never`));
    expect([error.status, error.reason]).toEqual([undefined, 'timed out after 50 ms']);
    expect(error.cause).toMatchObject({ name: 'TimeoutError' });
  });

  it('waits out a 5xx’s Retry-After before the next try', async () => {
    hits = [];
    let n = 0;
    handler = (_req, res) => {
      n++;
      if (n === 1) return answer(503, '{}', { 'retry-after': '0' })(_req, res, '');
      res.end('{"n":2}');
    };
    expect(await client({ retries: 1, maxRetryDelay: 5000 }).json(`${base}/x`)).toEqual({ n: 2 });
    expect(hits).toHaveLength(2);
  });

  it('pauses the whole group for a backoff when a 429 names no wait: under maxRetryDelay, 0 here', async () => {
    const http = client();
    const waits: RateLimitWait[] = [];
    http.watchRateLimits((wait) => waits.push(wait));
    handler = answer(429);
    hits = [];
    await caught(http.request(`${base}/busy`, { retry: false }));
    expect(waits).toEqual([{ resumeInMs: 0, status: 429, message: 'rate-limited, resuming in 0.0 s' }]);
    expect(hits).toHaveLength(1);
  });

  it('makes the whole group wait as long as a 429 asks, and tells the watchers', async () => {
    const http = client({ maxRetryDelay: 60_000 });
    const waits: RateLimitWait[] = [];
    const unwatch = http.watchRateLimits((wait) => waits.push(wait));
    handler = answer(429, '{}', { 'retry-after': '0.05' });
    const error = await caught(http.request(`${base}/busy`, { retry: false }));
    expect(error.reason).toBe(
      "rate-limited: still refused after 1 tries (Too Many Requests); lower the session's rateLimit",
    );
    expect(waits).toHaveLength(1);
    expect(waits[0]!.resumeInMs).toBeCloseTo(50, 6);
    expect(waits[0]!.status).toBe(429);
    unwatch();
    // A wait past maxRetryDelay pauses the group for maxRetryDelay, and fails at once.
    const capped = client({ maxRetryDelay: 1500, retries: 3 });
    const capWaits: RateLimitWait[] = [];
    capped.watchRateLimits((wait) => capWaits.push(wait));
    handler = answer(429, '{}', { 'retry-after': '120.4' });
    hits = [];
    const long = await caught(capped.request(`${base}/busy`));
    expect(long.reason).toBe('the service asks to retry after 121 s');
    expect(capWaits.map((wait) => Math.round(wait.resumeInMs))).toEqual([1500]);
    expect(hits).toHaveLength(1);
    // The unsubscribed watcher heard nothing more.
    handler = answer(429, '{}', { 'retry-after': '0' });
    hits = [];
    await caught(http.request(`${base}/busy`, { retry: false }));
    expect(hits).toHaveLength(1);
    expect(waits).toHaveLength(1);
  });

  it('retries a 429 without a Retry-After after a backoff, up to 1 + retries tries', async () => {
    hits = [];
    handler = answer(429, '{"message":"slow"}');
    const error = await caught(client({ retries: 2 }).request(`${base}/busy`, { method: 'POST' }));
    expect(error.reason).toBe(
      "rate-limited: still refused after 3 tries (slow); lower the session's rateLimit",
    );
    expect(hits).toHaveLength(3);
  });
});

describe('what a failure says', () => {
  it('names the status when the body gives no reason', async () => {
    const named: Record<number, string> = {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      405: 'Method Not Allowed',
      413: 'Payload Too Large',
      500: 'Internal Server Error',
      502: 'Bad Gateway',
      503: 'Service Unavailable',
      418: 'HTTP 418',
    };
    const http = client();
    for (const [status, reason] of Object.entries(named)) {
      handler = answer(Number(status), '{}');
      const error = await caught(http.request(`${base}/s`));
      expect([error.status, error.reason, error.blocked]).toEqual([Number(status), reason, false]);
    }
  });

  it('keeps the body of an error, parsed when it is JSON, cut and scrubbed when it is long', async () => {
    handler = answer(400, '{"code":"BadThing","message":"no such thing","token":"abcdefgh"}');
    const http = client();
    const error = await caught(http.request(`${base}/e`));
    expect(error.reason).toBe('no such thing');
    expect(error.body).toEqual({ code: 'BadThing', message: 'no such thing', token: '[redacted]' });
    // A long body keeps its first MAX_ERROR_BODY_CHARS characters, as text (not parsed).
    const long = JSON.stringify({ message: 'x'.repeat(MAX_ERROR_BODY_CHARS) });
    handler = answer(400, long);
    const cut = await caught(http.request(`${base}/e`));
    expect(cut.body).toBe(long.slice(0, MAX_ERROR_BODY_CHARS));
    // One exactly MAX_ERROR_BODY_CHARS long is whole, and parsed.
    const whole = `"${'y'.repeat(MAX_ERROR_BODY_CHARS - 2)}"`;
    handler = answer(400, whole);
    expect((await caught(http.request(`${base}/e`))).body).toBe('y'.repeat(MAX_ERROR_BODY_CHARS - 2));
    handler = answer(400, 'plain text with token=abcd1234 inside');
    const text = await caught(http.request(`${base}/e`));
    expect(text.body).toBe('plain text with token=[redacted] inside');
    expect(text.reason).toBe('plain text with token=[redacted] inside');
  });

  it('scrubs the credentials a request sent, whatever their case, and the extra secrets named', async () => {
    handler = (req, res) => {
      res.writeHead(400);
      res.end(
        JSON.stringify({
          message: `saw ${req.headers.authorization} ${req.headers.cookie} ${req.headers['x-note']} pass-word-1`,
        }),
      );
    };
    const error = await caught(
      client().request(`${base}/e`, {
        headers: { AUTHORIZATION: 'Bearer-secret-1', Cookie: 'c=cookie-secret-2', 'X-Note': 'visible-note' },
        secrets: ['pass-word-1'],
      }),
    );
    expect(error.reason).toBe('saw [redacted] [redacted] visible-note [redacted]');
  });

  it('scrubs a token sent in the query wherever it shows again', async () => {
    handler = (req, res) => {
      res.writeHead(404);
      res.end(
        JSON.stringify({ message: `no project for ${new URL(req.url!, base).searchParams.get('token')}` }),
      );
    };
    const http = client();
    const error = await caught(http.request(`${base}/p`, { query: { token: 'query-token-9' } }));
    expect(error.reason).toBe('no project for [redacted]');
    expect(error.url).not.toContain('query-token-9');
    // And later errors of the client too.
    handler = answer(400, '{"message":"again query-token-9"}');
    expect((await caught(http.request(`${base}/q`))).reason).toBe('again [redacted]');
  });

  it('names the cap an answer passed, for reads and downloads', async () => {
    handler = answer(200, 'x'.repeat(50));
    const http = client({ maxResponseBytes: 10, maxDownloadBytes: 20 });
    const read = await caught(http.request(`${base}/big`, { headers: { 'X-Token': 'tok-secret-5' } }));
    expect([read.status, read.limit, read.method]).toEqual([200, 'maxResponseBytes', 'GET']);
    expect(read.reason).toBe(
      'the answer is larger than maxResponseBytes (10 bytes decoded); the read was stopped (raise it with new Session({ maxResponseBytes }))',
    );
    const download = await caught(http.request(`${base}/big`, { download: true }));
    expect(download.limit).toBe('maxDownloadBytes');
    expect(download.reason).toBe(
      'the answer is larger than maxDownloadBytes (20 bytes decoded); the read was stopped (raise it with new Session({ maxDownloadBytes }))',
    );
    expect(
      (await http.request(`${base}/big`, { download: false, headers: { Range: 'x' } }).catch((e) => e)).limit,
    ).toBe('maxResponseBytes');
    handler = answer(200, 'x'.repeat(20));
    expect((await http.request(`${base}/big`, { download: true })).bytes).toHaveLength(20);
  });
});

describe('pages that look like a block', () => {
  it('reads a page’s text without tags, scripts or styles, cut at 160 characters', async () => {
    const http = client();
    handler = answer(
      403,
      '  <html><head><script>var a = "<b>";</script><STYLE>p { color: red }</STYLE></head>\n<body><p>Denied</p>\n\n<p>for   now</p></body></html>',
    );
    expect((await caught(http.request(`${base}/b`))).reason).toBe(
      'the address looks blocked or rate-limited: the service answered 403 with an HTML page instead of JSON: "Denied for now"',
    );
    handler = answer(403, `<p>${'w'.repeat(200)}</p>`);
    expect((await caught(http.request(`${base}/b`))).reason).toBe(
      `the address looks blocked or rate-limited: the service answered 403 with an HTML page instead of JSON: "${'w'.repeat(160)}…"`,
    );
    handler = answer(403, `<p>${'v'.repeat(160)}</p>`);
    expect((await caught(http.request(`${base}/b`))).reason).toBe(
      `the address looks blocked or rate-limited: the service answered 403 with an HTML page instead of JSON: "${'v'.repeat(160)}"`,
    );
  });

  it('names an empty answer and a text one; a JSON array or object is the API’s own', async () => {
    const http = client();
    handler = answer(503, '');
    const empty = await caught(http.request(`${base}/b`));
    expect([empty.reason, empty.blocked]).toEqual([
      'the address looks blocked or rate-limited: the service answered 503 with an empty answer instead of JSON',
      true,
    ]);
    handler = answer(429, '  \n ');
    expect((await caught(http.request(`${base}/b`))).reason).toBe(
      'the address looks blocked or rate-limited: the service answered 429 with an empty answer instead of JSON',
    );
    handler = answer(503, 'Service down for a while');
    expect((await caught(http.request(`${base}/b`))).reason).toBe(
      'the address looks blocked or rate-limited: the service answered 503 with text instead of JSON: "Service down for a while"',
    );
    handler = answer(403, '  ["refused"]');
    const array = await caught(http.request(`${base}/b`));
    expect([array.reason, array.blocked]).toEqual(['refused', false]);
    // Other statuses are never a block, whatever their body.
    handler = answer(404, '<html>Not here</html>');
    const missing = await caught(http.request(`${base}/b`));
    expect([missing.blocked, missing.reason]).toEqual([false, '<html>Not here</html>']);
  });

  it('a block page of a 429 or 503 is tried twice at most, a JSON one 1 + retries times', async () => {
    for (const [status, body, tries] of [
      [503, '<p>busy</p>', 2],
      [429, '<p>busy</p>', 2],
      [503, '{}', 4],
      [429, '{}', 4],
    ] as const) {
      hits = [];
      handler = answer(status, body);
      await caught(client({ retries: 3 }).request(`${base}/b`));
      expect(hits, `${status} ${body}`).toHaveLength(tries);
    }
    hits = [];
    handler = answer(503, '<p>busy</p>');
    await caught(client({ retries: 0 }).request(`${base}/b`));
    expect(hits).toHaveLength(1);
  });
});

describe('readJson', () => {
  const of = (text: string, status = 200) => ({
    status,
    headers: new Headers(),
    bytes: new TextEncoder().encode(text),
    url: 'https://api.example.org/x',
  });

  it('reads JSON, and an empty body as null', () => {
    expect(readJson(of('{"a":[1]}'), 'GET')).toEqual({ a: [1] });
    expect(readJson(of(''), 'GET')).toBeNull();
  });

  it('names a body that is not JSON, with its size and a scrubbed start of it', () => {
    const error = caughtSync(() =>
      readJson(of(`{"token":"abcdefgh", "cut": ${'1'.repeat(300)}`), 'POST', () => ['zzzz']),
    );
    expect(error).toMatchObject({
      status: 200,
      method: 'POST',
      url: 'https://api.example.org/x',
      blocked: false,
    });
    expect(error.reason).toBe('the answer is not valid JSON (328 bytes)');
    expect(error.body).toBe(`{"token":"[redacted]", "cut": ${'1'.repeat(172)}`);
    expect(error.cause).toBeUndefined();
  });

  it('names an HTML page where JSON was due as a block', () => {
    const error = caughtSync(() =>
      readJson(of('\n <html><body><h1>Slow down</h1></body></html>', 503), 'GET'),
    );
    expect(error.blocked).toBe(true);
    expect(error.reason).toBe(
      'the address looks blocked or rate-limited: the service answered 503 with an HTML page instead of JSON: "Slow down"',
    );
  });

  it('refuses JSON nested deeper than the limit, with the depth error as its cause', () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    const error = caughtSync(() => readJson(of(deep), 'GET'));
    expect(error.reason).toBe(
      `the answer nests deeper than ${MAX_JSON_DEPTH} levels (${deep.length} bytes); refused`,
    );
    expect(error.blocked).toBe(false);
    expect(error.cause).toMatchObject({ name: 'JsonDepthError' });
    // A reader of its own (the parse argument) is used instead of the default.
    expect(readJson(of('anything'), 'GET', undefined, (text) => text.length)).toBe(8);
  });

  it('reads through the client with the request’s method', async () => {
    handler = answer(200, 'not json');
    const error = await caught(client().json(`${base}/j`, { method: 'delete' }));
    expect([error.method, error.reason]).toEqual(['DELETE', 'the answer is not valid JSON (8 bytes)']);
  });
});

describe('a custom fetch', () => {
  it('whose headers have no getSetCookie: the joined Set-Cookie line is kept', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'set-cookie': 'one=1; Path=/' });
      res.end('{}');
    };
    const http = client({
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        const headers = { get: (name: string) => response.headers.get(name) };
        return {
          ...response,
          status: response.status,
          statusText: '',
          headers,
          body: response.body,
          arrayBuffer: () => response.arrayBuffer(),
          text: () => response.text(),
        };
      },
    });
    await http.request(`${base}/c`);
    expect(http.cookie(base, 'one')).toBe('1');
    handler = answer(200, '{}');
    await http.request(`${base}/c`);
    expect(http.jar.getCookiesSync(base).map((cookie) => `${cookie.key}=${cookie.value}`)).toEqual(['one=1']);
  });
});

describe('edges of the rules', () => {
  it('names the option a bad jar or rate limit came in, and a request body nested too deep', async () => {
    expect(() => new HttpClient({ jar: 5 as never })).toThrow(
      /^options\.jar must be a tough-cookie CookieJar/,
    );
    expect(() => new HttpClient({ rateLimit: -1 })).toThrow(/^rateLimit must be at least 0\.01/);
    await expect(
      client().request(`${base}/x`, {
        method: 'POST',
        json: JSON.parse(`${'['.repeat(MAX_JSON_DEPTH + 2)}${']'.repeat(MAX_JSON_DEPTH + 2)}`),
      }),
    ).rejects.toThrow(`request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('retries a HEAD like a GET', async () => {
    hits = [];
    handler = answer(500, '{}');
    expect((await caught(client({ retries: 2 }).request(`${base}/h`, { method: 'HEAD' }))).status).toBe(500);
    expect(hits.map((h) => h.method)).toEqual(['HEAD', 'HEAD', 'HEAD']);
  });

  it('counts the tries of a request whose connection breaks: 1 + retries', async () => {
    handler = (req) => req.socket.destroy();
    for (const retries of [0, 2]) {
      hits = [];
      const error = await caught(client({ retries }).request(`${base}/broken`));
      expect([error.status, error.reason.startsWith('request failed: ')]).toEqual([undefined, true]);
      expect(hits).toHaveLength(1 + retries);
    }
  });

  it('passes a caller’s abort through even on the last try', async () => {
    const controller = new AbortController();
    handler = () => controller.abort(new Error('caller stopped'));
    const error = await caught<Error>(
      client({ retries: 0 }).request(`${base}/slow`, { signal: controller.signal }),
    );
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error.message).toBe('caller stopped');
  });

  it('takes only a 2xx as success, and a 3xx too when told; never a 4xx', async () => {
    handler = answer(300, '{}');
    expect((await caught(client().request(`${base}/m`))).reason).toBe('unexpected redirect (300) to nowhere');
    expect((await client().request(`${base}/m`, { acceptRedirect: true })).status).toBe(300);
    handler = answer(299, '{}');
    expect((await client().request(`${base}/m`)).status).toBe(299);
    for (const status of [400, 404]) {
      handler = answer(status, '{}');
      expect((await caught(client().request(`${base}/m`, { acceptRedirect: true }))).status).toBe(status);
    }
  });

  it('retries when Retry-After asks exactly maxRetryDelay', async () => {
    hits = [];
    handler = answer(503, '{}', { 'retry-after': '0' });
    const error = await caught(client({ retries: 1, maxRetryDelay: 0 }).request(`${base}/r`));
    expect([error.status, error.reason]).toEqual([503, 'Service Unavailable']);
    expect(hits).toHaveLength(2);
  });

  it('follows a redirect only of fetch’s redirect statuses with a Location, for a GET or a HEAD', async () => {
    const go = (status: number) => (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/start') return answer(status, '{"at":"start"}', { location: '/end' })(req, res, '');
      res.end('{"at":"end"}');
    };
    for (const [status, at] of [
      [200, 'start'],
      [301, 'end'],
      [302, 'end'],
      [303, 'end'],
      [307, 'end'],
      [308, 'end'],
      [300, 'start'],
      [201, 'start'],
    ] as const) {
      handler = go(status);
      expect(await client().json(`${base}/start`, { acceptRedirect: true }), String(status)).toEqual({ at });
    }
    // Any other 3xx with a Location is the answer, as Node's fetch has it (a 304 is no redirect).
    for (const status of [304, 305, 306, 309]) {
      handler = go(status);
      hits = [];
      const answer = await client().request(`${base}/start`, { acceptRedirect: true });
      expect([answer.status, hits.length], String(status)).toEqual([status, 1]);
    }
    for (const status of [400, 404]) {
      handler = go(status);
      hits = [];
      expect((await caught(client().request(`${base}/start`))).status).toBe(status);
      expect(hits).toHaveLength(1);
    }
    handler = go(302);
    hits = [];
    expect((await client().request(`${base}/start`, { method: 'HEAD' })).status).toBe(200);
    expect(hits.map((h) => `${h.method} ${h.url}`)).toEqual(['HEAD /start', 'HEAD /end']);
  });

  it('sends no body with a HEAD', async () => {
    hits = [];
    handler = answer(200, '');
    expect((await client().request(`${base}/h`, { method: 'HEAD', body: 'dropped' })).status).toBe(200);
    expect(hits.map((h) => [h.method, h.body, h.headers['content-length']])).toEqual([
      ['HEAD', '', undefined],
    ]);
  });

  it('ignores a cookie the answer may not set, and keeps the rest', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'set-cookie': ['a=1; Domain=example.com; Path=/', 'b=2; Path=/'] });
      res.end('{}');
    };
    const http = client();
    expect((await http.request(`${base}/c`)).status).toBe(200);
    expect([http.cookie(base, 'a'), http.cookie(base, 'b')]).toEqual([undefined, '2']);
  });

  it('keeps the headers that are not credentials on a redirect to another origin', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const other = createServer((req, res) => {
      seen.push(req.headers);
      res.end('{}');
    });
    const otherBase = await listenLocal(other);
    try {
      handler = answer(302, '', { location: `${otherBase}/landing` });
      await client({ userAgent: 'ua/9' }).request(`${base}/go`, {
        headers: { 'X-Other': 'kept', Authorization: 'Bearer gone-1', Cookie: 'x=gone-2' },
      });
      expect(seen.map((h) => [h['user-agent'], h['x-other'], h.authorization, h.cookie])).toEqual([
        ['ua/9', 'kept', undefined, undefined],
      ]);
    } finally {
      await closeLocal(other);
    }
  });

  it('scrubs the sent credentials from an answer that is not JSON, named GET by default', async () => {
    handler = (req, res) => res.end(`oops ${req.headers['x-token']}`);
    const error = await caught(client().json(`${base}/j`, { headers: { 'X-Token': 'json-token-42' } }));
    expect([error.method, error.body]).toEqual(['GET', 'oops [redacted]']);
  });

  it('reads a page’s text with a space for each tag, script and style', async () => {
    handler = answer(403, 'a<script>x</script>b<style>y</style>c<i>d</i>e');
    expect((await caught(client().request(`${base}/b`))).reason).toBe(
      'the address looks blocked or rate-limited: the service answered 403 with text instead of JSON: "a b c d e"',
    );
  });

  it('takes only the quotes around a cookie’s value off, not those inside it', async () => {
    const jar = new CookieJar();
    await jar.setCookie('scratchsessionsid=ab"cdef; Path=/', base);
    await jar.setCookie('scratchcsrftoken="quoted1"; Path=/', base);
    expect(client({ jar }).secretsFor(base).sort()).toEqual(['ab"cdef', 'quoted1']);
  });

  it('remembers a query token only when it is text', async () => {
    handler = answer(200, '{}');
    const http = client();
    for (let i = 0; i < 256; i++) http.rememberSecret(`secret-${i}`);
    await http.request(`${base}/p`, { query: { token: 123456 } });
    const kept = http.secretsFor(base);
    expect([kept.length, kept[0]]).toEqual([256, 'secret-0']);
    await http.request(`${base}/p`, { query: { token: 'text-token' } });
    expect(http.secretsFor(base).slice(-2)).toEqual(['secret-255', 'text-token']);
  });

  it('reads the cookies of the URL when the jar’s store cannot list them all', async () => {
    const store = new MemoryCookieStore();
    // A synchronous store without getAllCookies: the jar cannot be serialized, only asked per URL.
    Object.defineProperty(store, 'getAllCookies', { value: undefined });
    const jar = new CookieJar(store);
    await jar.setCookie('scratchsessionsid=per-url-secret; Path=/', base);
    expect(client({ jar }).secretsFor(`${base}/x`)).toEqual(['per-url-secret']);
  });
});

describe('a fetch that fails', () => {
  it('names its failure by the cause’s message, its own, or the value it threw', async () => {
    const failing = (thrown: unknown) =>
      client({
        fetch: async () => {
          throw thrown;
        },
      }).request(`${base}/f`);
    const inner = await caught(failing(new Error('outer', { cause: new Error('inner cause') })));
    expect([inner.status, inner.reason]).toEqual([undefined, 'request failed: inner cause']);
    expect((await caught(failing(new Error('outer only', { cause: 'text' })))).reason).toBe(
      'request failed: outer only',
    );
    expect((await caught(failing(new Error('outer', { cause: new Error('') })))).reason).toBe(
      'request failed: outer',
    );
    expect((await caught(failing('offline'))).reason).toBe('request failed: offline');
    // An abort that is not the caller's is the timeout's.
    expect((await caught(failing(new DOMException('gone', 'AbortError')))).reason).toBe(
      'timed out after 30000 ms',
    );
    expect((await caught(failing(new DOMException('gone', 'TimeoutError')))).reason).toBe(
      'timed out after 30000 ms',
    );
    expect((await caught(failing(Object.assign(new Error('x'), { name: 'OtherError' })))).reason).toBe(
      'request failed: x',
    );
  });
});

function caughtSync(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected it to throw');
}
