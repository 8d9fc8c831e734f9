/**
 * Comment refusals (WIRE.md §11.4) through the real client against a sandbox with the default
 * rules: flood, spam, chat sites, comments turned off, a bad word that mutes the account, and
 * what a muted account can no longer do. And: a comment is never sent twice.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, CommentRejectedError, type Project, type Session } from '../../src/index.js';
import { storeOf } from '../../src/sandbox/store-access.js';
import { caught } from '../support/caught.js';
import { startFakePlatform } from '../support/fake-platform.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('refusals', () => {
  it('isFlood after five comments in a minute, on every kind of page', async () => {
    const demo = await ctx.login(0);
    const { projectWithComments, studio, otherUser } = ctx.sandbox.samples;
    await demo.projects.postComment(projectWithComments, 'one');
    await demo.projects.postComment(projectWithComments, 'two');
    await demo.studios.postComment(studio, 'three');
    await demo.users.postComment(otherUser, 'four');
    const fifth = await demo.projects.postComment(projectWithComments, 'five');

    const error = await caught<CommentRejectedError>(demo.projects.postComment(projectWithComments, 'six'));
    expect(error).toBeInstanceOf(CommentRejectedError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name: 'CommentRejectedError', code: 'isFlood', status: 200, muted: false });
    expect(error.message).toMatch(/comment rejected \(isFlood\)/);
    expect(error.body).toEqual({ rejected: 'isFlood' });
    // The profile's HTML answer carries the same refusal in its error data.
    const profile = await caught<CommentRejectedError>(demo.users.postComment(otherUser, 'seven'));
    expect(profile).toMatchObject({ code: 'isFlood', status: 200 });
    const studioError = await caught<CommentRejectedError>(demo.studios.postComment(studio, 'eight'));
    expect(studioError.code).toBe('isFlood');
    // Nothing refused was stored.
    const [newest] = await ctx.anonymous().projects.comments(projectWithComments, { limit: 1 });
    expect(newest!.id).toBe(fifth.id);
  });

  it('isSpam for the same text a third time; hasChatSite for a chat link; isDisallowed where comments are off', async () => {
    const star = await ctx.login(2);
    const { projectWithComments } = ctx.sandbox.samples;
    await star.projects.postComment(projectWithComments, 'First!');
    await star.projects.postComment(projectWithComments, 'First!');
    expect(
      (await caught<CommentRejectedError>(star.projects.postComment(projectWithComments, 'First!'))).code,
    ).toBe('isSpam');
    const chat = await caught<CommentRejectedError>(
      star.projects.postComment(projectWithComments, 'join us at discord.gg/abc'),
    );
    expect(chat.code).toBe('hasChatSite');

    const closed = await findProject(ctx.anonymous(), (p) => !p.comments_allowed);
    const off = await caught<CommentRejectedError>(star.projects.postComment(closed.id, 'hello'));
    expect(off).toMatchObject({ code: 'isDisallowed', message: expect.stringMatching(/turned off/) });
  });

  it('a bad word is isBad and mutes the account; muted, comments are isMuted and studio writes 403', async () => {
    const other = await ctx.login(1);
    const { projectWithComments, studio, demoUser } = ctx.sandbox.samples;
    const bad = await caught<CommentRejectedError>(
      other.projects.postComment(projectWithComments, 'you idiot'),
    );
    expect(bad.code).toBe('isBad');
    expect(bad.muted).toBe(true);
    const status = bad.muteStatus!;
    expect(status.offenses).toHaveLength(1);
    // The first mute lasts five minutes.
    expect(status.muteExpiresAt! - status.offenses![0]!.createdAt).toBe(300);
    // As the sandbox recorded the offense (its own mute record of the account).
    const guard = storeOf(ctx.sandbox).social.guard;
    expect(status.offenses![0]!.createdAt).toBe(guard.muteStatus(other.userId!).offenses![0]!.createdAt);
    expect(bad.mutedUntil!.getTime()).toBe(status.muteExpiresAt! * 1000);

    const muted = await caught<CommentRejectedError>(
      other.projects.postComment(projectWithComments, 'sorry'),
    );
    expect(muted).toMatchObject({ code: 'isMuted', muted: true });
    expect(muted.muteStatus!.muteExpiresAt).toBe(status.muteExpiresAt);
    const profile = await caught<CommentRejectedError>(other.users.postComment(demoUser, 'sorry'));
    expect(profile).toMatchObject({ code: 'isMuted', muted: true });
    expect(profile.muteStatus!.offenses).toHaveLength(1);

    const follow = await caught(other.studios.follow(studio));
    expect(follow.status).toBe(403);
    expect(follow.body).toMatchObject({ mute_status: { muteExpiresAt: status.muteExpiresAt } });
    const add = await caught(other.studios.addProject(studio, projectWithComments));
    expect(add.status).toBe(403);
    // `/session/` says so too, and loves are not muted.
    const info = await other.refreshSession();
    expect(info.permissions!.mute_status).toMatchObject({
      muteExpiresAt: status.muteExpiresAt,
      showWarning: true,
    });
    expect((await other.projects.love(projectWithComments)).userLove).toBe(true);
  });
});

describe('comments are never retried', () => {
  it('a comment POST that meets 503 is sent once; a read is retried', async () => {
    const platform = await startFakePlatform(() => ({
      status: 503,
      body: { code: 'Unavailable', message: 'busy' },
      headers: { 'retry-after': '0' },
    }));
    try {
      const session = await platform.login();
      const error = await caught(session.projects.postComment(5, 'hello'));
      expect(error.status).toBe(503);
      await caught(session.users.postComment('someone', 'hello'));
      await caught(session.projects.love(5));
      await caught(session.studios.addProject(5, 6));
      expect(platform.hits).toEqual([
        'POST /proxy/comments/project/5',
        'POST /site-api/comments/user/someone/add/',
        'POST /proxy/projects/5/loves/user/bot',
        'POST /studios/5/project/6',
      ]);
      platform.hits.length = 0;
      await caught(session.projects.isLoved(5));
      expect(platform.hits.length).toBe(4); // a read: the first try and three retries
    } finally {
      await platform.close();
    }
  });
});

/** The first explored project that passes `test`. */
async function findProject(session: Session, test: (project: Project) => boolean): Promise<Project> {
  for await (const project of session.search.exploreProjects()) if (test(project)) return project;
  throw new Error('no such project in the seed');
}
