/**
 * Cloud variables in a real browser: headless Chromium runs a page whose cloud code handles the
 * wire as the Scratch web client does (see scratch-cloud-page.ts), on the sandbox's platform
 * endpoint (after logging in inside the page), on its alternate endpoint (a web player, logged
 * out), and on a server that answers like TurboWarp's cloud-server. Two page sockets must get the
 * project's current values after their handshakes and each other's sets, and nothing may throw.
 * Frames the page cannot read as text (binary frames arrive as a Blob) make its handler throw, so
 * this fails against a server that sends them.
 */
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cloud, type Session } from '../../src/index.js';
import { type Peer, startPeer } from '../cloud/client-peer.js';
import { useSandbox } from '../support/sandbox.js';
import { type CloudPage, hasChromium, launchChromium, openCloudPage } from './chromium.js';

const PREFIX = '☁ ';
const fixture = useSandbox();
let browser: Browser;
beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

/**
 * Polls `check` until it answers a value; stops at once when the page reported an error. The
 * limit only bounds a failing wait: on a busy machine a page's round trips can take seconds.
 */
async function until<T>(cloudPage: CloudPage, check: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (cloudPage.errors.length > 0)
      throw new Error(`the page failed while waiting for ${what}: ${cloudPage.errors.join('; ')}`);
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The `name=value` pairs of a socket's updates so far. */
async function updates(cloudPage: CloudPage, key: string): Promise<string[]> {
  const { updates: list } = await cloudPage.read(key);
  return list.map((u) => (u.varUpdate ? `${u.varUpdate.name}=${u.varUpdate.value}` : JSON.stringify(u)));
}

/**
 * Two page sockets join `projectId` on `url`: each first gets `initial` (every current value, in
 * one frame), then each sees the other's set and never its own.
 */
async function exchange(
  cloudPage: CloudPage,
  url: string,
  users: [string, string],
  projectId: string,
  initial: Record<string, string>,
  variable: string,
): Promise<void> {
  const expected = Object.entries(initial)
    .map(([name, value]) => `${PREFIX}${name}=${value}`)
    .sort();
  await cloudPage.open('a', url, users[0], projectId);
  await cloudPage.open('b', url, users[1], projectId);
  for (const key of ['a', 'b']) {
    const got = await until(
      cloudPage,
      async () => {
        const seen = await updates(cloudPage, key);
        return seen.length >= expected.length ? seen : undefined;
      },
      `the initial values on socket ${key}`,
    );
    expect([...got].sort()).toEqual(expected);
    expect((await cloudPage.read(key)).frames).toBe(1); // all of them in one frame
  }
  await cloudPage.set('a', `${PREFIX}${variable}`, '7301');
  await until(
    cloudPage,
    async () => ((await updates(cloudPage, 'b')).includes(`${PREFIX}${variable}=7301`) ? true : undefined),
    "a's set on b",
  );
  await cloudPage.set('b', `${PREFIX}${variable}`, '7302');
  await until(
    cloudPage,
    async () => ((await updates(cloudPage, 'a')).includes(`${PREFIX}${variable}=7302`) ? true : undefined),
    "b's set on a",
  );
  expect((await updates(cloudPage, 'a')).slice(expected.length)).toEqual([`${PREFIX}${variable}=7302`]);
  expect((await updates(cloudPage, 'b')).slice(expected.length)).toEqual([`${PREFIX}${variable}=7301`]);
  for (const key of ['a', 'b']) {
    const state = await cloudPage.read(key);
    expect(state.opened).toBe(true);
    expect(state.closes).toEqual([]);
  }
  expect(cloudPage.errors).toEqual([]);
}

/** The current values of a cloud as a connected client of ours reads them (names without `☁ `). */
async function currentValues(cloud: Cloud): Promise<Record<string, string>> {
  await cloud.connect();
  return cloud.getAllVars();
}

// Each test opens a browser context, logs in, connects four sockets: far beyond the default 30 s
// on a busy machine.
describe.skipIf(!hasChromium)('the Scratch web client in Chromium', { timeout: 300_000 }, () => {
  it('on the platform endpoint, logged in inside the page with the browser’s own cookie and Origin', async () => {
    const { sandbox } = fixture;
    const account = sandbox.accounts[0]!;
    const session: Session = await fixture.login(0);
    const observer = session.cloud(sandbox.cloudProjectId);
    const cloudPage = await openCloudPage(browser, sandbox.url);
    try {
      const initial = await currentValues(observer);
      expect(Object.keys(initial).length).toBeGreaterThan(0);
      const login = await cloudPage.login(account.username, account.password);
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject([{ username: account.username, success: 1 }]);
      const seen: string[] = [];
      observer.on('set', ({ name, value }) => seen.push(`${name}=${value}`));
      await exchange(
        cloudPage,
        sandbox.hosts.cloudWs,
        [account.username, account.username],
        String(sandbox.cloudProjectId),
        initial,
        'high score',
      );
      // The sets were the logged-in user's: the server applied them and forwarded them on.
      await until(cloudPage, async () => (seen.includes('high score=7302') ? true : undefined), 'the sets');
      expect(seen).toEqual(['high score=7301', 'high score=7302']);
    } finally {
      await observer.disconnect();
      await cloudPage.close();
    }
  });

  it('on the platform endpoint, a page that is not logged in is refused (4002) without throwing', async () => {
    const { sandbox } = fixture;
    const cloudPage = await openCloudPage(browser, sandbox.url);
    try {
      await cloudPage.open(
        'a',
        sandbox.hosts.cloudWs,
        sandbox.accounts[0]!.username,
        String(sandbox.cloudProjectId),
      );
      const closes = await until(
        cloudPage,
        async () => {
          const { closes: list } = await cloudPage.read('a');
          return list.length > 0 ? list : undefined;
        },
        'the close',
      );
      expect(closes.map((c) => c.code)).toEqual([4002]);
      expect(await updates(cloudPage, 'a')).toEqual([]);
      expect(cloudPage.errors).toEqual([]);
    } finally {
      await cloudPage.close();
    }
  });

  /**
   * Two bots of ours put `score` 12 and `level` 3 in an alternate project, then the page's sockets
   * exchange sets there; the observing bot sees the last of them.
   */
  async function onAlternate(cloudPage: CloudPage, projectId: string): Promise<void> {
    const host = fixture.sandbox.alternateCloudHost;
    const bot = (username: string) =>
      Cloud.alternate(projectId, { purpose: 'tests', contact: '@tester', host, username });
    const writer = bot('writer');
    const observer = bot('observer');
    try {
      await observer.connect();
      await writer.setVars({ score: 12, level: 3 });
      // The observer heard them: the server holds both before the page joins.
      await until(
        cloudPage,
        async () => (Object.keys(observer.getAllVars()).length === 2 ? true : undefined),
        'the seeded values',
      );
      await exchange(
        cloudPage,
        host,
        ['player1', 'player2'],
        projectId,
        { score: '12', level: '3' },
        'score',
      );
      await until(
        cloudPage,
        async () => (observer.getAllVars().score === '7302' ? true : undefined),
        'the last set on the observer',
      );
      expect(observer.getAllVars()).toEqual({ score: '7302', level: '3' });
    } finally {
      await writer.disconnect();
      await observer.disconnect();
    }
  }

  it('on the alternate endpoint, from a web player that is not logged in (the browser’s own User-Agent)', async () => {
    const cloudPage = await openCloudPage(browser, fixture.sandbox.url);
    try {
      await onAlternate(cloudPage, '880001');
    } finally {
      await cloudPage.close();
    }
  });

  it('on the alternate endpoint, from a page that logged in on the sandbox’s site first', async () => {
    // The browser sends the platform cookie along (one host serves both endpoints here); on the
    // real services the alternate server is another site and never sees it.
    const { sandbox } = fixture;
    const account = sandbox.accounts[1]!;
    const cloudPage = await openCloudPage(browser, sandbox.url);
    try {
      expect((await cloudPage.login(account.username, account.password)).status).toBe(200);
      await onAlternate(cloudPage, '880002');
    } finally {
      await cloudPage.close();
    }
  });

  describe('against a server that answers like TurboWarp’s cloud-server', () => {
    let peer: Peer;
    beforeAll(async () => {
      peer = await startPeer();
    });
    afterAll(async () => {
      await peer?.close();
    });

    it('the same page works there too', async () => {
      peer.broadcast('424242', '☁ score', '12'); // a project that already holds a value
      const cloudPage = await openCloudPage(browser, peer.url.replace(/^ws:/, 'http:'));
      try {
        await exchange(cloudPage, peer.url, ['player1', 'player2'], '424242', { score: '12' }, 'score');
        expect(peer.values('424242')).toEqual({ '☁ score': '7302' });
      } finally {
        await cloudPage.close();
      }
    });
  });
});
