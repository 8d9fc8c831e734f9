/**
 * A profile's totals (the counts its pages' headings state) and the projects a user loves (an
 * HTML list), through the real client against the sandbox, checked against the API's own lists.
 */
import { describe, expect, it } from 'vitest';
import { toTable } from '../../src/presentation/index.js';
import { storeOf } from '../../src/sandbox/store-access.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('profile totals and loves', () => {
  it("agree with the API's lists, walked to the end", async () => {
    const session = ctx.anonymous();
    const demo = await ctx.login(0);
    const name = demo.username!;
    const totals = await session.users.totals(name);
    const all = <T>(list: { all(): Promise<T[]> }) => list.all().then((rows) => rows.length);
    expect(totals).toEqual({
      username: name,
      followers: await all(session.users.followers(name)),
      following: await all(session.users.following(name)),
      projects: await all(session.users.projects(name)),
      studios: await all(session.users.curatedStudios(name)),
      favorites: await all(session.users.favorites(name)),
      loves: await all(session.users.loves(name)),
    });
    expect(totals.followers + totals.projects + totals.studios).toBeGreaterThan(0);
    // A name in another case is the same user, answered under the site's spelling (it echoed the
    // caller's, so "Alice" and "alice" made two rows of one user).
    expect(await session.users.totals(name.toUpperCase())).toEqual(totals);
  });

  it('lists loved projects newest love first; a love shows at once; none loved is 0', async () => {
    const session = ctx.anonymous();
    const demo = await ctx.login(0);
    const name = demo.username!;
    const before = await session.users.loves(name).all();
    const target = (await session.search.projects('', { limit: 40 })).find(
      (p) => !before.some((l) => l.id === p.id),
    )!;
    await demo.projects.love(target.id);
    const after = await session.users.loves(name).all();
    expect(after[0]).toEqual({ id: target.id, title: target.title, author: target.author.username });
    expect(after).toHaveLength(before.length + 1);
    expect((await session.users.totals(name)).loves).toBe(before.length + 1);
    await demo.projects.unlove(target.id);
    expect(toTable(after).columns.map((c) => c.key)).toEqual(['id', 'title', 'author']);
    expect(toTable(await session.users.totals(name)).rows).toHaveLength(1);

    const loner = await ctx.login(1);
    for (const love of await session.users.loves(loner.username!).all()) await loner.projects.unlove(love.id);
    expect(await session.users.loves(loner.username!)).toEqual([]);
    expect((await session.users.totals(loner.username!)).loves).toBe(0);
    expect((await caught(session.users.totals('no_such_user_x'))).status).toBe(404);
    await expect(session.users.totals('bad name!')).rejects.toThrow(RangeError);
    await expect(session.users.totals(7 as unknown as string)).rejects.toThrow(TypeError);
  });

  it('rank: New Scratcher (no shared project in the sandbox), Scratcher, Scratch Team', async () => {
    const session = ctx.anonymous();
    const demo = ctx.sandbox.samples.demoUser;
    expect(await session.users.rank(demo)).toEqual({ username: demo, rank: 'scratcher', membership: null });
    const store = storeOf(ctx.sandbox);
    const users = [...store.users.values()];
    const team = users.find((u) => u.scratchteam)!;
    const newcomer = users.find((u) => !u.scratchteam && store.sharedProjectsOf(u.id).length === 0)!;
    expect((await session.users.rank(team.username)).rank).toBe('scratch-team');
    expect((await session.users.rank(newcomer.username)).rank).toBe('new-scratcher');
    expect(toTable(await session.users.rank(demo)).columns.map((c) => c.key)).toEqual([
      'username',
      'rank',
      'membership',
    ]);
    expect((await caught(session.users.rank('no_such_user_x'))).status).toBe(404);
  });

  it('rank and profile comments keep to their signal: an aborted one sends no request', async () => {
    const session = ctx.anonymous();
    const demo = ctx.sandbox.samples.demoUser;
    const before = ctx.sandbox.traffic.log().length;
    const signal = AbortSignal.abort();
    expect((await caught(session.users.rank(demo, { signal }))).name).toBe('AbortError');
    expect((await caught(session.users.comments(demo, { signal }))).name).toBe('AbortError');
    // Before, rank's API read ignored the signal (an abort waited for it, 429 retries included).
    expect(ctx.sandbox.traffic.log().slice(before)).toEqual([]);
  });

  it("the Scratch Team, from the credits page's script", async () => {
    const session = ctx.anonymous();
    const team = [...storeOf(ctx.sandbox).users.values()].filter((u) => u.scratchteam);
    const members = await session.users.scratchTeam();
    expect(members.slice(0, -1).map((m) => [m.username, m.id])).toEqual(team.map((u) => [u.username, u.id]));
    // A member listed without an account, a name written with a \u escape.
    expect(members.at(-1)).toEqual({ username: null, id: null, name: 'Zoë' });
    expect(toTable(members).columns.map((c) => c.key)).toEqual(['username', 'name', 'id']);
  });
});
