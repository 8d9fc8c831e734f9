/**
 * Studio curation (WIRE.md §11.6) through the real client against the sandbox, on the seed's
 * sample studio: its host (StarAnimator) manages it, the demo user curates it, the other demo
 * account is a stranger to it. The tests run in order: each starts from the roles the last left.
 */
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/index.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();
const roles = async () => {
  const [demo, other, host] = [await ctx.login(0), await ctx.login(1), await ctx.login(2)];
  return { demo, other, host, studio: ctx.sandbox.samples.studio };
};
const names = async (list: 'curators' | 'managers') =>
  (await ctx.anonymous().studios[list](ctx.sandbox.samples.studio).all()).map((u) => u.username);
const projectIds = async () =>
  (await ctx.anonymous().studios.projects(ctx.sandbox.samples.studio).all()).map((p) => p.id);
/** A shared project of the session's user that is not in the studio yet. */
const ownProject = async (session: Session) => {
  const inStudio = new Set(await projectIds());
  const mine = await ctx.anonymous().users.projects(session.username!).all();
  return mine.find((p) => !inStudio.has(p.id))!.id;
};

describe('studio management', () => {
  it('myRole tells manager, curator and stranger apart', async () => {
    const { demo, other, host, studio } = await roles();
    expect(await host.studios.myRole(studio)).toMatchObject({
      manager: true,
      curator: false,
      invited: false,
    });
    expect(await demo.studios.myRole(studio)).toEqual({
      manager: false,
      curator: true,
      invited: false,
      following: true,
    });
    expect(await other.studios.myRole(studio)).toEqual({
      manager: false,
      curator: false,
      invited: false,
      following: false,
    });
  });

  it('closeToAll and openToAll: only managers; a closed studio takes projects from curators only', async () => {
    const { demo, other, host, studio } = await roles();
    expect((await caught(demo.studios.closeToAll(studio))).status).toBe(403);
    await host.studios.closeToAll(studio);
    expect((await ctx.anonymous().studios.get(studio)).open_to_all).toBe(false);
    const mine = await ownProject(other);
    expect((await caught(other.studios.addProject(studio, mine))).status).toBe(403);

    await host.studios.openToAll(studio);
    expect((await ctx.anonymous().studios.get(studio)).open_to_all).toBe(true);
    const added = await other.studios.addProject(studio, mine);
    expect(added).toMatchObject({ projectId: String(mine), actorId: other.userId });
    const [first] = await ctx.anonymous().studios.projects(studio, { limit: 1 });
    expect(first).toMatchObject({ id: mine, actor_id: other.userId });
    expect((await caught(other.studios.addProject(studio, mine))).status).toBe(409);
    await other.studios.removeProject(studio, mine);
    expect(await projectIds()).not.toContain(mine);
    expect((await caught(other.studios.removeProject(studio, mine))).status).toBe(404);
  });

  it('the deprecated open and close still work, as aliases of openToAll and closeToAll', async () => {
    const { demo, host, studio } = await roles();
    expect((await caught(demo.studios.close(studio))).status).toBe(403);
    await host.studios.close(studio);
    expect((await ctx.anonymous().studios.get(studio)).open_to_all).toBe(false);
    await host.studios.open(studio);
    expect((await ctx.anonymous().studios.get(studio)).open_to_all).toBe(true);
  });

  it('removing a project: managers, whoever added it, or its author; nobody else', async () => {
    const { demo, other, host, studio } = await roles();
    const project = ctx.sandbox.samples.fixtureProjects.monitored_variables; // demo's
    const before = (await ctx.anonymous().studios.get(studio)).stats.projects;
    await demo.studios.addProject(studio, project);
    expect((await ctx.anonymous().studios.get(studio)).stats.projects).toBe(before + 1);
    expect((await caught(other.studios.removeProject(studio, project))).status).toBe(403);
    await host.studios.removeProject(studio, project);
    expect(await projectIds()).not.toContain(project);
    await demo.studios.addProject(studio, project);
    await demo.studios.removeProject(studio, project);
    expect(await projectIds()).not.toContain(project);
    // An unshared project cannot be added.
    expect((await caught(demo.studios.addProject(studio, ctx.sandbox.samples.unsharedProject))).status).toBe(
      404,
    );
  });

  it('invite and accept: managers invite, the invited accept and become curators', async () => {
    const { demo, other, host, studio } = await roles();
    expect((await caught(demo.studios.inviteCurator(studio, other.username!))).status).toBe(403);
    const already = await caught(host.studios.inviteCurator(studio, demo.username!));
    expect(already.reason).toMatch(/already a curator/);
    expect(already.body).toMatchObject({ status: 'error' });
    expect((await caught(other.studios.acceptInvite(studio))).status).toBe(403);

    expect(await host.studios.inviteCurator(studio, other.username!)).toEqual({ status: 'success' });
    expect((await other.studios.myRole(studio)).invited).toBe(true);
    await other.studios.acceptInvite(studio);
    expect(await other.studios.myRole(studio)).toMatchObject({
      curator: true,
      invited: false,
      following: true,
    });
    expect(await names('curators')).toContain(other.username);
    expect((await caught(host.studios.inviteCurator(studio, 'no_such_user_404'))).status).toBe(404);
  });

  it('promote: managers promote curators; removing a manager is for the host only', async () => {
    const { demo, other, host, studio } = await roles();
    expect((await caught(demo.studios.promote(studio, other.username!))).status).toBe(403);
    await host.studios.promote(studio, other.username!);
    expect(await names('managers')).toContain(other.username);
    expect(await names('curators')).not.toContain(other.username);
    expect(await other.studios.myRole(studio)).toMatchObject({ manager: true, curator: false });
    const notCurator = await caught(host.studios.promote(studio, other.username!));
    expect(notCurator.status).toBe(400);

    // The new manager runs the studio now, but cannot remove the host or another manager.
    await other.studios.setDescription(studio, 'Run by a team of managers.');
    expect((await caught(other.studios.removeCurator(studio, host.username!))).status).toBe(403);
    const [, secondManager] = await names('managers');
    expect((await caught(other.studios.removeCurator(studio, secondManager!))).status).toBe(403);
    await host.studios.removeCurator(studio, other.username!);
    expect(await names('managers')).not.toContain(other.username);
    expect(await other.studios.myRole(studio)).toMatchObject({ manager: false, curator: false });
  });

  it('a curator may leave; the host may not', async () => {
    const { demo, host, studio } = await roles();
    await demo.studios.removeCurator(studio, demo.username!);
    expect(await names('curators')).not.toContain(demo.username);
    expect((await caught(host.studios.removeCurator(studio, host.username!))).status).toBe(403);
    expect((await caught(host.studios.removeCurator(studio, demo.username!))).status).toBe(404);
  });

  it('title and description: managers only, refusals say why and change nothing', async () => {
    const { demo, host, studio } = await roles();
    const answer = await host.studios.setTitle(studio, 'Games Galore 2');
    expect(answer).toMatchObject({ id: studio, title: 'Games Galore 2' });
    expect((await ctx.anonymous().studios.get(studio)).title).toBe('Games Galore 2');
    await host.studios.setDescription(studio, 'All the games.');
    expect((await ctx.anonymous().studios.get(studio)).description).toBe('All the games.');

    expect((await caught(host.studios.setTitle(studio, 'x'.repeat(53)))).reason).toBe(
      'editable-text-too-long',
    );
    expect((await caught(host.studios.setTitle(studio, '  '))).reason).toBe('This field is required.');
    const bad = await caught(host.studios.setTitle(studio, 'stupid games'));
    expect(bad).toMatchObject({ status: 200, reason: 'inappropriate-generic' });
    expect((await caught(host.studios.setDescription(studio, 'y'.repeat(5001)))).reason).toBe(
      'editable-text-too-long',
    );
    expect((await ctx.anonymous().studios.get(studio)).title).toBe('Games Galore 2');
    expect((await caught(demo.studios.setTitle(studio, 'Mine now'))).status).toBe(403);
  });
});
