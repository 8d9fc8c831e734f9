/**
 * Every write shows in the later reads of messages and activity (WIRE.md §11.1-11.2): a comment
 * in the project owner's messages, a love and a follow too, a profile comment in the profile
 * owner's, an invitation in the invitee's; an added project, a new curator and a promotion in
 * the studio's activity. Read through `session.messages` and `session.studios.activity`.
 */
import { describe, expect, it } from 'vitest';
import type { Session } from '../../src/index.js';
import type { Message, StudioActivity } from '../../src/records/activity-records.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox({ commentsPerMinute: 1_000 });
const messages = async (session: Session): Promise<Message[]> => [
  ...(await session.messages.list({ limit: 40 })),
];
const activity = async (studio: number): Promise<StudioActivity[]> => [
  ...(await ctx.anonymous().studios.activity(studio, { limit: 20 })),
];

describe('writes in messages', () => {
  it('a comment, a reply, a love, a favorite and a follow each reach the owner', async () => {
    const [demo, owner] = [await ctx.login(0), await ctx.login(2)];
    const project = ctx.sandbox.samples.projectWithComments;
    const unread = await owner.messages.count();
    const comment = await demo.projects.postComment(project, 'Love the <physics> & art');
    expect(await owner.messages.count()).toBe(unread + 1);
    expect(await ctx.anonymous().users.messageCount(owner.username!)).toBe(unread + 1);
    const [addcomment] = await messages(owner);
    expect(addcomment).toMatchObject({
      type: 'addcomment',
      actor_username: demo.username,
      actor_id: demo.userId,
      comment_type: 0,
      comment_obj_id: project,
      comment_id: comment.id,
      comment_fragment: 'Love the &lt;physics&gt; &amp; art',
      commentee_username: null,
    });

    // The owner's reply reaches the demo user (the commentee), not the owner.
    const reply = await owner.projects.postComment(project, 'thanks!', {
      parentId: comment.id,
      commenteeId: demo.userId!,
    });
    expect((await messages(demo))[0]).toMatchObject({
      type: 'addcomment',
      comment_id: reply.id,
      actor_username: owner.username,
      commentee_username: demo.username,
    });
    expect((await messages(owner))[0]!.id).toBe(addcomment!.id);

    await demo.users.unfollow(owner.username!); // the seed has demo follow the owner already
    await demo.projects.love(project);
    await demo.projects.favorite(project);
    await demo.users.follow(owner.username!);
    await demo.users.follow(owner.username!); // a second follow changes nothing: no message
    const latest = (await messages(owner)).slice(0, 3);
    expect(latest.map((m) => m.type)).toEqual(['followuser', 'favoriteproject', 'loveproject']);
    expect(latest[2]).toMatchObject({ project_id: project, actor_username: demo.username });
    // Loving again changes nothing, so it sends nothing.
    await demo.projects.love(project);
    expect((await messages(owner))[0]!.type).toBe('followuser');
  });

  it('a profile comment reaches the profile owner; a comment on your own page does not', async () => {
    const [demo, other] = [await ctx.login(0), await ctx.login(1)];
    const posted = await demo.users.postComment(other.username!, 'Hello neighbour');
    expect((await messages(other))[0]).toMatchObject({
      type: 'addcomment',
      comment_type: 1,
      comment_obj_title: other.username,
      comment_id: posted.id,
    });
    const before = (await messages(demo)).length;
    await demo.users.postComment(demo.username!, 'a note to myself');
    expect((await messages(demo)).length).toBe(before);
  });
});

describe('writes in studio activity', () => {
  it('an added project, an invitation, a new curator and a promotion', async () => {
    const [demo, other, host] = [await ctx.login(0), await ctx.login(1), await ctx.login(2)];
    const studio = ctx.sandbox.samples.studio;
    const project = ctx.sandbox.samples.fixtureProjects.cloud_variables_simple;
    const inStudio = (await ctx.anonymous().studios.projects(studio).all()).map((p) => p.id);
    if (inStudio.includes(project)) await host.studios.removeProject(studio, project);

    await demo.studios.addProject(studio, project);
    expect((await activity(studio))[0]).toMatchObject({
      type: 'addprojecttostudio',
      actor_username: demo.username,
      project_id: project,
      id: expect.stringMatching(/^addprojecttostudio-\d+$/),
    });

    await host.studios.inviteCurator(studio, other.username!);
    expect((await messages(other))[0]).toMatchObject({
      type: 'curatorinvite',
      gallery_id: studio,
      actor_username: host.username,
    });
    await other.studios.acceptInvite(studio);
    expect((await activity(studio))[0]).toMatchObject({ type: 'becomecurator', username: other.username });
    await host.studios.promote(studio, other.username!);
    expect((await activity(studio))[0]).toMatchObject({
      type: 'becomeownerstudio',
      recipient_username: other.username,
    });
    expect((await messages(other))[0]).toMatchObject({ type: 'becomeownerstudio', gallery_id: studio });

    await host.studios.setTitle(studio, 'Games Galore!');
    expect((await activity(studio))[0]).toMatchObject({
      type: 'updatestudio',
      actor_username: host.username,
    });
    await host.studios.removeCurator(studio, other.username!);
    expect((await activity(studio))[0]).toMatchObject({
      type: 'removecuratorstudio',
      username: other.username,
    });
  });
});
