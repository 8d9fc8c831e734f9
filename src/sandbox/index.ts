/**
 * `scratchlab/sandbox`: an embedded, faithful local copy of the Scratch platform's HTTP side
 * (site, API, project host, asset host) on one port, with deterministic seed data. Start one,
 * point a `Session` at `sandbox.hosts`, and test bots offline.
 *
 * @example
 * ```ts
 * import { startSandbox } from 'scratchlab/sandbox';
 * const sandbox = await startSandbox();
 * const [demo] = sandbox.accounts; // { username: 'demo_scratcher', password: 'sandbox-demo-1' }
 * // ... use sandbox.hosts ...
 * await sandbox.close();
 * ```
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import type { Hosts } from '../http/hosts.js';
import { setUpSandboxCloud } from './cloud/sandbox-cloud.js';
import type { SandboxContext } from './context.js';
import { resolveOptions, type SandboxOptions } from './options.js';
import { Router } from './router.js';
import { activityRoutes } from './routes/activity.js';
import { apiRoutes } from './routes/api.js';
import { assetHostRoutes } from './routes/asset-host.js';
import { backpackRoutes } from './routes/backpack.js';
import { classroomRoutes } from './routes/classrooms.js';
import { commentWriteRoutes } from './routes/comment-writes.js';
import { forumRoutes } from './routes/forums.js';
import { imageRoutes } from './routes/images.js';
import { messageRoutes } from './routes/messages.js';
import { myStuffRoutes } from './routes/my-stuff.js';
import { profileEditRoutes } from './routes/profile-edits.js';
import { profilePageRoutes } from './routes/profile-pages.js';
import { projectCreationRoutes } from './routes/project-creation.js';
import { projectHostRoutes } from './routes/project-host.js';
import { remixTreeRoutes } from './routes/remix-tree.js';
import { siteRoutes } from './routes/site.js';
import { socialRoutes } from './routes/social.js';
import { statisticsRoutes } from './routes/statistics.js';
import { studioManagementRoutes } from './routes/studio-management.js';
import { CommentGuard } from './rules/comment-guard.js';
import { LoginGuard } from './rules/login-guard.js';
import { Traffic } from './rules/traffic.js';
import { type DemoAccount, type Samples, seedStore } from './seed/seed.js';
import { seedForums } from './seed/seed-forums.js';
import { createSandboxServer } from './server.js';
import { AssetQuota } from './state/asset-quota.js';
import { ForumState, forumStates } from './state/forum-state.js';
import { ProjectTokens } from './state/project-tokens.js';
import { SessionTable } from './state/sessions.js';
import { registerStore } from './store-access.js';
import { Views } from './views/api-views.js';
import { Links } from './views/links.js';

export type { SandboxOptions } from './options.js';
export type { SandboxRateLimit, Traffic, TrafficEntry } from './rules/traffic.js';
export type { DemoAccount, Samples } from './seed/seed.js';

/** A running sandbox. */
export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:PORT`. */
  url: string;
  /** Every role's base URL, ready for a `Session`. */
  hosts: Hosts;
  port: number;
  /** Demo logins; the first is the main demo (`samples.demoUser`). */
  accounts: DemoAccount[];
  /** Ids and names of interesting seed data. */
  samples: Samples;
  /** The node:http server. The cloud server attaches to its `'upgrade'` event at `/clouddata`. */
  server: Server;
  /** The seeded cloud game: a shared project with a week of cloud log (10,000+ entries). */
  cloudProjectId: number;
  /** WebSocket URL of the alternate-policy cloud endpoint (no login; a browser, or a bot whose User-Agent names a contact). */
  alternateCloudHost: string;
  /**
   * What reached the HTTP side: requests, 429s of the rate limit, block pages, a log of arrivals;
   * and the `block` switch (every request answers an HTML 403 page while it is on).
   */
  traffic: Traffic;
  /** Closes the server and every socket (keep-alive ones included) promptly. */
  close(): Promise<void>;
}

/** The host part of a URL for a listening address (wildcards become loopback). */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts a sandbox: seeds the data, listens, and resolves once it answers.
 * @param options checked before anything starts; see {@link SandboxOptions}.
 * @throws TypeError or RangeError naming the option when one is invalid (the promise rejects);
 *   the listen error (e.g. `EADDRINUSE`) when the port is taken.
 */
export async function startSandbox(options?: SandboxOptions): Promise<Sandbox> {
  const opts = resolveOptions(options);
  const { store, accounts, samples } = await seedStore(opts.seed);
  store.social.guard = new CommentGuard({ floodMax: opts.commentsPerMinute });
  const traffic = new Traffic(opts.rateLimit, opts.block);
  const http = createSandboxServer({
    admit: (req) => traffic.admit(req),
    latency: opts.latency,
    // The simulated latency runs before a body is read, so it must not eat the client's time.
    requestTimeout: opts.requestTimeout + opts.latency,
  });

  await new Promise<void>((resolve, reject) => {
    http.server.once('error', reject);
    http.server.listen(opts.port, opts.host, () => {
      http.server.off('error', reject);
      resolve();
    });
  });

  const port = (http.server.address() as AddressInfo).port;
  const url = `http://${urlHost(opts.host)}:${port}`;
  const hosts: Hosts = {
    site: url,
    api: `${url}/api`,
    projects: `${url}/projects`,
    assets: `${url}/assets`,
    cloudHttp: `${url}/clouddata`,
    cloudWs: `ws://${urlHost(opts.host)}:${port}/clouddata`,
    backpack: `${url}/backpack`,
  };
  const links = new Links(url);
  const ctx: SandboxContext = {
    store,
    views: new Views(store, links),
    links,
    hosts,
    sessions: new SessionTable(),
    loginGuard: new LoginGuard(),
    projectTokens: new ProjectTokens(opts.projectTokenTtl),
    assetQuota: new AssetQuota(opts.assetQuota),
  };
  const router = new Router();
  siteRoutes(router, ctx);
  apiRoutes(router, ctx);
  projectHostRoutes(router, ctx);
  assetHostRoutes(router, ctx);
  imageRoutes(router, ctx);
  commentWriteRoutes(router, ctx);
  socialRoutes(router, ctx);
  studioManagementRoutes(router, ctx);
  messageRoutes(router, ctx);
  activityRoutes(router, ctx);
  statisticsRoutes(router, ctx);
  remixTreeRoutes(router);
  // Generated on the first forum read, anchored there: start-up does not pay for it.
  const forums = new ForumState(() =>
    seedForums({
      seed: opts.seed,
      usernames: () => [...store.users.values()].map((u) => u.username),
      now: () => Date.now(),
    }),
  );
  forumRoutes(router, ctx, forums);
  classroomRoutes(router, ctx);
  backpackRoutes(router, ctx);
  projectCreationRoutes(router, ctx);
  profileEditRoutes(router, ctx);
  profilePageRoutes(router, ctx);
  myStuffRoutes(router, ctx);
  const cloud = setUpSandboxCloud({
    server: http.server,
    router,
    store,
    sessions: ctx.sessions,
    seed: opts.seed,
    wsBase: `ws://${urlHost(opts.host)}:${port}`,
    owner: samples.demoUser,
    // The educator is no player of the cloud game (its log stays the same as before there was one).
    demoPlayers: accounts.slice(1, 3).map((a) => a.username),
    fixtureProjectId: samples.fixtureProjects.cloud_variables_simple,
    rateLimits: opts.cloudRateLimits,
  });
  http.setRouter(router);

  let closing: Promise<void> | undefined;
  const sandbox: Sandbox = {
    url,
    hosts,
    port,
    accounts,
    samples,
    server: http.server,
    cloudProjectId: cloud.projectId,
    alternateCloudHost: cloud.alternateHost,
    traffic,
    close: () => {
      // Cloud clients get a proper close (1001) before the HTTP side drops every socket.
      closing ??= cloud.server.close().then(() => http.close());
      return closing;
    },
  };
  registerStore(sandbox, store);
  forumStates.register(sandbox, forums);
  // A summary for the REPL and notebooks: the server's own inspection runs to 100 lines.
  Object.defineProperty(sandbox, inspect.custom, {
    value: () =>
      `Sandbox { url: ${url}, accounts: ${accounts.map((a) => a.username).join(', ')}, projects: ${store.projects.size}, cloudProjectId: ${cloud.projectId} }`,
  });
  return sandbox;
}
