/**
 * Loves, favorites and follows (WIRE.md §11.5) through the real client against the sandbox, each
 * seen in the later reads: the project's `loves` and `favorites`, the user's favorites, followers
 * and following, the studio's `followers` and your role in it.
 */
import { describe, expect, it } from 'vitest';
import { LoginRequiredError } from '../../src/index.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('loves and favorites', () => {
  it('love raises loves by one, says so with a string project id, and unlove takes it back', async () => {
    const demo = await ctx.login(0);
    const id = ctx.sandbox.samples.projectWithComments;
    const before = (await ctx.anonymous().projects.get(id)).stats.loves;
    expect(await demo.projects.isLoved(id)).toBe(false);

    expect(await demo.projects.love(id)).toEqual({
      projectId: String(id),
      userLove: true,
      statusChanged: true,
    });
    expect((await ctx.anonymous().projects.get(id)).stats.loves).toBe(before + 1);
    expect(await demo.projects.isLoved(id)).toBe(true);
    // Loving again changes nothing.
    expect(await demo.projects.love(id)).toEqual({
      projectId: String(id),
      userLove: true,
      statusChanged: false,
    });
    expect((await ctx.anonymous().projects.get(id)).stats.loves).toBe(before + 1);

    expect(await demo.projects.unlove(id)).toEqual({
      projectId: String(id),
      userLove: false,
      statusChanged: true,
    });
    expect((await ctx.anonymous().projects.get(id)).stats.loves).toBe(before);
    expect(await demo.projects.isLoved(id)).toBe(false);
    expect((await demo.projects.unlove(id)).statusChanged).toBe(false);
  });

  it('favorite shows first in your favorites and in the project stats', async () => {
    const other = await ctx.login(1);
    const id = ctx.sandbox.samples.projectWithComments;
    const before = (await ctx.anonymous().projects.get(id)).stats.favorites;
    expect(await other.projects.favorite(id)).toEqual({
      projectId: String(id),
      userFavorite: true,
      statusChanged: true,
    });
    expect(await other.projects.isFavorited(id)).toBe(true);
    const [first] = await ctx.anonymous().users.favorites(ctx.sandbox.samples.otherUser, { limit: 1 });
    expect(first!.id).toBe(id);
    expect((await ctx.anonymous().projects.get(id)).stats.favorites).toBe(before + 1);

    expect((await other.projects.unfavorite(id)).userFavorite).toBe(false);
    expect(await other.projects.isFavorited(id)).toBe(false);
    const favorites = await ctx.anonymous().users.favorites(ctx.sandbox.samples.otherUser, { limit: 40 });
    expect(favorites.map((p) => p.id)).not.toContain(id);
    expect((await ctx.anonymous().projects.get(id)).stats.favorites).toBe(before);
  });

  it("the seed's favourites are loved and favourited already", async () => {
    let checked = 0;
    for (const index of [0, 1, 2]) {
      const session = await ctx.login(index);
      const favorites = await ctx.anonymous().users.favorites(session.username!, { limit: 3 });
      for (const project of favorites) {
        expect(await session.projects.isFavorited(project.id)).toBe(true);
        expect(await session.projects.isLoved(project.id)).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('an unshared project of someone else is a 404; your own can be loved', async () => {
    const other = await ctx.login(1);
    const unshared = ctx.sandbox.samples.unsharedProject;
    expect((await caught(other.projects.love(unshared))).status).toBe(404);
    expect((await caught(other.projects.isLoved(unshared))).status).toBe(404);
    const owner = await ctx.login(0);
    expect((await owner.projects.love(unshared)).statusChanged).toBe(true);
    await owner.projects.unlove(unshared);
  });

  it('needs a login', async () => {
    const anonymous = ctx.anonymous();
    const id = ctx.sandbox.samples.projectWithComments;
    for (const call of [
      () => anonymous.projects.isLoved(id),
      () => anonymous.projects.favorite(id),
      () => anonymous.users.follow('someone'),
      () => anonymous.studios.follow(1),
      () => anonymous.studios.myRole(1),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(LoginRequiredError);
    }
  });
});

describe('follows', () => {
  it('follow puts you first among the followers; unfollow takes you out', async () => {
    const star = await ctx.login(2);
    const target = ctx.sandbox.samples.otherUser;
    const following = async () =>
      (await ctx.anonymous().users.following(ctx.sandbox.samples.popularUser).all()).map((u) => u.username);
    await star.users.unfollow(target); // whatever the seed said
    expect(await following()).not.toContain(target);

    await star.users.follow(target);
    const [newest] = await ctx.anonymous().users.followers(target, { limit: 1 });
    expect(newest!.username).toBe(ctx.sandbox.samples.popularUser);
    expect(await following()).toContain(target);

    await star.users.unfollow(target);
    const followers = await ctx.anonymous().users.followers(target, { limit: 40 });
    expect(followers.map((u) => u.username)).not.toContain(ctx.sandbox.samples.popularUser);
    expect(await following()).not.toContain(target);
  });

  it('following yourself is refused; an unknown user is a 404', async () => {
    const demo = await ctx.login(0);
    expect((await caught(demo.users.follow(ctx.sandbox.samples.demoUser))).status).toBe(400);
    expect((await caught(demo.users.follow('no_such_user_404'))).status).toBe(404);
    await expect(demo.users.follow('not a name!')).rejects.toThrow(RangeError);
  });

  it('follow a studio: its followers count and your role say so', async () => {
    const other = await ctx.login(1);
    const studio = ctx.sandbox.samples.studio;
    const before = (await ctx.anonymous().studios.get(studio)).stats.followers;
    expect((await other.studios.myRole(studio)).following).toBe(false);
    await other.studios.follow(studio);
    await other.studios.follow(studio); // twice counts once
    expect((await ctx.anonymous().studios.get(studio)).stats.followers).toBe(before + 1);
    expect(await other.studios.myRole(studio)).toEqual({
      manager: false,
      curator: false,
      invited: false,
      following: true,
    });
    await other.studios.unfollow(studio);
    expect((await ctx.anonymous().studios.get(studio)).stats.followers).toBe(before);
    expect((await other.studios.myRole(studio)).following).toBe(false);
    expect((await caught(other.studios.follow(1))).status).toBe(404);
  });
});
