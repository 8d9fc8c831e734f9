/**
 * The Scratch web client itself in Chromium: scratch-gui 5.3.0's published library build (its own
 * scratch-vm 5.0.300, scratch-storage 4.1.27 and cloud provider inside; fetched and checked by
 * test/support/install-scratch-gui.sh) with React 16, mounted on a page of the sandbox's origin as
 * the site's project page mounts it: the player (`isPlayerOnly`), `projectHost`, `projectToken`
 * (from the API, as the page gets it), `assetHost`, `cloudHost`, `hasCloudPermission`, and the
 * logged-in user's name in the store's `session` (where the site's page keeps it and the GUI's
 * cloud manager reads it).
 *
 * Its files are answered under the sandbox's origin by the browser itself (request interception),
 * as the site serves the GUI from its own origin: the GUI's scratch-storage starts its fetch worker
 * from `/chunks/` of the page's origin, and a worker must be same-origin. Everything else (the
 * API, the project host, the asset host, the cloud WebSocket) goes to the real servers.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, CDPSession, HTTPRequest, Page } from 'puppeteer-core';
import type { Hosts } from '../../src/index.js';
import { pageErrors } from './chromium.js';

const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(import.meta.url);
/** Where test/support/install-scratch-gui.sh puts the GUI. */
export const SCRATCH_GUI = join(ROOT, 'test', '.cache', 'scratch-gui-5.3.0', 'dist', 'scratch-gui.js');

/** Files the page loads, by path under the page's origin. */
function fileFor(pathname: string): string | undefined {
  if (pathname === '/scratch-gui/scratch-gui.js') return SCRATCH_GUI;
  if (pathname === '/react/react.production.min.js')
    return require.resolve('react/umd/react.production.min.js');
  if (pathname === '/react-dom/react-dom.production.min.js') {
    return require.resolve('react-dom/umd/react-dom.production.min.js');
  }
  // The GUI's scratch-storage names its worker by content hash: the same build ships it here.
  const worker = /^\/chunks\/(fetch-worker\.[0-9a-f]+\.js)$/.exec(pathname);
  if (worker)
    return join(dirname(require.resolve('scratch-storage/package.json')), 'dist/web/chunks', worker[1]!);
  return undefined;
}

/** The page: React's UMD builds under the names the GUI's UMD wrapper asks for, then the GUI. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>project</title></head>
<body><div id="app"></div>
<script src="/react/react.production.min.js"></script>
<script src="/react-dom/react-dom.production.min.js"></script>
<script>window.react = window.React; window['react-dom'] = window.ReactDOM;</script>
<script src="/scratch-gui/scratch-gui.js"></script>
</body></html>`;

/** What the GUI is mounted with (the site's project page passes the same props). */
export interface GuiProps {
  projectId: string;
  /** The project token from `GET {api}/projects/<id>`. */
  projectToken: string;
  projectHost: string;
  assetHost: string;
  /** Host and path without the scheme: the GUI adds `ws://` on an `http:` page. */
  cloudHost: string;
  /** The name the cloud handshake carries ('' when nobody is logged in). */
  username: string;
  hasCloudPermission: boolean;
}

/** A WebSocket of the page as the browser's network log shows it. */
export interface PageSocket {
  url: string;
  /** The headers of the upgrade request the browser sent (Cookie, Origin, User-Agent...). */
  requestHeaders: Record<string, string>;
  /** Text frames sent and received, in order. */
  sent: string[];
  received: string[];
}

/** A variable of the VM's stage: name, value, cloud or not. */
export type StageVariables = Record<string, { value: string | number; isCloud: boolean }>;

/** The GUI on a page, and everything that went wrong in it. */
export interface GuiPage {
  page: Page;
  /** Uncaught exceptions (`pageerror`) and console errors, in order. */
  errors: string[];
  /** The page's WebSockets so far, as the DevTools protocol reports them. */
  sockets: PageSocket[];
  /** Logs in inside the page as the site's own pages do (WIRE.md §2). */
  login(username: string, password: string): Promise<number>;
  /** `GET {api}/projects/<id>` from the page (with its cookies): the project's token. */
  projectToken(api: string, projectId: number): Promise<string>;
  /** Mounts the GUI. */
  mount(props: GuiProps): Promise<void>;
  /** The VM's stage variables (undefined until the project is in the VM). */
  stage(): Promise<StageVariables | undefined>;
  /** Whether the GUI's cloud provider is set on the VM. */
  cloudConnected(): Promise<boolean>;
  /** Sets a stage variable through the VM's public API (what a slider monitor calls). */
  setVariable(name: string, value: string | number): Promise<void>;
  /** What the page shows and holds, for a failure's message. */
  state(): Promise<string>;
  /** Closes the page's browser context (its sockets and cookies with it). */
  close(): Promise<void>;
}

/** Opens a page of `origin` (loaded from `origin` + `/`) with the GUI's script, in a context of its own. */
export async function openGuiPage(browser: Browser, origin: string): Promise<GuiPage> {
  const context = await browser.createBrowserContext();
  try {
    return await guiPageIn(context, origin);
  } catch (error) {
    await context.close();
    throw error;
  }
}

/**
 * Answers the GUI's files from here until the last of them (the fetch worker, started at the first
 * load) is served; then the browser takes every request to the servers itself again, so that the
 * project, its assets and everything after never pass through the interception.
 */
function serveGuiFiles(page: Page, origin: string, served: string[]): void {
  let intercepting = true;
  page.on('request', (request: HTTPRequest) => {
    if (!intercepting) return; // the browser sends it on by itself
    const url = new URL(request.url());
    const file = url.origin === origin ? fileFor(url.pathname) : undefined;
    if (file === undefined) {
      void request.continue();
      return;
    }
    served.push(url.pathname);
    readFile(file).then(
      async (body) => {
        await request.respond({ status: 200, contentType: 'text/javascript; charset=utf-8', body });
        if (url.pathname.startsWith('/chunks/fetch-worker.')) {
          // A request paused meanwhile is let go by the browser when the interception ends.
          await page.setRequestInterception(false);
          intercepting = false;
        }
      },
      () => request.respond({ status: 404, body: '' }),
    );
  });
}

/** Records the page's WebSockets from the browser's own network events. */
async function watchSockets(cdp: CDPSession, sockets: PageSocket[]): Promise<void> {
  const byId = new Map<string, PageSocket>();
  cdp.on('Network.webSocketCreated', ({ requestId, url }) => {
    const socket: PageSocket = { url, requestHeaders: {}, sent: [], received: [] };
    byId.set(requestId, socket);
    sockets.push(socket);
  });
  cdp.on('Network.webSocketWillSendHandshakeRequest', ({ requestId, request }) => {
    const socket = byId.get(requestId);
    if (socket) socket.requestHeaders = { ...request.headers };
  });
  // The cookies the browser really sent are only in the extra-info event (the other leaves them out).
  cdp.on('Network.requestWillBeSentExtraInfo', ({ requestId, headers }) => {
    const socket = byId.get(requestId);
    if (socket) socket.requestHeaders = { ...socket.requestHeaders, ...headers };
  });
  cdp.on('Network.webSocketFrameSent', ({ requestId, response }) => {
    if (response.opcode === 1) byId.get(requestId)?.sent.push(response.payloadData);
  });
  cdp.on('Network.webSocketFrameReceived', ({ requestId, response }) => {
    if (response.opcode === 1) byId.get(requestId)?.received.push(response.payloadData);
  });
  await cdp.send('Network.enable');
}

async function guiPageIn(context: BrowserContext, origin: string): Promise<GuiPage> {
  const page = await context.newPage();
  const errors = pageErrors(page);
  const sockets: PageSocket[] = [];
  await watchSockets(await page.createCDPSession(), sockets);
  await page.setRequestInterception(true);
  const root = new URL(origin).origin;
  const served: string[] = [];
  serveGuiFiles(page, root, served);
  const answer = await page.goto(`${root}/`);
  if (!answer?.ok()) throw new Error(`${root}/ answered ${answer?.status()}`);
  await page.setContent(PAGE, { timeout: 120_000 });
  if (new URL(page.url()).origin !== root) throw new Error(`the page left ${root}`);
  return {
    page,
    errors,
    sockets,
    login: (username, password) =>
      page.evaluate(
        async (u, p) => {
          const { document } = globalThis as unknown as PageGlobals;
          await fetch('/csrf_token/', { credentials: 'same-origin' });
          const csrf = document.cookie
            .split('; ')
            .find((c) => c.startsWith('scratchcsrftoken='))
            ?.slice('scratchcsrftoken='.length);
          const login = await fetch('/login/', {
            method: 'POST',
            credentials: 'same-origin',
            headers: {
              'Content-Type': 'application/json',
              'X-CSRFToken': csrf ?? '',
              'X-Requested-With': 'XMLHttpRequest',
            },
            body: JSON.stringify({ username: u, password: p }),
          });
          return login.status;
        },
        username,
        password,
      ),
    projectToken: (api, projectId) =>
      page.evaluate(async (url) => {
        const answer = await fetch(url, { credentials: 'include' });
        return ((await answer.json()) as { project_token: string }).project_token;
      }, `${api}/projects/${projectId}`),
    mount: (props) => page.evaluate(mountGui, props),
    stage: () =>
      page.evaluate(() => {
        const vm = (globalThis as unknown as PageGlobals).vm;
        const stage = vm?.runtime.getTargetForStage();
        if (!stage) return undefined;
        return Object.fromEntries(
          Object.values(stage.variables)
            .filter((v) => v.type === '')
            .map((v) => [v.name, { value: v.value, isCloud: v.isCloud }]),
        );
      }),
    cloudConnected: () =>
      page.evaluate(() =>
        Boolean((globalThis as unknown as PageGlobals).vm?.runtime.ioDevices.cloud.provider),
      ),
    setVariable: (name, value) =>
      page.evaluate(
        (n, v) => {
          const vm = (globalThis as unknown as PageGlobals).vm!;
          const stage = vm.runtime.getTargetForStage()!;
          const variable = Object.values(stage.variables).find((x) => x.name === n && x.type === '');
          if (!variable) throw new Error(`the stage has no variable ${n}`);
          vm.setVariableValue(stage.id, variable.id, v);
        },
        name,
        value,
      ),
    state: async () => {
      const shown = await page.evaluate(() => {
        const { document, vm } = globalThis as unknown as PageGlobals;
        const text = (document.getElementById('app') as { textContent?: string } | null)?.textContent ?? '';
        return { text: text.slice(0, 200), vm: vm !== undefined, targets: vm?.runtime.targets.length };
      });
      return JSON.stringify({ ...shown, served, sockets, errors });
    },
    close: () => context.close(),
  };
}

/** What the page's globals hold, as far as the tests read them. */
interface PageGlobals {
  React: { Component: new (props: unknown) => object; createElement(...args: unknown[]): unknown };
  ReactDOM: { render(element: unknown, container: unknown): void };
  document: { cookie: string; getElementById(id: string): unknown };
  GUI: { default: unknown; AppStateHOC(component: unknown): unknown };
  vm?: {
    runtime: {
      getTargetForStage():
        | {
            id: string;
            variables: Record<
              string,
              { id: string; name: string; type: string; value: string | number; isCloud: boolean }
            >;
          }
        | undefined;
      ioDevices: { cloud: { provider: unknown } };
      targets: unknown[];
    };
    setVariableValue(targetId: string, variableId: string, value: string | number): void;
  };
}

/**
 * Runs in the page: mounts the GUI in the player with `props`. The store is the GUI's own
 * (`AppStateHOC`); the site's page adds its `session` reducer to it, whose state the GUI reads for
 * the user's name: here the same state is added to what the store answers, through the store
 * context that the GUI's react-redux 5 reads (React's legacy context, keyed `store`).
 */
function mountGui(props: GuiProps): void {
  const { React, ReactDOM, GUI, document } = globalThis as unknown as PageGlobals;
  type Store = { getState(): object };
  type Context = { store: Store; storeSubscription: unknown };
  const any = () => null;
  const session = { session: { user: { username: props.username } }, status: 'FETCHED' };
  class SitePage extends React.Component {
    declare context: Context;
    declare props: object;
    static contextTypes = { store: any, storeSubscription: any };
    static childContextTypes = { store: any, storeSubscription: any };
    getChildContext(): Context {
      const { store, storeSubscription } = this.context;
      return { store: { ...store, getState: () => ({ ...store.getState(), session }) }, storeSubscription };
    }
    render() {
      return React.createElement(GUI.default, this.props);
    }
  }
  const Mounted = GUI.AppStateHOC(SitePage);
  ReactDOM.render(
    React.createElement(Mounted, {
      ...props,
      isPlayerOnly: true,
      canSave: false,
      basePath: '/scratch-gui/',
      onVmInit: (vm: PageGlobals['vm']) => {
        (globalThis as unknown as PageGlobals).vm = vm;
      },
    }),
    document.getElementById('app'),
  );
}

/** The `Hosts` of a sandbox as the GUI takes them. */
export function guiHosts(hosts: Hosts): Pick<GuiProps, 'projectHost' | 'assetHost' | 'cloudHost'> {
  return {
    projectHost: hosts.projects,
    assetHost: hosts.assets,
    cloudHost: hosts.cloudWs.replace(/^ws:\/\//, ''),
  };
}
