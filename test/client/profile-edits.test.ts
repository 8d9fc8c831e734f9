/**
 * Profile edits (WIRE.md §12.5) through the real client against the sandbox: "About me", "What
 * I'm working on" and the featured project with a named label, read back by later reads; and the
 * refusals (someone else's profile, content the site refuses, bad CSRF, bad arguments).
 */
import { describe, expect, it } from 'vitest';
import { ApiError, LoginRequiredError, Session } from '../../src/index.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('profile edits', () => {
  it('setAbout and setWorkingOn show in the profile read', async () => {
    const other = await ctx.login(1);
    await other.users.setAbout('I make platformers ✨ and <tiny> games');
    await other.users.setWorkingOn('A maze with 100 levels');
    const profile = (await ctx.anonymous().users.get(other.username!)).profile;
    expect(profile.bio).toBe('I make platformers ✨ and <tiny> games');
    expect(profile.status).toBe('A maze with 100 levels');
  });

  it('setFeatured takes a named label; details read it back', async () => {
    const demo = await ctx.login(0);
    const [mine] = await ctx.anonymous().users.projects(demo.username!, { limit: 1 });
    await demo.users.setFeatured(mine!.id, 'work-in-progress');
    const details = await ctx.anonymous().users.details(demo.username!);
    expect(details).toMatchObject({
      user: { username: demo.username },
      featured_project: mine!.id,
      featured_project_label_id: 1,
      featured_project_label_name: 'Work In Progress',
      featured_project_data: { id: mine!.id, creator: demo.username, title: mine!.title },
    });
    // The record holds what the live answer holds (WIRE.md §12.7): no bio or status.
    expect(Object.keys(details).sort()).toEqual([
      'featured_project',
      'featured_project_data',
      'featured_project_label_id',
      'featured_project_label_name',
      'id',
      'thumbnail_url',
      'user',
    ]);
    expect(Object.keys(details.featured_project_data!).sort()).toEqual([
      'creator',
      'datetime_modified',
      'id',
      'thumbnail_url',
      'title',
    ]);
    await demo.users.setFeatured(mine!.id);
    expect((await demo.users.details(demo.username!)).featured_project_label_name).toBe('Featured Project');
  });

  it('takes back the whole object as the browser sends it (read-only keys and all)', async () => {
    const demo = await ctx.login(0);
    const url = `${ctx.sandbox.url}/site-api/users/all/${demo.username}/`;
    const whole = await demo.http.json<Record<string, unknown>>(url);
    await demo.authedJson(url, { method: 'PUT', json: { ...whole, featured_project_label_id: 3 } });
    expect((await demo.users.details(demo.username!)).featured_project_label_name).toBe('My Favorite Things');
    await demo.authedJson(url, { method: 'PUT', json: { ...whole, featured_project_label_id: null } });
    expect((await demo.users.details(demo.username!)).featured_project_label_id).toBeNull();
  });

  it('refusals: content, other projects, bad CSRF, no login, bad arguments', async () => {
    const demo = await ctx.login(0);
    const other = await ctx.login(1);
    const before = (await ctx.anonymous().users.get(demo.username!)).profile.bio;
    const [theirs] = await ctx.anonymous().users.projects(other.username!, { limit: 1 });
    const refused = await caught(demo.users.setFeatured(theirs!.id, 'remix-this'));
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.reason).toBe('featured_project: Only your own shared projects can be featured.');
    const unshared = ctx.sandbox.samples.unsharedProject;
    expect((await caught(demo.users.setFeatured(unshared))).reason).toMatch(/own shared projects/);

    // Someone else's profile, written with one's own session: refused, nothing changed.
    const url = `${ctx.sandbox.url}/site-api/users/all/${demo.username}/`;
    const error = await caught(other.authedJson(url, { method: 'PUT', json: { bio: 'hacked' } }));
    expect(error.status).toBe(403);
    const forged = new Session({ hosts: ctx.sandbox.hosts, jar: demo.jar });
    const csrf = await caught(forged.http.request(url, { method: 'PUT', json: { bio: 'forged' } }));
    expect(csrf.status).toBe(403);
    expect(csrf.reason).toBe('CSRF verification failed');
    expect((await ctx.anonymous().users.get(demo.username!)).profile.bio).toBe(before);

    await expect(demo.users.setAbout('x'.repeat(201))).rejects.toThrow(RangeError);
    await expect(demo.users.setWorkingOn(7 as unknown as string)).rejects.toThrow(TypeError);
    await expect(demo.users.setFeatured(1, 'best' as 'remix-this')).rejects.toThrow(RangeError);
    await expect(demo.users.setFeatured(1, 'constructor' as 'remix-this')).rejects.toThrow(RangeError);
    await expect(ctx.anonymous().users.setAbout('hi')).rejects.toThrow(LoginRequiredError);
  });
});
