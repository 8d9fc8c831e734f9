/**
 * Messages (WIRE.md §11.1) through the real client against the sandbox: the public count, the
 * typed list with its filters, clear, and the poller across a restart.
 */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  LoginRequiredError,
  MESSAGE_TYPES,
  type Message,
  type MessageEvents,
} from '../../src/index.js';
import { noteFollowUser } from '../../src/sandbox/rules/activity-events.js';
import { storeOf } from '../../src/sandbox/store-access.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

/** The message ids a poller emits until `count` have come. */
function collect(events: MessageEvents, count: number): Promise<Message[]> {
  const got: Message[] = [];
  return new Promise((resolve, reject) => {
    events.on('error', reject);
    events.on('message', (m) => {
      got.push(m);
      if (got.length === count) resolve(got);
    });
  });
}

describe('messages', () => {
  it('lists typed messages newest first, pages past 40, and every kind has its fields', async () => {
    const session = await ctx.login(0);
    const all = await session.messages.list().all();
    expect(all.length).toBeGreaterThan(40);
    const dates = all.map((m) => Date.parse(m.datetime_created));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    for (const message of all) {
      expect(MESSAGE_TYPES).toContain(message.type);
      expect(message).toMatchObject({ id: expect.any(Number), actor_username: expect.any(String) });
      // The union narrows on `type`: each kind's own fields are there.
      switch (message.type) {
        case 'loveproject':
          expect([typeof message.project_id, typeof message.title]).toEqual(['number', 'string']);
          break;
        case 'favoriteproject':
          expect(typeof message.project_title).toBe('string');
          break;
        case 'addcomment':
          expect([0, 1, 2]).toContain(message.comment_type);
          expect(message.comment_fragment).not.toMatch(/[<>]/);
          break;
        case 'curatorinvite':
        case 'studioactivity':
          expect(typeof message.gallery_id).toBe('number');
          break;
        case 'forumpost':
          expect(typeof message.topic_title).toBe('string');
          break;
        case 'remixproject':
          expect(typeof message.parent_title).toBe('string');
          break;
        default:
          break;
      }
    }
    const kinds = new Set(all.map((m) => m.type));
    for (const kind of ['loveproject', 'favoriteproject', 'addcomment', 'curatorinvite', 'forumpost']) {
      expect(kinds).toContain(kind);
    }
  });

  it('filters by tab', async () => {
    const session = await ctx.login(0);
    const comments = await session.messages.list({ filter: 'comments' }).all();
    expect(comments.length).toBeGreaterThan(0);
    expect(comments.every((m) => m.type === 'addcomment')).toBe(true);
    const projects = await session.messages.list({ filter: 'projects' });
    expect(projects.every((m) => ['loveproject', 'favoriteproject', 'remixproject'].includes(m.type))).toBe(
      true,
    );
    // @ts-expect-error: not a tab
    expect(() => session.messages.list({ filter: 'loves' })).toThrow(RangeError);
  });

  it('counts unread messages publicly, and clear brings the count to 0', async () => {
    const session = await ctx.login(2);
    const anonymous = ctx.anonymous();
    const name = ctx.sandbox.samples.popularUser;
    const before = await anonymous.users.messageCount(name);
    expect(before).toBeGreaterThan(0);
    expect(await session.messages.count()).toBe(before);
    // Listing leaves the count as it is.
    await session.messages.list({ limit: 5 });
    expect(await session.messages.count()).toBe(before);
    await session.messages.clear();
    expect(await anonymous.users.messageCount(name)).toBe(0);
    await expect(anonymous.users.messageCount('nobody_like_this')).rejects.toMatchObject({ status: 404 });
  });

  it('needs a login, and nobody reads another user’s messages', async () => {
    const anonymous = ctx.anonymous();
    expect(() => anonymous.messages.list()).toThrow(LoginRequiredError);
    await expect(anonymous.messages.count()).rejects.toThrow(LoginRequiredError);
    const other = await ctx.login(1);
    const error = await other
      .apiGet(`/users/${ctx.sandbox.samples.demoUser}/messages`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
  });

  it('the poller emits each new message once, and a restarted one resumes from lastSeenId', async () => {
    const session = await ctx.login(1);
    const store = storeOf(ctx.sandbox);
    const me = store.userByName(ctx.sandbox.samples.otherUser)!;
    const strangers = [...store.users.values()].filter((u) => u.bio === '' && u.status === '').slice(0, 30);
    const follow = (from: number, to: number) => {
      for (const u of strangers.slice(from, to)) noteFollowUser(store, u.id, me.id);
    };

    const first = session.messages.events({ interval: 0.05, limit: 5 });
    let early = 0;
    first.on('message', () => early++);
    await first.start();
    expect(early).toBe(0); // the first poll only marks what is there
    const mark = first.lastSeenId!;
    expect(mark).toBeGreaterThan(0);
    // More than one page of them (limit 5): the poller reads on until it meets what it has seen.
    const arriving = collect(first, 12);
    follow(0, 12);
    const got = await arriving;
    await first.stop();
    expect(got.map((m) => m.type)).toEqual(new Array(12).fill('followuser'));
    expect(got.map((m) => (m.type === 'followuser' ? m.actor_username : ''))).toEqual(
      strangers.slice(0, 12).map((u) => u.username),
    );
    const ids = got.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(Math.min(...ids)).toBeGreaterThan(mark);
    const saved = first.lastSeenId!;
    expect(saved).toBe(Math.max(...ids));

    // While no poller runs, more arrive (from strangers, and a love through the real write);
    // a new poller given the saved id reports exactly those.
    follow(12, 20);
    const demo = await ctx.login(0);
    const [mine] = await demo.users.projects(ctx.sandbox.samples.otherUser, { limit: 1 });
    await demo.projects.love(mine!.id);
    const second = session.messages.events({ interval: 0.05, lastSeenId: saved });
    const missed: Message[] = [];
    second.on('message', (m) => missed.push(m));
    await second.start();
    await second.stop();
    expect(missed.map((m) => m.actor_username)).toEqual([
      ...strangers.slice(12, 20).map((u) => u.username),
      ctx.sandbox.samples.demoUser,
    ]);
    expect(missed.at(-1)).toMatchObject({ type: 'loveproject', project_id: mine!.id });
    expect(missed.every((m) => m.id > saved)).toBe(true);
    expect(second.lastSeenId).toBe(Math.max(...missed.map((m) => m.id)));
    expect(() => session.messages.events({ interval: 0 })).toThrow(RangeError);
    // Past what a timer keeps, Node would fire it after 1 ms: a poll every millisecond.
    expect(() => session.messages.events({ interval: 1e7 })).toThrow(/at most 2147483 seconds/);
    expect(() => session.messages.events({ lastSeenId: -1 })).toThrow(RangeError);
  });

  it('lastSeenId moves with each message emitted: a listener that stops midway loses nothing', async () => {
    const session = await ctx.login(1);
    const store = storeOf(ctx.sandbox);
    const me = store.userByName(ctx.sandbox.samples.otherUser)!;
    const strangers = [...store.users.values()].filter((u) => u.bio === '' && u.status === '').slice(30, 33);
    const marker = session.messages.events({ interval: 0.05 });
    await marker.start();
    await marker.stop();
    const mark = marker.lastSeenId!;
    for (const u of strangers) noteFollowUser(store, u.id, me.id);

    // One poll brings all three; the listener stops the poller at the first.
    const stopping = session.messages.events({ interval: 0.05, lastSeenId: mark });
    const handled: Message[] = [];
    stopping.on('message', (m) => {
      handled.push(m);
      void stopping.stop();
    });
    // Stopped during its first poll: start() says so (it swallowed any failure before).
    await expect(stopping.start()).rejects.toThrow(/^MessageEvents was stopped before it was ready$/);
    expect(handled).toHaveLength(1);
    expect(stopping.lastSeenId).toBe(handled[0]!.id);

    // A poller resumed from that mark reports exactly the two the first one did not.
    const resumed = session.messages.events({ interval: 0.05, lastSeenId: stopping.lastSeenId! });
    const rest: Message[] = [];
    resumed.on('message', (m) => rest.push(m));
    await resumed.start();
    await resumed.stop();
    expect([...handled, ...rest].map((m) => m.actor_username)).toEqual(strangers.map((u) => u.username));
    expect(resumed.lastSeenId).toBe(rest.at(-1)!.id);
  });

  it('a failing poll is an error event, and polling goes on', async () => {
    const session = await ctx.login(1);
    const events = session.messages.events({ interval: 0.05 });
    await events.start();
    const errors: Error[] = [];
    const twice = new Promise<void>((resolve) =>
      events.on('error', (error) => {
        errors.push(error);
        if (errors.length === 2) resolve();
      }),
    );
    await session.logout(); // every poll from now on is refused
    await twice;
    await events.stop();
    expect(errors[0]).toBeInstanceOf(LoginRequiredError);
    expect(events.running).toBe(false);
  });
});
