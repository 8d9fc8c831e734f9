/**
 * Debian's Chromium, headless, driven over the DevTools protocol by `puppeteer-core` (which never
 * downloads a browser). Installed by test/support/install-browser.sh.
 *
 * The test page runs in a document of the origin under test: the browser loads that origin's own
 * root page from the real server, then the test writes its page into that document
 * (`document.open`/`write`, which keeps the document's origin). Every request the page makes (the
 * login calls, the WebSocket) goes to the real server, so its cookies, its `Origin` and its
 * address space (loopback, for Chromium's local-network checks) are those of a page the server
 * itself served.
 */
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { installed, toolPath } from '../support/tools.js';
import { type PageCloud, SCRATCH_CLOUD_PAGE } from './scratch-cloud-page.js';

/** Debian's Chromium (the `chromium` package). */
export const CHROMIUM = toolPath('chromium');
/** Whether it is installed: the browser tests are skipped without it (a failure under test/run.sh). */
export const hasChromium = installed('chromium');

/** Starts it headless; the caller closes it. */
export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Chromium starts slowly on a busy machine; puppeteer's default gives up after 30 s.
    timeout: 120_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      // The web client draws the stage with WebGL: software WebGL, which Chromium asks to be named.
      '--enable-unsafe-swiftshader',
      // Its audio engine starts at load; on the site a person's click allows it.
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

/** What goes wrong in a page from now on: uncaught exceptions and console errors, in order. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${(error as Error).message ?? error}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url ?? '';
    // The browser's own icon request for the server's root document, not the page's doing.
    if (where.endsWith('/favicon.ico')) return;
    errors.push(`console: ${message.text()} (${where})`);
  });
  return errors;
}

/** A page of the Scratch-like cloud client, and everything that went wrong in it. */
export interface CloudPage {
  page: Page;
  /** Uncaught exceptions (`pageerror`) and console errors, in order. */
  errors: string[];
  /** Opens a cloud connection named `key` (handshake as `user` into `projectId`). */
  open(key: string, url: string, user: string, projectId: string): Promise<void>;
  /** Sets a variable through connection `key`, as the VM would. */
  set(key: string, name: string, value: string): Promise<void>;
  /** What connection `key` has received and seen so far. */
  read(key: string): Promise<PageCloud>;
  /** Closes the page's browser context (its sockets and cookies with it). */
  close(): Promise<void>;
}

/**
 * Opens the page in a document of `origin` (loaded from `origin` + `/`), in a browser context of
 * its own (its own cookies: nothing of another test's login).
 */
export async function openCloudPage(browser: Browser, origin: string): Promise<CloudPage> {
  const context = await browser.createBrowserContext();
  try {
    return await cloudPageIn(context, origin);
  } catch (error) {
    await context.close(); // a page that could not be set up is not left open in the browser
    throw error;
  }
}

async function cloudPageIn(context: BrowserContext, origin: string): Promise<CloudPage> {
  const page = await context.newPage();
  const errors = pageErrors(page);
  const answer = await page.goto(new URL('/', origin).href);
  if (!answer?.ok()) throw new Error(`${origin}/ answered ${answer?.status()}`);
  await page.setContent(SCRATCH_CLOUD_PAGE);
  if (new URL(page.url()).origin !== new URL(origin).origin) throw new Error(`the page left ${origin}`);
  return {
    page,
    errors,
    open: (key, url, user, projectId) =>
      page.evaluate(
        (k, u, name, id) => (globalThis as unknown as PageApi).openCloud(k, u, name, id),
        key,
        url,
        user,
        projectId,
      ),
    set: (key, name, value) =>
      page.evaluate((k, n, v) => (globalThis as unknown as PageApi).setCloudVar(k, n, v), key, name, value),
    read: (key) => page.evaluate((k) => (globalThis as unknown as PageApi).readCloud(k), key),
    close: () => context.close(),
  };
}

/** The functions the page's script puts on `window` (the page's `globalThis`). */
interface PageApi {
  openCloud(key: string, url: string, user: string, projectId: string): void;
  setCloudVar(key: string, name: string, value: string): void;
  readCloud(key: string): PageCloud;
}
