import { describe, expect, it } from 'vitest';
import { ApiError, type PageProgress } from '../../src/index.js';
import { waitFor } from '../cloud/support.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('users', () => {
  it('get returns the typed profile', async () => {
    const session = ctx.anonymous();
    const user = await session.users.get(ctx.sandbox.samples.demoUser);
    expect(user).toMatchObject({
      username: ctx.sandbox.samples.demoUser,
      id: expect.any(Number),
      scratchteam: expect.any(Boolean),
      history: { joined: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      profile: { country: expect.any(String), images: { '90x90': expect.any(String) } },
    });
    // Usernames are case-insensitive on the platform.
    expect((await session.users.get(user.username.toUpperCase())).id).toBe(user.id);
  });

  it('followers, following, favorites and projects', async () => {
    const session = ctx.anonymous();
    const name = ctx.sandbox.samples.demoUser;
    const [followers, following, favorites, projects] = await Promise.all([
      session.users.followers(name),
      session.users.following(name),
      session.users.favorites(name),
      session.users.projects(name),
    ]);
    // The sandbox's seeded data (seed 1): the demo user's lists are this long.
    expect([followers.length, following.length, favorites.length]).toEqual([9, 16, 4]);
    for (const list of [followers, following]) {
      expect(list[0]).toMatchObject({ username: expect.any(String), profile: expect.any(Object) });
    }
    expect(favorites[0]).toMatchObject({ id: expect.any(Number), stats: expect.any(Object) });
    // Rows of a user's projects carry the author's id but no username, as on the real site.
    const user = await session.users.get(name);
    expect(projects.every((p) => p.author.id === user.id && p.public)).toBe(true);
  });

  it('a missing user is ApiError 404 with the service body; bad names are caller errors', async () => {
    const session = ctx.anonymous();
    const error = await session.users.get('nobody_like_this').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'ApiError', status: 404, body: { code: 'NotFound', message: '' } });
    expect(error.message).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/users\/nobody_like_this → 404/);
    await expect(session.users.get('')).rejects.toThrow(RangeError);
    await expect(session.users.get('has space')).rejects.toThrow(/not a valid Scratch username/);
    // @ts-expect-error: wrong type
    expect(() => session.users.followers(12)).toThrow(TypeError);
  });
});

describe('paging', () => {
  it('a limit above 40 is served by several requests of at most 40', async () => {
    const session = ctx.anonymous();
    const name = ctx.sandbox.samples.popularUser;
    const hundred = await session.users.followers(name, { limit: 100 });
    expect(hundred.length).toBe(100);
    const byPages = [
      ...(await session.users.followers(name, { limit: 40, offset: 0 })),
      ...(await session.users.followers(name, { limit: 40, offset: 40 })),
      ...(await session.users.followers(name, { limit: 20, offset: 80 })),
    ];
    expect(hundred.map((u) => u.id)).toEqual(byPages.map((u) => u.id));
    expect(new Set(hundred.map((u) => u.id)).size).toBe(100);
  });

  it('walks all pages with for await, with progress, and stops at the end', async () => {
    const session = ctx.anonymous();
    const name = ctx.sandbox.samples.popularUser;
    const progress: PageProgress[] = [];
    const ids: number[] = [];
    for await (const user of session.users.followers(name, { onProgress: (p) => progress.push(p) }))
      ids.push(user.id);
    expect(ids.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(ids).size).toBe(ids.length);
    expect(progress.at(-1)).toMatchObject({ items: ids.length, done: true });
    expect(progress.filter((p) => p.done)).toHaveLength(1);
    // all() collects the same rows; an offset skips.
    const all = await session.users.followers(name).all();
    expect(all.map((u) => u.id)).toEqual(ids);
    const tail = await session.users.followers(name, { offset: ids.length - 5 }).all();
    expect(tail.map((u) => u.id)).toEqual(ids.slice(-5));
  });

  it('a walk with a limit stops there; breaking early is fine', async () => {
    const session = ctx.anonymous();
    const name = ctx.sandbox.samples.popularUser;
    const rows = await session.users.followers(name, { limit: 90, offset: 10 }).all();
    expect(rows.length).toBe(90);
    let seen = 0;
    for await (const _ of session.users.followers(name)) if (++seen === 3) break;
    expect(seen).toBe(3);
  });

  it('a walk reads ahead: while the reader holds its first row, the next pages are already asked for', async () => {
    const session = ctx.anonymous();
    const name = ctx.sandbox.samples.popularUser;
    const before = ctx.sandbox.traffic.requests;
    const walk = session.users.followers(name, { prefetch: 3 })[Symbol.asyncIterator]();
    const first = await walk.next();
    expect(first.done).toBe(false);
    // The reader is not pulling: only requests made ahead of it can reach the sandbox now, and
    // a walk keeps `prefetch` of them in flight (a walk without read-ahead would stay at 1).
    await waitFor(() => ctx.sandbox.traffic.requests - before === 3, 'three pages asked for at once');
    // Still three: the walk asks for the fourth only once the reader takes the second page.
    for (let row = 1; row < 40; row++) expect((await walk.next()).done).toBe(false);
    expect(ctx.sandbox.traffic.requests - before).toBe(3);
    await walk.return?.();
  });

  it('page options are checked', () => {
    const session = ctx.anonymous();
    const name = ctx.sandbox.samples.popularUser;
    expect(() => session.users.followers(name, { limit: 0 })).toThrow(RangeError);
    expect(() => session.users.followers(name, { offset: -1 })).toThrow(RangeError);
    expect(() => session.users.followers(name, { limit: 2.5 })).toThrow(TypeError);
  });
});

describe('studios', () => {
  it('get and every list', async () => {
    const session = ctx.anonymous();
    const id = ctx.sandbox.samples.studio;
    const studio = await session.studios.get(id);
    expect(studio).toMatchObject({
      id,
      title: expect.any(String),
      host: expect.any(Number),
      stats: expect.any(Object),
    });
    const [projects, curators, managers, comments] = await Promise.all([
      session.studios.projects(id),
      session.studios.curators(id),
      session.studios.managers(id),
      session.studios.comments(id),
    ]);
    // The seeded studio (seed 1): its lists are as long as its own counts say, 6 of its 10
    // comments at the top level.
    expect(studio.stats).toEqual({ comments: 10, followers: 48, managers: 2, projects: 22 });
    expect([projects.length, curators.length, managers.length, comments.length]).toEqual([22, 4, 2, 6]);
    expect(projects[0]).toMatchObject({
      id: expect.any(Number),
      title: expect.any(String),
      username: expect.any(String),
    });
    expect(managers.some((m) => m.id === studio.host)).toBe(true);
    const thread = comments.find((c) => c.reply_count > 0)!;
    expect(thread).toBeDefined();
    const replies = await session.studios.replies(id, thread.id);
    expect(replies.length).toBe(Math.min(thread.reply_count, 40));
    expect(replies.every((r) => r.parent_id === thread.id)).toBe(true);
    await expect(session.studios.get(987_654_321)).rejects.toMatchObject({ status: 404 });
  });
});

describe('search and explore', () => {
  it('search finds projects by text; modes order differently', async () => {
    const session = ctx.anonymous();
    const all = await session.search.exploreProjects('*', { limit: 100 });
    expect(all.length).toBe(100);
    const word = all[0]!.title.split(/\s+/).find((w) => w.length > 3)!;
    const found = await session.search.projects(word);
    expect([word, found.length]).toEqual(['Frog', 4]);
    const lower = word.toLowerCase();
    expect(
      found.every((p) => `${p.title} ${p.description} ${p.instructions}`.toLowerCase().includes(lower)),
    ).toBe(true);
    const popular = await session.search.exploreProjects('*', { mode: 'popular', limit: 40 });
    const trending = await session.search.exploreProjects('*', { mode: 'trending', limit: 40 });
    expect(popular.map((p) => p.id)).not.toEqual(trending.map((p) => p.id));
    expect(popular[0]!.stats.loves).toBeGreaterThanOrEqual(popular.at(-1)!.stats.loves);
  });

  it('language filters and studios', async () => {
    const session = ctx.anonymous();
    const en = await session.search.exploreProjects('*', { language: 'en', limit: 200 }).all();
    const de = await session.search.exploreProjects('*', { language: 'de', limit: 200 }).all();
    expect([en.length, de.length]).toEqual([166, 33]);
    const enIds = new Set(en.map((p) => p.id));
    expect(de.some((p) => enIds.has(p.id))).toBe(false);
    const studios = await session.search.exploreStudios();
    expect(studios.length).toBeGreaterThanOrEqual(10);
    const studio = studios[0]!;
    const byTitle = await session.search.studios(studio.title.split(' ')[0]!);
    expect(byTitle.map((s) => s.id)).toContain(studio.id);
  });

  it('checks mode and language', () => {
    const session = ctx.anonymous();
    // @ts-expect-error: not a mode
    expect(() => session.search.projects('x', { mode: 'newest' })).toThrow(/mode must be one of/);
    expect(() => session.search.projects('x', { language: 'english!' })).toThrow(RangeError);
    // Real platform codes, region and all.
    expect(() => session.search.projects('x', { language: 'es-419' })).not.toThrow();
    expect(() => session.search.projects('x', { language: 'pt-br' })).not.toThrow();
    // @ts-expect-error: not a string
    expect(() => session.search.projects(5)).toThrow(TypeError);
  });
});
