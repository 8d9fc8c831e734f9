import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, Session } from '../../src/index.js';
import { parseAnswer, quoteUnsafeIntegers } from '../../src/records/answers.js';
import { MAX_JSON_DEPTH } from '../../src/records/json.js';
import { caught } from '../support/caught.js';
import { closeLocal, listenLocal } from '../support/local-server.js';
import { useSandbox } from '../support/sandbox.js';

// Answers shaped like the real service's (WIRE.md §10), served verbatim over loopback.
const answers: Record<string, string> = {
  '/news':
    '[{"id": 12345678901234567890, "stamp": "2024-01-02T03:04:05", "headline": "Big id", "url": "https://scratch.mit.edu/", "image": "//cdn.scratch.mit.edu/news.png", "copy": "x"}, {"id": 42, "stamp": "2024-01-02T03:04:05.000Z", "headline": "Small id", "url": "", "image": "", "copy": "//not a url but text"}]',
  '/proxy/featured':
    '{"community_featured_projects": [{"id": 1, "title": "//cdn2.example.com/ in a title stays", "creator": "a", "thumbnail_url": "//cdn2.scratch.mit.edu/get_image/project/1_480x360.png?v=2", "type": "project", "love_count": 3, "remixers_count": 0}]}',
  '/health':
    '{"version": " 1.2.3", "uptime": 5, "load": [0.1, 0.2, 0.3], "sql": {"main": {"primary": {"total": 10, "idle": 9}, "replica": {"total": 5, "idle": 5}}}, "cache": {"connected": true}}',
  '/session-out/session/': '{}',
  '/session-flags/session/': '{"flags": {"has_outstanding_email_confirmation": false}}',
  '/deep': `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`,
  '/bomb-depth': '['.repeat(2_000_000),
};
const server = createServer((req, res) => {
  const body = answers[new URL(req.url!, 'http://x').pathname];
  res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
  res.end(body ?? '{"code": "NotFound", "message": ""}');
});
let base = '';
beforeAll(async () => {
  base = await listenLocal(server);
});
afterAll(() => closeLocal(server));
const session = (site = base) => new Session({ hosts: { api: base, site }, retries: 0 });

describe('real answers are read faithfully', () => {
  it('news ids beyond 2^53 keep their exact digits (as strings); safe ones stay numbers', async () => {
    const news = await session().news();
    expect(news[0]!.id).toBe('12345678901234567890');
    expect(news[1]!.id).toBe(42);
  });

  it('protocol-relative URLs get the scheme of their answer (https: on the real service)', () => {
    const text =
      '{"thumbnail_url": "//cdn2.scratch.mit.edu/get_image/project/1_480x360.png", "title": "//x.y"}';
    expect(parseAnswer(text, 'https://api.scratch.mit.edu/proxy/featured')).toEqual({
      thumbnail_url: 'https://cdn2.scratch.mit.edu/get_image/project/1_480x360.png',
      title: '//x.y',
    });
    expect(parseAnswer(text)).toMatchObject({
      thumbnail_url: 'https://cdn2.scratch.mit.edu/get_image/project/1_480x360.png',
    });
    // A sandbox on plain HTTP serves its own images there: `https:` would make them dead links.
    expect(parseAnswer(text, 'http://127.0.0.1:8080/api/proxy/featured')).toMatchObject({
      thumbnail_url: 'http://cdn2.scratch.mit.edu/get_image/project/1_480x360.png',
    });
  });

  it('protocol-relative URLs get a scheme, zone-less dates get Z; free text is untouched', async () => {
    // This server answers over http:, so its protocol-relative URLs resolve to http:.
    const news = await session().news();
    expect(news[0]!.image).toBe('http://cdn.scratch.mit.edu/news.png');
    expect(news[0]!.stamp).toBe('2024-01-02T03:04:05Z');
    expect(new Date(news[0]!.stamp).getTime()).toBe(Date.UTC(2024, 0, 2, 3, 4, 5));
    expect(news[1]!.stamp).toBe('2024-01-02T03:04:05.000Z');
    expect(news[1]!.copy).toBe('//not a url but text');
    const featured = await session().featured();
    const row = featured.community_featured_projects![0]!;
    expect(row.thumbnail_url).toBe('http://cdn2.scratch.mit.edu/get_image/project/1_480x360.png?v=2');
    expect(row.title).toBe('//cdn2.example.com/ in a title stays');
  });

  it('a nested /health is read as sent', async () => {
    const health = await session().health();
    expect(health.version).toBe(' 1.2.3');
    expect(health.sql).toEqual({ main: { primary: { total: 10, idle: 9 }, replica: { total: 5, idle: 5 } } });
  });

  it('/session/ logged out as {} or { flags } is anonymous, not an error', async () => {
    for (const site of [`${base}/session-out`, `${base}/session-flags`]) {
      const s = session(site);
      const info = await s.refreshSession();
      expect(info.user).toBeUndefined();
      expect(s.loggedIn).toBe(false);
    }
  });

  it('quotes only unsafe integers outside strings', () => {
    const text =
      '{"a": 9007199254740993, "b": "9007199254740993", "c": 1.90071992547409931, "d": -9007199254740993, "e": 9007199254740991}';
    expect(JSON.parse(quoteUnsafeIntegers(text))).toEqual({
      a: '9007199254740993',
      b: '9007199254740993',
      c: JSON.parse('1.90071992547409931'),
      d: '-9007199254740993',
      e: 9007199254740991,
    });
  });
});

describe('JSON nesting bound', () => {
  it('an answer nesting deeper than MAX_JSON_DEPTH is a clear ApiError, not a stall', async () => {
    for (const path of ['/deep', '/bomb-depth']) {
      const error = await caught(session().apiGet(path));
      expect(error).toBeInstanceOf(ApiError);
      expect(error.reason).toMatch(new RegExp(`nests deeper than ${MAX_JSON_DEPTH} levels`));
      const raw = await caught(session().http.json(`${base}${path}`));
      expect(raw.reason).toMatch(/nests deeper than/);
    }
  });

  it('a request body nesting too deep is refused before sending', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH + 5; i++) deep = [deep];
    await expect(session().http.request(`${base}/health`, { method: 'POST', json: deep })).rejects.toThrow(
      /request body nests deeper than/,
    );
  });
});

describe('real shapes from the sandbox', () => {
  const fixture = useSandbox();

  it('protocol-relative image URLs of /session/ and /proxy/featured resolve to images that load', async () => {
    const session = await fixture.login();
    const info = await session.refreshSession();
    const urls = [info.user!.thumbnailUrl];
    const featured = await session.featured();
    const row = Object.values(featured).flat()[0] as { thumbnail_url?: string } | undefined;
    if (row?.thumbnail_url) urls.push(row.thumbnail_url);
    expect(urls.length).toBe(2);
    for (const url of urls) {
      expect(url.startsWith(`${fixture.sandbox.url}/`), url).toBe(true);
      const answer = await fetch(url);
      expect(answer.status, url).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/png');
    }
  });
});
