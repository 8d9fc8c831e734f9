/**
 * Activity, statistics and remix trees (WIRE.md §11.2, §11.3, §11.7) through the real client
 * against the sandbox: a studio's activity walked by dateLimit without repeats, the feed, a
 * profile's activity read from HTML, the statistics, and remix trees built from `remixes`.
 */
import { fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiError, LoginRequiredError, type PageProgress, type RemixTreeNode } from '../../src/index.js';
import { noteStudioProject } from '../../src/sandbox/rules/activity-events.js';
import { storeOf } from '../../src/sandbox/store-access.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

/** A session whose requests are seen (through the real fetch), with the answers' JSON. */
function watched() {
  const requests: { url: URL; rows: unknown }[] = [];
  const session = ctx.anonymous({
    fetch: async (url, init) => {
      const answer = await fetch(url, init);
      const copy = answer.clone();
      const text = await copy.text();
      let rows: unknown = null;
      try {
        rows = JSON.parse(text);
      } catch {
        rows = text;
      }
      requests.push({ url: new URL(url), rows });
      return answer;
    },
  });
  return { session, requests };
}

describe('studio activity', () => {
  it('walks by dateLimit, drops the rows overlapping pages repeat, and ends', async () => {
    const studio = ctx.sandbox.samples.studio;
    const truth = storeOf(ctx.sandbox).activity.studioActivity(studio);
    expect(truth.length).toBeGreaterThan(60);
    const { session, requests } = watched();
    const progress: PageProgress[] = [];
    const rows = await session.studios.activity(studio, { onProgress: (p) => progress.push(p) }).all();
    expect(rows.map((r) => r.id)).toEqual(truth.map((r) => r.id));
    // Each request after the first asks from the oldest date seen, so it repeats that row.
    expect(requests.length).toBeGreaterThan(2);
    expect(requests[0]!.url.searchParams.get('dateLimit')).toBeNull();
    for (let i = 1; i < requests.length; i++) {
      const before = requests[i - 1]!.rows as { id: string; datetime_created: string }[];
      expect(requests[i]!.url.searchParams.get('dateLimit')).toBe(before.at(-1)!.datetime_created);
      expect((requests[i]!.rows as { id: string }[])[0]!.id).toBe(before.at(-1)!.id);
      expect(requests[i]!.url.searchParams.has('offset')).toBe(false);
    }
    expect(progress.at(-1)).toMatchObject({ items: truth.length, done: true });
    for (const row of rows) expect(row.id).toMatch(/^[a-z]+-\d+$/);
  });

  it('a window, an offset, a dateLimit, and typed rows', async () => {
    const studio = ctx.sandbox.samples.studio;
    const session = ctx.anonymous();
    const all = await session.studios.activity(studio).all();
    const window = await session.studios.activity(studio, { limit: 50, offset: 7 });
    expect(window.map((r) => r.id)).toEqual(all.slice(7, 57).map((r) => r.id));
    expect(window.more).toBe(true);
    const pivot = all[30]!;
    const older = await session.studios.activity(studio, {
      dateLimit: new Date(pivot.datetime_created),
      limit: 5,
    });
    expect(older.map((r) => r.id)).toEqual(all.slice(30, 35).map((r) => r.id));
    const kinds = new Set(all.map((r) => r.type));
    for (const kind of ['addprojecttostudio', 'removeprojectstudio', 'updatestudio', 'becomecurator']) {
      expect(kinds).toContain(kind);
    }
    for (const row of all) {
      if (row.type === 'addprojecttostudio' || row.type === 'removeprojectstudio') {
        expect(typeof row.project_title).toBe('string');
      } else if (row.type === 'becomecurator') {
        expect(typeof row.username).toBe('string');
      }
    }
    expect(() => session.studios.activity(studio, { dateLimit: 'yesterday' })).toThrow(RangeError);
    await expect(session.studios.activity(999_999_999).all()).rejects.toMatchObject({ status: 404 });
  });

  it('steps past a whole page of rows at one instant instead of asking for it forever', async () => {
    const store = storeOf(ctx.sandbox);
    const studio = [...store.studios.values()].find((s) => s.id !== ctx.sandbox.samples.studio)!;
    const project = store.projects.get(studio.projects[0]!.projectId)!;
    const instant = Date.now() + 60_000;
    for (let i = 0; i < 45; i++)
      noteStudioProject(store, studio.id, studio.hostId, project.id, i % 2 === 0, instant);
    const { session, requests } = watched();
    const rows = await session.studios.activity(studio.id).all();
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    // The 40 of that instant the service can give, then everything older.
    const truth = store.activity.studioActivity(studio.id);
    expect(rows.length).toBe(truth.length - 5);
    expect(rows.slice(40).map((r) => r.id)).toEqual(truth.slice(45).map((r) => r.id));
    expect(requests.length).toBeLessThan(10);
  });
});

describe('feed', () => {
  it('lists what the people you follow did, newest first, and needs a login', async () => {
    const session = await ctx.login(0);
    const store = storeOf(ctx.sandbox);
    const following = new Set(store.following.get(store.userByName(ctx.sandbox.samples.demoUser)!.id));
    const rows = await session.feed({ limit: 60 });
    expect(rows.length).toBe(60);
    expect(rows.every((r) => following.has(r.actor_id))).toBe(true);
    const dates = rows.map((r) => Date.parse(r.datetime_created));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const page2 = await session.feed({ limit: 5, offset: 5 });
    expect(page2.map((r) => r.id)).toEqual(rows.slice(5, 10).map((r) => r.id));
    for (const row of rows) {
      expect([
        'shareproject',
        'loveproject',
        'favoriteproject',
        'followuser',
        'followstudio',
        'remixproject',
        'becomecurator',
        'becomeownerstudio',
      ]).toContain(row.type);
    }
    expect(() => ctx.anonymous().feed()).toThrow(LoginRequiredError);
  });
});

describe('user activity', () => {
  it('parses the HTML page into typed rows with dates', async () => {
    const name = ctx.sandbox.samples.demoUser;
    const store = storeOf(ctx.sandbox);
    const truth = store.activity.userActivity(store.userByName(name)!.id);
    const { session, requests } = watched();
    const rows = await session.users.activity(name, { max: 10 });
    expect(requests[0]!.url.pathname).toBe('/messages/ajax/user-activity/');
    expect(requests[0]!.url.searchParams.get('max')).toBe('10');
    expect(typeof requests[0]!.rows).toBe('string'); // HTML, not JSON
    expect(rows.length).toBe(Math.min(10, truth.length));
    // Newest first, as the truth: times read as the past ('3 days ago' before now, not after it)
    // go down the list (read as the future, they would go up).
    const times = rows.map((row) => Date.parse(row.datetime_created));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(times).size).toBeGreaterThan(2);
    rows.forEach((row, i) => {
      const real = truth[i]!;
      expect(row.type).toBe(real.type);
      expect(row.actor_username).toBe(name);
      // Relative times are as precise as their smaller unit: within a day for these.
      const error = Math.abs(Date.parse(row.datetime_created) - Date.parse(real.datetime_created));
      expect(error).toBeLessThan(31 * 86_400_000);
      expect(row.ago).toMatch(/ago$/);
      if ('project_id' in real && row.type !== 'remixproject') {
        expect(row.target).toMatchObject({ kind: 'project', id: real.project_id });
      }
      if (real.type === 'followuser') {
        expect(row.target).toMatchObject({
          kind: 'user',
          id: real.followed_username,
          name: real.followed_username,
        });
      }
      if (real.type === 'becomecurator')
        expect(row.target).toMatchObject({ kind: 'studio', id: real.gallery_id });
    });
    await expect(session.users.activity('nobody_like_this')).rejects.toBeInstanceOf(ApiError);
    await expect(session.users.activity(name, { max: 0 })).rejects.toThrow(RangeError);
  });
});

describe('statistics', () => {
  it('reads daily, monthly and monthly-ga, with digit strings as numbers', async () => {
    const { session, requests } = watched();
    const stats = await session.statistics();
    expect(stats.daily.PROJECT_COUNT).toBeGreaterThan(1_000_000);
    expect(stats.daily.COMMENT_COUNT).toBe(
      stats.daily.PROJECT_COMMENT_COUNT +
        stats.daily.STUDIO_COMMENT_COUNT +
        stats.daily.PROFILE_COMMENT_COUNT,
    );
    const ga = requests.find((r) => r.url.pathname.endsWith('/monthly-ga/'))!.rows as Record<string, unknown>;
    expect(typeof ga.pageviews).toBe('string'); // on the wire
    expect(stats.monthlyGa.pageviews).toBe(Number(ga.pageviews));
    expect(typeof stats.monthlyGa.users).toBe('number');
    expect(stats.monthly.comment_data).toHaveLength(3);
    expect(stats.monthly.comment_data[0]!.values[0]).toEqual({
      x: expect.any(Number),
      y: expect.any(Number),
    });
    expect(stats.monthly.country_distribution['0']).toEqual(expect.any(Number));
  });
});

describe('remix trees', () => {
  it('the removed endpoint answers 404, as the real one does now', async () => {
    const session = ctx.anonymous();
    const error = await session.http
      .request(`${ctx.sandbox.url}/projects/${ctx.sandbox.samples.remixedProject}/remixtree/bare/`)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404 });
  });

  it('builds the tree from the root through remixes, with progress', async () => {
    const session = ctx.anonymous();
    const tip = ctx.sandbox.samples.remixedProject;
    const progress: number[] = [];
    const tree = await session.projects.remixTree(tip, { onProgress: (p) => progress.push(p.requests) });
    const project = await session.projects.get(tip);
    expect(tree.id).toBe(project.remix.root);
    expect(tree.title).toBe('Remix Me: Platformer Engine');
    expect(tree.author).toBe(ctx.sandbox.samples.popularUser);
    // The chain root → remix → remix → the tip.
    const path: RemixTreeNode[] = [];
    const find = (node: RemixTreeNode): boolean => {
      path.push(node);
      if (node.id === tip || node.children.some(find)) return true;
      path.pop();
      return false;
    };
    expect(find(tree)).toBe(true);
    expect(path).toHaveLength(4);
    expect(path.at(-1)!.author).toBe(ctx.sandbox.samples.otherUser);
    for (const node of path) expect(node.loves).toEqual(expect.any(Number));
    expect(progress.length).toBeGreaterThan(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const shallow = await session.projects.remixTree(tip, { depth: 1 });
    expect(shallow.children.length).toBeGreaterThan(0);
    expect(shallow.children.every((c) => c.children.length === 0 && c.truncated)).toBe(true);
    const one = await session.projects.remixTree(tip, { limit: 1 });
    expect(one).toMatchObject({ id: tree.id, children: [], truncated: true });
    await expect(session.projects.remixTree(tip, { depth: -1 })).rejects.toThrow(RangeError);
    await expect(session.projects.remixTree(999_999_999)).rejects.toMatchObject({ status: 404 });
  });
});
