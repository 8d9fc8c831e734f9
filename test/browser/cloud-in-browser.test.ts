/**
 * What only a page script of ours can see of a browser's cloud socket: the close code. The Scratch
 * web client itself (scratch-gui.test.ts, the real client against the sandbox) discards it (its
 * provider logs a close and reconnects), so a refusal would look the same there as a dropped
 * connection. A page that is not logged in must be refused with 4002, as the platform does, and
 * nothing may throw in the page. The page's cloud code (scratch-cloud-page.ts) handles the wire as
 * the web client does; everything else these tests once did with it, the real client does now.
 */
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../support/sandbox.js';
import { type CloudPage, hasChromium, launchChromium, openCloudPage } from './chromium.js';

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

// A browser context on a busy machine: beyond the default 30 s.
describe.skipIf(!hasChromium)('a browser’s cloud socket, seen by a page script', { timeout: 300_000 }, () => {
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
});
