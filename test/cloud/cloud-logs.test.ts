/**
 * `cloud.logs()` against the sandbox's seeded game (10,000+ entries over a week): paging above
 * the endpoint's cap of 100, verbs mapped, names without `☁ `, values as strings, filtering, and
 * failures as `ApiError`.
 */
import { describe, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { ApiError, Session } from '../../src/index.js';
import { SUITE_SESSION_BUDGET, useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();
const DAY = 86_400_000;

/** Logs need no login: a connection that never connects is enough. */
const reader = () =>
  new Cloud({
    projectId: ctx.sandbox.cloudProjectId,
    host: ctx.sandbox.hosts.cloudWs,
    username: 'reader',
    logsHost: ctx.sandbox.hosts.cloudHttp,
    logsRateLimit: SUITE_SESSION_BUDGET,
  });

describe('cloud logs', () => {
  it('reads one window of 100 by default, newest first, mapped to the client’s shape', async () => {
    const page = await reader().logs();
    expect(page).toHaveLength(100);
    const times = page.map((e) => e.timestamp);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const entry of page) {
      expect(Object.keys(entry).sort()).toEqual(['name', 'timestamp', 'user', 'value', 'verb']);
      expect(entry.name.startsWith('☁')).toBe(false);
      expect(typeof entry.value).toBe('string');
      expect(['set', 'create', 'delete', 'rename']).toContain(entry.verb);
    }
  });

  it('walks the whole seeded history: 10,000+ entries over several days from several users', async () => {
    const pages: number[] = [];
    const all = await reader()
      .logs()
      .all({ onProgress: (p) => pages.push(p.items) });
    expect(all.length).toBeGreaterThanOrEqual(10_000);
    expect(pages[0]).toBe(100); // 100 rows a request, not the REST lists' 40
    expect(new Set(all.map((e) => e.user)).size).toBeGreaterThanOrEqual(8);
    const span = all[0]!.timestamp - all[all.length - 1]!.timestamp;
    expect(span).toBeGreaterThan(5 * DAY);
    const verbs = new Set(all.map((e) => e.verb));
    expect([...verbs].sort()).toEqual(['create', 'delete', 'rename', 'set']);
    const oldest = all.slice(-6).reverse();
    expect(oldest.map((e) => `${e.user} ${e.verb} ${e.name}=${e.value}`)).toEqual([
      'demo_scratcher create high score=0',
      'demo_scratcher create players online=0',
      'demo_scratcher create total plays=0',
      'demo_scratcher create last score=0',
      'demo_scratcher create daily best=0',
      'demo_scratcher create beta=1',
    ]);
    const changes = all.filter((e) => e.verb === 'rename' || e.verb === 'delete').reverse();
    expect(changes.map((e) => `${e.verb} ${e.name}=${e.value}`)).toEqual([
      'rename beta=☁ event',
      'delete event=1',
    ]);
    const plays = all.filter((e) => e.name === 'total plays' && e.verb === 'set').map((e) => Number(e.value));
    expect(plays[0]).toBe(plays.length); // the counter went up by one per play, newest first
  });

  it('reads any window above the cap with several requests, matching the walk', async () => {
    const cloud = reader();
    const window = await cloud.logs({ limit: 250, offset: 30 });
    const walk = await cloud.logs({ limit: 280 }).all();
    expect(window).toHaveLength(250);
    expect(window).toEqual(walk.slice(30));
  });

  it('filters by variable, with or without the prefix, counting matches for limit and offset', async () => {
    const cloud = reader();
    const plays = await cloud.logs({ variable: 'total plays', limit: 150 });
    expect(plays).toHaveLength(150);
    expect(plays.every((e) => e.name === 'total plays')).toBe(true);
    // The counter goes up by one per play: newest first, each value is one below the previous.
    const counts = plays.map((e) => Number(e.value));
    expect(counts.slice(1)).toEqual(counts.slice(0, -1).map((n) => n - 1));
    expect(await cloud.logs({ variable: '☁ total plays', limit: 150 })).toEqual(plays);
    expect(await cloud.logs({ variable: 'total plays', limit: 10, offset: 140 })).toEqual(plays.slice(140));
    const records = (await cloud.logs({ variable: 'high score' }).all()).map((e) => Number(e.value));
    expect(records.length).toBeGreaterThanOrEqual(3);
    expect(records).toEqual([...records].sort((a, b) => b - a)); // a high score only goes up
    expect(await cloud.logs({ variable: 'no such variable' })).toEqual([]);
  });

  it('reports a failing endpoint as an ApiError', async () => {
    const session = new Session({ hosts: ctx.sandbox.hosts, retries: 0 });
    const missing = new Cloud({
      projectId: 1,
      host: ctx.sandbox.alternateCloudHost,
      session,
      logsHost: `${ctx.sandbox.url}/nowhere`,
    });
    const failure = await missing.logs().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(404);
    const down = new Cloud({
      projectId: 1,
      host: 'ws://127.0.0.1:9',
      session,
      logsHost: 'http://127.0.0.1:9',
    });
    await expect(down.logs()).rejects.toMatchObject({ name: 'ApiError', status: undefined });
    const badQuery = await fetch(
      `${ctx.sandbox.hosts.cloudHttp}/logs?projectid=${ctx.sandbox.cloudProjectId}&limit=500`,
    );
    expect(badQuery.status).toBe(400);
  });

  it('needs a logs endpoint to read from', () => {
    const cloud = Cloud.alternate(1, { purpose: 'p', contact: '@c', host: ctx.sandbox.alternateCloudHost });
    expect(() => cloud.logs()).toThrow(TypeError);
    expect(() => cloud.logs()).toThrow(/pass the logsHost option/);
  });

  it('session.cloud reads the session’s cloudHttp, in the session’s request budget', async () => {
    const session = await ctx.login(0);
    const page = await session.cloud(ctx.sandbox.cloudProjectId).logs({ limit: 5 });
    expect(page).toHaveLength(5);
    expect(session.http.budgetFor(ctx.sandbox.hosts.cloudHttp)).toBe(session.http.budgetFor(session.apiHost));
  });

  it('a cloud without a session checks the budget of its own log reads', () => {
    const options = { projectId: 1, host: ctx.sandbox.hosts.cloudWs, username: 'reader' };
    expect(() => new Cloud({ ...options, logsRateLimit: 0 })).toThrow(RangeError);
    expect(() => new Cloud({ ...options, logsRateLimit: '5' as never })).toThrow(TypeError);
  });
});

describe('the cloud game in the sandbox', () => {
  it('is a shared project that appears in explore results', async () => {
    const session = ctx.anonymous();
    const project = await session.projects.get(ctx.sandbox.cloudProjectId);
    expect(project.title).toBe('Galaxy Dash Online');
    expect(project.is_published).toBe(true);
    const games = await session.search.exploreProjects('*', { limit: 40 });
    expect(games.map((p) => p.id)).toContain(ctx.sandbox.cloudProjectId);
  });
});
