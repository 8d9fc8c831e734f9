/**
 * The sandbox's comment rules on their own clock (no waiting): the flood window slides, mutes
 * escalate and end, spam is the same text a third time, and memory stays bounded. Plus the one
 * rule that needs a full studio: "too many owners", on a sandbox assembled from its parts so the
 * test can fill the studio with managers first.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_HOSTS, Session } from '../../src/index.js';
import type { SandboxContext } from '../../src/sandbox/context.js';
import { Router } from '../../src/sandbox/router.js';
import { apiRoutes } from '../../src/sandbox/routes/api.js';
import { siteRoutes } from '../../src/sandbox/routes/site.js';
import { MAX_MANAGERS, studioManagementRoutes } from '../../src/sandbox/routes/studio-management.js';
import { CommentGuard } from '../../src/sandbox/rules/comment-guard.js';
import { LoginGuard } from '../../src/sandbox/rules/login-guard.js';
import { DEMO_ACCOUNTS, seedStore } from '../../src/sandbox/seed/seed.js';
import { createSandboxServer, type SandboxServer } from '../../src/sandbox/server.js';
import { AssetQuota } from '../../src/sandbox/state/asset-quota.js';
import { ProjectTokens } from '../../src/sandbox/state/project-tokens.js';
import { SessionTable } from '../../src/sandbox/state/sessions.js';
import { Views } from '../../src/sandbox/views/api-views.js';
import { Links } from '../../src/sandbox/views/links.js';
import { caught } from '../support/caught.js';

describe('CommentGuard', () => {
  const clock = (start = Date.UTC(2026, 0, 1)) => {
    const c = { now: start };
    return { c, now: () => c.now };
  };

  it('floods at the limit inside the window, and not once the window has moved on', () => {
    const { c, now } = clock();
    const guard = new CommentGuard({ floodMax: 3, floodWindowMs: 60_000, now });
    for (const text of ['a', 'b', 'c']) {
      expect(guard.check(1, text)).toBeUndefined();
      guard.accept(1, text);
      c.now += 1_000;
    }
    expect(guard.check(1, 'd')).toEqual({ code: 'isFlood' });
    expect(guard.check(2, 'd')).toBeUndefined(); // per account
    c.now += 58_000; // the first comment leaves the window
    expect(guard.check(1, 'd')).toBeUndefined();
  });

  it('mutes 5, then 10, then 60 minutes, and lifts each mute when it ends', () => {
    const { c, now } = clock();
    const guard = new CommentGuard({ now });
    expect(guard.muteStatus(1)).toEqual({});
    const first = guard.check(1, 'what an IDIOT');
    expect(first?.code).toBe('isBad');
    expect(first?.muteStatus).toMatchObject({ showWarning: true, currentMessageType: 'general' });
    const start = Math.floor(c.now / 1000);
    expect(first?.muteStatus?.muteExpiresAt).toBe(start + 300);
    expect(guard.check(1, 'sorry')).toMatchObject({ code: 'isMuted' });

    c.now += 300_000;
    expect(guard.mutedUntil(1)).toBeUndefined();
    expect(guard.check(1, 'sorry')).toBeUndefined();
    expect(guard.muteStatus(1)).toMatchObject({
      showWarning: false,
      muteExpiresAt: 0,
      currentMessageType: null,
    });
    expect(guard.muteStatus(1).offenses).toHaveLength(1);

    expect(guard.check(1, 'stupid')?.muteStatus?.muteExpiresAt).toBe(Math.floor(c.now / 1000) + 600);
    c.now += 600_000;
    expect(guard.check(1, 'shutup')?.muteStatus?.muteExpiresAt).toBe(Math.floor(c.now / 1000) + 3_600);
    expect(guard.muteStatus(1).offenses).toHaveLength(3);
  });

  it('keeps ten offenses at most, and the day-long mute after the fourth', () => {
    const { c, now } = clock();
    const guard = new CommentGuard({ now });
    for (let i = 0; i < 12; i++) {
      guard.mute(7);
      c.now += 2 * 86_400_000;
    }
    const status = guard.muteStatus(7);
    expect(status.offenses).toHaveLength(10);
    const last = status.offenses!.at(-1)!;
    expect(last.expiresAt - last.createdAt).toBe(86_400);
  });

  it('the same text a third time is spam; other refusals in their order', () => {
    const guard = new CommentGuard({ now: () => 0 });
    guard.accept(1, 'First!');
    expect(guard.check(1, 'First!')).toBeUndefined();
    guard.accept(1, 'First!');
    expect(guard.check(1, 'First!')).toEqual({ code: 'isSpam' });
    expect(guard.check(1, 'Second!')).toBeUndefined();
    expect(guard.check(1, '')).toEqual({ code: 'isEmpty' });
    expect(guard.check(1, 'x'.repeat(501))).toEqual({ code: 'isTooLong' });
    expect(guard.check(1, 'discord.gg/abc')).toEqual({ code: 'hasChatSite' });
    // Words that merely contain a listed one are fine.
    expect(guard.check(1, 'stupidity is not a word on the list, but "stupid" is')?.code).toBe('isBad');
    expect(new CommentGuard().check(1, 'Stupendous idiomatic work')).toBeUndefined();
  });

  it('refuses impossible settings', () => {
    expect(() => new CommentGuard({ floodMax: 0 })).toThrow(RangeError);
    expect(() => new CommentGuard({ floodWindowMs: -1 })).toThrow(RangeError);
  });
});

describe('too many owners', () => {
  let app: SandboxServer;
  let base = '';
  let studioId = 0;
  let demoName = '';
  beforeAll(async () => {
    const { store, samples } = await seedStore(1);
    app = createSandboxServer({ latency: 0 });
    await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const links = new Links(base);
    const ctx: SandboxContext = {
      store,
      views: new Views(store, links),
      links,
      hosts: { ...PLATFORM_HOSTS, site: base, api: `${base}/api` },
      sessions: new SessionTable(),
      loginGuard: new LoginGuard(),
      projectTokens: new ProjectTokens(300),
      assetQuota: new AssetQuota(1_000_000),
    };
    const router = new Router();
    siteRoutes(router, ctx);
    apiRoutes(router, ctx);
    studioManagementRoutes(router, ctx);
    app.setRouter(router);
    // Fill the sample studio with managers: strangers, up to the most a studio may have.
    studioId = samples.studio;
    demoName = samples.demoUser;
    const studio = store.studios.get(studioId)!;
    for (const user of store.users.values()) {
      if (studio.managers.length >= MAX_MANAGERS) break;
      if (!studio.managers.includes(user.id) && !studio.curators.includes(user.id))
        studio.managers.push(user.id);
    }
  });
  afterAll(() => app.close());

  it('promoting a curator into a studio with 40 managers is a 400 "too many owners"', async () => {
    const host = await Session.login(DEMO_ACCOUNTS[2]!.username, DEMO_ACCOUNTS[2]!.password, {
      hosts: { site: base, api: `${base}/api` },
    });
    expect((await host.studios.managers(studioId).all()).length).toBe(MAX_MANAGERS);
    const error = await caught(host.studios.promote(studioId, demoName));
    expect(error).toMatchObject({ status: 400, reason: 'too many owners' });
    expect(error.body).toEqual({ message: 'too many owners' });
    expect((await host.studios.myRole(studioId)).manager).toBe(true);
  });
});
