/**
 * Visibility (issue 10 §2): a user who cannot see a project (unshared, not theirs) can neither
 * join its cloud nor read its cloud log; its owner can. The sandbox's one visibility rule decides.
 */
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/index.js';
import { useSandbox } from '../support/sandbox.js';
import { RawSocket } from './support.js';

const ctx = useSandbox();

function cookieOf(session: Session): string {
  return `scratchsessionsid=${session.http.cookie(ctx.sandbox.hosts.site, 'scratchsessionsid')}`;
}

async function logs(projectId: number, cookie?: string): Promise<{ status: number; body: unknown }> {
  const answer = await fetch(`${ctx.sandbox.hosts.cloudHttp}/logs?projectid=${projectId}&limit=10`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
  return { status: answer.status, body: await answer.json() };
}

describe('an unshared project', () => {
  it('is joined and logged for its owner only', async () => {
    const projectId = ctx.sandbox.samples.unsharedProject;
    const owner = await ctx.login(0);
    const other = await ctx.login(1);

    const stranger = new RawSocket(ctx.sandbox.hosts.cloudWs, { Cookie: cookieOf(other) });
    await stranger.opened;
    stranger.send({ method: 'handshake', user: other.username, project_id: String(projectId) });
    expect((await stranger.closed).code).toBe(4004);

    const own = new RawSocket(ctx.sandbox.hosts.cloudWs, { Cookie: cookieOf(owner) });
    await own.opened;
    own.send({ method: 'handshake', user: owner.username, project_id: String(projectId) });
    own.send({
      method: 'set',
      name: '☁ secret',
      value: '42',
      user: owner.username,
      project_id: String(projectId),
    });
    let mine = await logs(projectId, cookieOf(owner));
    for (let i = 0; i < 200 && (mine.body as unknown[]).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      mine = await logs(projectId, cookieOf(owner));
    }
    expect(mine.body).toMatchObject([
      { user: owner.username, verb: 'set_var', name: '☁ secret', value: '42' },
    ]);
    expect(own.closeInfo).toBeNull();

    // Anyone else reads it as a project without a log: logged in as another user, or logged out.
    expect(await logs(projectId, cookieOf(other))).toEqual({ status: 200, body: [] });
    expect(await logs(projectId)).toEqual({ status: 200, body: [] });
    await own.close();
  });

  it('leaves shared projects open to everyone', async () => {
    const other = await ctx.login(1);
    const projectId = ctx.sandbox.cloudProjectId;
    const player = new RawSocket(ctx.sandbox.hosts.cloudWs, { Cookie: cookieOf(other) });
    await player.opened;
    player.send({ method: 'handshake', user: other.username, project_id: String(projectId) });
    await player.frame(1);
    expect(((await logs(projectId)).body as unknown[]).length).toBeGreaterThan(0);
    await player.close();
  });
});
