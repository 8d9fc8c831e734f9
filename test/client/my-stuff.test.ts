/**
 * "My Stuff" (WIRE.md §12.4) through the real client against the sandbox: projects by filter and
 * sort, studios, the page's counts; and the refusals (no login, bad arguments).
 */
import { describe, expect, it } from 'vitest';
import { LoginRequiredError } from '../../src/index.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('my stuff', () => {
  it('projects: all, shared and unshared agree with the public list and the counts', async () => {
    const demo = await ctx.login(0);
    const all = await demo.myStuff.projects();
    const shared = await demo.myStuff.projects({ filter: 'shared' });
    const unshared = await demo.myStuff.projects({ filter: 'unshared' });
    expect(all.length).toBe(shared.length + unshared.length);
    expect(unshared.map((p) => p.pk)).toContain(ctx.sandbox.samples.unsharedProject);
    expect(shared.every((p) => p.fields.datetime_shared !== null)).toBe(true);
    const publicIds = (await ctx.anonymous().users.projects(demo.username!).all()).map((p) => p.id).sort();
    expect(shared.map((p) => p.pk).sort()).toEqual(publicIds);
    expect(await demo.myStuff.counts()).toEqual({
      shared: shared.length,
      unshared: unshared.length,
      studios: (await demo.myStuff.studios()).length,
    });
    expect(await demo.myStuff.projects({ filter: 'trashed' })).toHaveLength(0);
    // The site's list of unshared projects is `notshared` (WIRE.md §12.7); `unshared` is no list.
    const site = `${ctx.sandbox.url}/site-api/projects`;
    const notshared = await demo.http.json<{ pk: number }[]>(`${site}/notshared/`);
    expect(notshared.map((p) => p.pk)).toEqual(unshared.map((p) => p.pk));
    expect((await caught(demo.http.json(`${site}/unshared/`))).status).toBe(404);
  });

  it('projects sort by views, loves and title, either way', async () => {
    const demo = await ctx.login(0);
    const views = (await demo.myStuff.projects({ sort: 'views' })).map((p) => p.fields.view_count);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    const loves = (await demo.myStuff.projects({ sort: 'loves', descending: false })).map(
      (p) => p.fields.love_count,
    );
    expect(loves).toEqual([...loves].sort((a, b) => a - b));
    const titles = (await demo.myStuff.projects({ sort: 'title', descending: false })).map((p) =>
      p.fields.title.toLowerCase(),
    );
    expect(titles).toEqual([...titles].sort());
  });

  it('studios: owned and curated', async () => {
    const demo = await ctx.login(0);
    const curated = await demo.myStuff.studios({ filter: 'curated' });
    expect(curated.map((s) => s.pk)).toContain(ctx.sandbox.samples.studio);
    const host = await ctx.login(2);
    const owned = await host.myStuff.studios({ filter: 'owned' });
    expect(owned.map((s) => s.pk)).toContain(ctx.sandbox.samples.studio);
    expect(owned.every((s) => s.fields.owner.username === host.username)).toBe(true);
  });

  it('refusals: no login, bad arguments', async () => {
    const anonymous = ctx.anonymous();
    await expect(anonymous.myStuff.projects()).rejects.toThrow(LoginRequiredError);
    await expect(anonymous.myStuff.counts()).rejects.toThrow(LoginRequiredError);
    const demo = await ctx.login(0);
    await expect(demo.myStuff.projects({ filter: 'deleted' as 'all' })).rejects.toThrow(RangeError);
    await expect(demo.myStuff.projects({ sort: 7 as unknown as 'title' })).rejects.toThrow(TypeError);
    await expect(demo.myStuff.studios({ filter: 'mine' as 'all' })).rejects.toThrow(RangeError);
    await expect(demo.myStuff.projects({ maxPages: 0 })).rejects.toThrow(RangeError);
  });
});
