/**
 * Comment watchers (issue 32 §3): new top-level comments of a project, a studio and a profile as
 * `comment` events, through the real client against the sandbox, as `messages.events()` does for
 * the inbox: each once, oldest first, resumable from `lastSeenId`, replies left out.
 */
import { describe, expect, it } from 'vitest';
import type { CommentEvents } from '../../src/index.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

/** The next `count` comments the watcher emits (an error rejects). */
function next<C>(events: CommentEvents<C & { id: number }>, count: number): Promise<C[]> {
  const got: C[] = [];
  return new Promise((resolve, reject) => {
    events.on('error', reject);
    events.on('comment', (c) => {
      got.push(c);
      if (got.length === count) resolve(got);
    });
  });
}

describe('comment watchers', () => {
  it('a project: new comments once, oldest first; a reply is not one; a later watcher resumes', async () => {
    const poster = await ctx.login(1);
    const project = ctx.sandbox.samples.projectWithComments;
    const author = (await ctx.anonymous().projects.get(project)).author.username;
    const watcher = ctx.anonymous().projects.commentEvents(project, { interval: 0.05, author });
    await watcher.start();
    const mark = watcher.lastSeenId!;
    expect(mark).toBeGreaterThan(0);
    const arriving = next(watcher, 2);
    const first = await poster.projects.postComment(project, 'first of two');
    await poster.projects.postComment(project, 'a reply, not news', {
      parentId: first.id,
      commenteeId: poster.userId!,
    });
    const second = await poster.projects.postComment(project, 'second of two');
    const got = await arriving;
    expect(got.map((c) => [c.id, c.content])).toEqual([
      [first.id, 'first of two'],
      [second.id, 'second of two'],
    ]);
    await watcher.stop();
    expect(watcher.lastSeenId).toBe(second.id);

    // A watcher started from the first one's mark hears both, and nothing else.
    const later = ctx
      .anonymous()
      .projects.commentEvents(project, { interval: 0.05, author, lastSeenId: mark });
    const heard = next(later, 2);
    await later.start();
    expect((await heard).map((c) => c.id)).toEqual([first.id, second.id]);
    await later.stop();

    // Without the author, the first poll looks it up, and no later one does (each poll did).
    const path = `/projects/${project}`;
    const lookups = () =>
      ctx.sandbox.traffic.log().filter((e) => e.method === 'GET' && e.path.endsWith(path));
    const before = lookups().length;
    const unnamed = ctx.anonymous().projects.commentEvents(project, { interval: 0.05 });
    await unnamed.start();
    const third = next(unnamed, 1);
    const posted = await poster.projects.postComment(project, 'third');
    expect((await third).map((c) => c.id)).toEqual([posted.id]);
    await unnamed.stop();
    expect(lookups().length - before).toBe(1);
  });

  it('a studio and a profile', async () => {
    const poster = await ctx.login(2);
    const studio = ctx.sandbox.samples.studio;
    const studioWatcher = ctx.anonymous().studios.commentEvents(studio, { interval: 0.05 });
    await studioWatcher.start();
    const studioNews = next(studioWatcher, 1);
    const posted = await poster.studios.postComment(studio, 'hello studio');
    expect((await studioNews).map((c) => c.id)).toEqual([posted.id]);
    await studioWatcher.stop();

    const profile = ctx.sandbox.samples.demoUser;
    const profileWatcher = ctx.anonymous().users.commentEvents(profile, { interval: 0.05 });
    await profileWatcher.start();
    const profileNews = next(profileWatcher, 1);
    await poster.users.postComment(profile, 'hello profile');
    const [comment] = await profileNews;
    expect(comment).toMatchObject({ content: 'hello profile', author: { username: poster.username } });
    await profileWatcher.stop();

    expect(() => ctx.anonymous().studios.commentEvents(studio, { interval: 0 })).toThrow(RangeError);
    expect(() => ctx.anonymous().projects.commentEvents(-1)).toThrow(RangeError);
  });
});
