/**
 * Comment writes (WIRE.md §11.4) through the real client against the sandbox: posting on
 * projects, studios and profiles, replies, who may delete what, reports, and every write seen
 * in the later reads.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, LoginRequiredError } from '../../src/index.js';
import { storeOf } from '../../src/sandbox/store-access.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

// Many comments from the same accounts: the flood rule is tested on its own, in comment-refusals.
const ctx = useSandbox({ commentsPerMinute: 1_000 });

describe('project comments', () => {
  it('posts a comment: the answer has no author.username, the list shows it with one', async () => {
    const demo = await ctx.login(0);
    const id = ctx.sandbox.samples.projectWithComments;
    const posted = await demo.projects.postComment(id, 'Great engine <3 & thanks');
    expect(posted.content).toBe('Great engine <3 & thanks');
    expect(posted.author.id).toBe(demo.userId);
    expect(posted.author).not.toHaveProperty('username');
    expect(posted).toMatchObject({
      parent_id: null,
      commentee_id: null,
      reply_count: 0,
      visibility: 'visible',
    });

    const [newest] = await ctx.anonymous().projects.comments(id, { limit: 1 });
    expect(newest!.id).toBe(posted.id);
    expect(newest!.author.username).toBe(ctx.sandbox.samples.demoUser);
    const one = await ctx.anonymous().projects.comment(id, posted.id);
    expect(one.content).toBe('Great engine <3 & thanks');
  });

  it('posts a reply into the thread (a reply to a reply joins the top-level thread)', async () => {
    const demo = await ctx.login(0);
    const owner = await ctx.login(2);
    const id = ctx.sandbox.samples.projectWithComments;
    const top = await demo.projects.postComment(id, 'Question: how do I jump higher?');
    const reply = await owner.projects.postComment(id, '@demo_scratcher raise the jump height', {
      parentId: top.id,
      commenteeId: demo.userId!,
    });
    expect(reply).toMatchObject({ parent_id: top.id, commentee_id: demo.userId });
    const again = await demo.projects.postComment(id, 'thanks!', {
      parentId: reply.id,
      commenteeId: owner.userId!,
    });
    expect(again.parent_id).toBe(top.id);

    const replies = await ctx.anonymous().projects.replies(id, top.id);
    expect(replies.map((r) => r.id)).toEqual([reply.id, again.id]);
    expect((await ctx.anonymous().projects.comment(id, top.id)).reply_count).toBe(2);
  });

  it('a reply to a comment of another project is a 404; a bad id a caller mistake', async () => {
    const demo = await ctx.login(0);
    const other = ctx.sandbox.samples.fixtureProjects.cloud_variables_simple;
    const [foreign] = await ctx
      .anonymous()
      .projects.comments(ctx.sandbox.samples.projectWithComments, { limit: 1 });
    const error = await caught(demo.projects.postComment(other, 'hi', { parentId: foreign!.id }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    await expect(demo.projects.postComment(other, 'hi', { parentId: -1 })).rejects.toThrow(RangeError);
    await expect(demo.projects.postComment(other, 'hi', { parentId: 'x' })).rejects.toThrow(TypeError);
  });

  it('deleting: the author and the project owner may, nobody else; replies go with their thread', async () => {
    const [demo, other, owner] = [await ctx.login(0), await ctx.login(1), await ctx.login(2)];
    const id = ctx.sandbox.samples.projectWithComments;
    const mine = await demo.projects.postComment(id, 'to be deleted by me');
    const theirs = await demo.projects.postComment(id, 'to be deleted by the owner');
    const reply = await other.projects.postComment(id, 'a reply', { parentId: theirs.id });

    const refused = await caught(other.projects.deleteComment(id, mine.id));
    expect(refused.status).toBe(403);
    expect((await ctx.anonymous().projects.comment(id, mine.id)).id).toBe(mine.id);

    await demo.projects.deleteComment(id, mine.id);
    expect((await caught(ctx.anonymous().projects.comment(id, mine.id))).status).toBe(404);
    await owner.projects.deleteComment(id, theirs.id);
    expect((await caught(ctx.anonymous().projects.comment(id, theirs.id))).status).toBe(404);
    expect((await caught(ctx.anonymous().projects.comment(id, reply.id))).status).toBe(404);
    // Deleting again: there is nothing left.
    expect((await caught(demo.projects.deleteComment(id, mine.id))).status).toBe(404);
  });

  it('reports a comment and gets a report id', async () => {
    const other = await ctx.login(1);
    const id = ctx.sandbox.samples.projectWithComments;
    const [first] = await ctx.anonymous().projects.comments(id, { limit: 1 });
    const report = await other.projects.reportComment(id, first!.id);
    expect(report.reportId).toEqual(expect.any(Number));
    expect((await caught(other.projects.reportComment(id, 1))).status).toBe(404);
  });

  it('needs a login, and checks the text before sending it', async () => {
    const anonymous = ctx.anonymous();
    const id = ctx.sandbox.samples.projectWithComments;
    await expect(anonymous.projects.postComment(id, 'hi')).rejects.toBeInstanceOf(LoginRequiredError);
    await expect(anonymous.projects.love(id)).rejects.toBeInstanceOf(LoginRequiredError);
    const demo = await ctx.login(0);
    await expect(demo.projects.postComment(id, '   ')).rejects.toThrow(RangeError);
    await expect(demo.projects.postComment(id, 'x'.repeat(501))).rejects.toThrow(/at most 500 characters/);
    // @ts-expect-error: content must be a string
    await expect(demo.projects.postComment(id, 42)).rejects.toThrow(TypeError);
  });
});

describe('studio comments', () => {
  it("posts, lists, and lets managers delete anyone's comment but not curators", async () => {
    const [demo, other, host] = [await ctx.login(0), await ctx.login(1), await ctx.login(2)];
    const studio = ctx.sandbox.samples.studio;
    const before = (await ctx.anonymous().studios.get(studio)).stats.comments;
    const posted = await other.studios.postComment(studio, 'Can I join as a curator?');
    expect(posted.author).not.toHaveProperty('username');
    expect(posted.author.id).toBe(other.userId);
    const [newest] = await ctx.anonymous().studios.comments(studio, { limit: 1 });
    expect(newest).toMatchObject({ id: posted.id, author: { username: ctx.sandbox.samples.otherUser } });
    expect((await ctx.anonymous().studios.get(studio)).stats.comments).toBe(before + 1);

    // demo curates the studio but does not manage it.
    expect((await caught(demo.studios.deleteComment(studio, posted.id))).status).toBe(403);
    await host.studios.deleteComment(studio, posted.id);
    expect((await caught(ctx.anonymous().studios.comment(studio, posted.id))).status).toBe(404);
    const [seeded] = await ctx.anonymous().studios.comments(studio, { limit: 1 });
    const report = await demo.studios.reportComment(studio, seeded!.id);
    expect(report.reportId).toEqual(expect.any(Number));
  });

  it('an unknown studio is a 404', async () => {
    const demo = await ctx.login(0);
    expect((await caught(demo.studios.postComment(1, 'hello'))).status).toBe(404);
  });
});

describe('profile comments (HTML)', () => {
  it('posts on a profile: the HTML answer is read into a comment, text decoded', async () => {
    const demo = await ctx.login(0);
    const target = ctx.sandbox.samples.otherUser;
    const posted = await demo.users.postComment(target, 'Hi <friend> & "welcome"');
    expect(posted).toMatchObject({
      parent_id: null,
      content: 'Hi <friend> & "welcome"',
      author: { username: ctx.sandbox.samples.demoUser, id: demo.userId },
    });
    // The time the sandbox stamped on it (its own record of the comment).
    const store = storeOf(ctx.sandbox);
    const row = store.social.profileComments
      .get(store.userByName(target)!.id)!
      .find((c) => c.id === posted.id);
    expect(Date.parse(posted.datetime_created)).toBe(Date.parse(row!.created));
    expect(posted.author.image).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/get_image\/user\/\d+_60x60\.png$/);

    const other = await ctx.login(1);
    const reply = await other.users.postComment(target, '@demo_scratcher thanks!', {
      parentId: posted.id,
      commenteeId: posted.author.id!,
    });
    expect(reply.parent_id).toBe(posted.id);

    const [first] = await ctx.anonymous().users.comments(target);
    expect(first).toMatchObject({ id: posted.id, content: 'Hi <friend> & "welcome"' });
    expect(first!.replies!.map((r) => [r.id, r.author.username, r.content])).toEqual([
      [reply.id, ctx.sandbox.samples.otherUser, '@demo_scratcher thanks!'],
    ]);
  });

  it('reads the seeded comments of the demo profile, threads and all', async () => {
    const comments = await ctx.anonymous().users.comments(ctx.sandbox.samples.demoUser);
    expect(comments.map((c) => c.content)).toEqual([
      'Nice profile & great <projects>!',
      'Your cloud demo helped me a lot, thanks!',
    ]);
    expect(comments[1]!.replies!.map((r) => r.author.username)).toEqual([ctx.sandbox.samples.demoUser]);
    expect(await ctx.anonymous().users.comments(ctx.sandbox.samples.demoUser, { page: 2 })).toEqual([]);
  });

  it('deleting: the profile owner and the author may, others not', async () => {
    const [demo, other, star] = [await ctx.login(0), await ctx.login(1), await ctx.login(2)];
    const profile = ctx.sandbox.samples.demoUser;
    const a = await other.users.postComment(profile, 'delete me (owner)');
    const b = await other.users.postComment(profile, 'delete me (author)');
    expect((await caught(star.users.deleteComment(profile, a.id))).status).toBe(403);
    await demo.users.deleteComment(profile, a.id);
    await other.users.deleteComment(profile, b.id);
    const ids = (await ctx.anonymous().users.comments(profile)).map((c) => c.id);
    expect(ids).not.toContain(a.id);
    expect(ids).not.toContain(b.id);
    await star.users.reportComment(profile, ids[0]!);
    expect((await caught(star.users.reportComment(profile, a.id))).status).toBe(404);
  });

  it('an unknown profile is a 404', async () => {
    const demo = await ctx.login(0);
    expect((await caught(demo.users.postComment('nobody_here_404', 'hi'))).status).toBe(404);
  });
});
