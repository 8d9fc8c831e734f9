/**
 * The Scratch web client itself (scratch-gui 5.3.0 from npm, with its own scratch-vm) in headless
 * Chromium against the sandbox, mounted as the site's project page mounts it (scratch-gui-page.ts):
 * it loads a cloud project from the sandbox's project host (with the token the API gave the page),
 * connects to the cloud host with the browser's own cookie and Origin, and the handshake, its sets
 * and the values it takes are those of the real client. Our SDK's `Cloud` is the other client:
 * its sets change the VM's stage variables, and the GUI's sets reach it.
 *
 * Also on the sandbox's alternate endpoint (a web player, nobody logged in) and on a server that
 * answers like TurboWarp's cloud-server (test/cloud/client-peer.ts).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cloud } from '../../src/index.js';
import { type Peer, startPeer } from '../cloud/client-peer.js';
import { useSandbox } from '../support/sandbox.js';
import { hasChromium, launchChromium } from './chromium.js';
import { type GuiPage, guiHosts, openGuiPage, type StageVariables } from './scratch-gui-page.js';

const PREFIX = '☁ ';
const fixture = useSandbox();
let browser: Browser;
beforeAll(async () => {
  // The GUI's build is fetched (and its integrity checked) by the set-up, once; run always, since
  // only the script's marker tells a whole install from a file cut short (a no-op when whole).
  execFileSync('bash', [join(import.meta.dirname, '..', 'support', 'install-scratch-gui.sh')], {
    stdio: 'inherit',
  });
  if (hasChromium) browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
});

/**
 * Polls `check` until it answers a value; stops at once when the page reported an error. The
 * limit only bounds a failing wait: on a busy machine the GUI takes many seconds to load.
 */
async function until<T>(
  gui: GuiPage,
  check: () => Promise<T | undefined> | T | undefined,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (gui.errors.length > 0)
      throw new Error(`the page failed while waiting for ${what}: ${gui.errors.join('; ')}`);
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${await gui.state()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The stage's cloud variables, `☁ name` → value as text. */
function cloudValues(stage: StageVariables): Record<string, string> {
  return Object.fromEntries(
    Object.entries(stage)
      .filter(([, v]) => v.isCloud)
      .map(([name, v]) => [name, String(v.value)]),
  );
}

/**
 * Waits until the VM's stage holds in its cloud variables every value `other` has (`☁ name` →
 * value); the others keep the values of the project's body.
 */
function untilValues(gui: GuiPage, other: Cloud, what: string): Promise<StageVariables> {
  return until(
    gui,
    async () => {
      const stage = await gui.stage();
      if (!stage) return undefined;
      const values = cloudValues(stage);
      // What the server holds now, as the other client has it.
      const expected = onStage(other.getAllVars());
      return Object.entries(expected).every(([name, value]) => values[name] === value) ? stage : undefined;
    },
    what,
  );
}

/** A cloud's values (names without `☁ `) as the stage names them. */
const onStage = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [`${PREFIX}${name}`, value]));

/**
 * The exchange every test makes once the GUI is mounted: the GUI takes the server's values, its
 * set reaches `other`, and `other`'s set changes the VM's variable; the browser saw one socket.
 */
async function exchange(gui: GuiPage, other: Cloud, user: string, projectId: string): Promise<void> {
  const stage = await untilValues(gui, other, 'the server’s values in the VM');
  // The project's five cloud variables, read from the body the project host served.
  expect(Object.keys(cloudValues(stage)).sort()).toEqual(
    ['daily best', 'high score', 'last score', 'players online', 'total plays'].map((n) => `${PREFIX}${n}`),
  );
  const seen: string[] = [];
  other.on('set', ({ name, value }) => seen.push(`${name}=${value}`));
  await gui.setVariable(`${PREFIX}last score`, 7301);
  await until(gui, () => (seen.includes('last score=7301') ? true : undefined), 'the GUI’s set on the SDK');
  await other.setVar('daily best', 7302);
  await untilValues(gui, other, 'the SDK’s set in the VM');
  expect(onStage(other.getAllVars())[`${PREFIX}daily best`]).toBe('7302');
  // On the wire, as the browser's network log has it: one socket, a handshake, then the one set.
  expect(gui.sockets.map((s) => s.sent)).toEqual([
    [
      `${JSON.stringify({ method: 'handshake', user, project_id: projectId })}\n`,
      `${JSON.stringify({ method: 'set', user, project_id: projectId, name: `${PREFIX}last score`, value: 7301 })}\n`,
    ],
  ]);
  expect(seen).toEqual(['last score=7301']);
  expect(gui.errors).toEqual([]);
}

/** Mounts the GUI on the sandbox's cloud game, with the given cloud host and user. */
async function mount(gui: GuiPage, cloudHost: string, username: string, hasCloudPermission: boolean) {
  const { sandbox } = fixture;
  const projectToken = await gui.projectToken(sandbox.hosts.api, sandbox.cloudProjectId);
  await gui.mount({
    ...guiHosts(sandbox.hosts),
    cloudHost,
    projectId: String(sandbox.cloudProjectId),
    projectToken,
    username,
    hasCloudPermission,
  });
}

describe.skipIf(!hasChromium)(
  'the Scratch web client (scratch-gui 5.3.0) in Chromium',
  { timeout: 400_000 },
  () => {
    it('loads a cloud project, joins its cloud as the page’s logged-in user and trades sets with the SDK', async () => {
      const { sandbox } = fixture;
      const account = sandbox.accounts[0]!;
      const projectId = String(sandbox.cloudProjectId);
      // The other client, another user; a value the project's body does not hold, so the VM shows
      // the server's values only if the handshake's answer reached it.
      const other = (await fixture.login(1)).cloud(sandbox.cloudProjectId);
      const gui = await openGuiPage(browser, sandbox.url);
      try {
        await other.setVar('high score', 424242);
        expect(await gui.login(account.username, account.password)).toBe(200);
        await mount(gui, guiHosts(sandbox.hosts).cloudHost, account.username, true);
        await exchange(gui, other, account.username, projectId);
        const [socket] = gui.sockets;
        expect(socket!.url).toBe(sandbox.hosts.cloudWs);
        // The browser's own upgrade request: the page's origin, and the session cookie of its login.
        expect(socket!.requestHeaders.Origin).toBe(sandbox.url);
        expect(socket!.requestHeaders.Cookie).toMatch(/(^|; )scratchsessionsid="?[^;"]+/);
        // The server took the GUI's set as the page's user: its log says who set it.
        const reader = (await fixture.login(0)).cloud(sandbox.cloudProjectId);
        const [last] = await reader.logs({ variable: 'last score', limit: 40 }).all();
        expect(last).toMatchObject({ user: account.username, verb: 'set', value: '7301' });
      } finally {
        await other.disconnect();
        await gui.close();
      }
    });

    /** A web player (nobody logged in) on an alternate server, with a bot of ours as the other client. */
    async function asWebPlayer(host: string, projectId: string): Promise<void> {
      const other = Cloud.alternate(projectId, {
        purpose: 'tests',
        contact: '@tester',
        host,
        username: 'observer',
      });
      const gui = await openGuiPage(browser, fixture.sandbox.url);
      try {
        await other.connect();
        await other.setVars({ 'high score': 12, 'total plays': 3 });
        await mount(gui, host.replace(/^ws:\/\//, ''), 'player1', true);
        await exchange(gui, other, 'player1', projectId);
        // Nobody logged in: the browser sent no cookie at all.
        expect(gui.sockets[0]!.requestHeaders.Cookie).toBeUndefined();
      } finally {
        await other.disconnect();
        await gui.close();
      }
    }

    it('on the sandbox’s alternate endpoint, as a web player nobody logged in to', async () => {
      await asWebPlayer(fixture.sandbox.alternateCloudHost, String(fixture.sandbox.cloudProjectId));
    });

    describe('against a server that answers like TurboWarp’s cloud-server', () => {
      let peer: Peer;
      beforeAll(async () => {
        peer = await startPeer();
      });
      afterAll(async () => {
        await peer?.close();
      });

      it('the same client works there', async () => {
        await asWebPlayer(peer.url, String(fixture.sandbox.cloudProjectId));
        // The SDK sends values as text; the GUI sends what the VM holds (a number, from its API).
        expect(peer.values(String(fixture.sandbox.cloudProjectId))).toEqual({
          [`${PREFIX}high score`]: '12',
          [`${PREFIX}total plays`]: '3',
          [`${PREFIX}last score`]: 7301,
          [`${PREFIX}daily best`]: '7302',
        });
      });
    });
  },
);
