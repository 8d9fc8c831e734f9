// The request budget against the platform's limit, through the sandbox at the platform's own
// 10 requests a second per address, with the real client: no 429 at the default budget, one
// budget shared by everything a session does, a 429's Retry-After kept by the whole host group,
// a lower limit found, a block named at once.
import { spawn } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  DEFAULT_RATE_LIMIT,
  type PageProgress,
  RequestBudget,
  Session,
  type SessionOptions,
} from '../../src/index.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';
import type { TrafficEntry } from '../../src/sandbox/rules/traffic.js';
import { bundleChild, projectTempDir } from '../support/bundle-child.js';
import { caught } from '../support/caught.js';

/** Runs a bundled child to its exit: its code and the JSON line it printed last. */
function runToExit(script: string): Promise<{ code: number | null; line: unknown }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (data) => {
      out += data;
    });
    proc.on('error', reject);
    proc.on('close', (code) => {
      const last = out.trim().split('\n').pop();
      resolve({ code, line: last ? JSON.parse(last) : undefined });
    });
  });
}

/** The platform's limit as its notes give it: 10 requests a second; a burst of one second's worth. */
const PLATFORM_LIMIT = { perSecond: 10, burst: 10 };
/**
 * Requests that may arrive in any one second from one default budget: its burst and a second's
 * worth, and a few whose arrival a busy event loop bunched up. Two budgets would send twice that.
 */
const MOST_IN_A_SECOND = DEFAULT_RATE_LIMIT.burst + DEFAULT_RATE_LIMIT.perSecond + 5;

const running: Sandbox[] = [];
async function sandboxWith(options: SandboxOptions): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  running.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

const sessionOn = (sandbox: Sandbox, options: SessionOptions = {}) =>
  new Session({ ...options, hosts: sandbox.hosts });

/** The most requests that arrived within any one second. */
function busiestSecond(log: readonly TrafficEntry[]): number {
  let most = 0;
  for (let first = 0, last = 0; last < log.length; last++) {
    while (log[last]!.at - log[first]!.at >= 1000) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

describe('at the default budget, the platform limit is never hit', () => {
  it('a walk of 2,000 followers gets every row with no 429', async () => {
    const sandbox = await sandboxWith({ rateLimit: PLATFORM_LIMIT });
    const session = sessionOn(sandbox);
    const followers = await session.users.followers(sandbox.samples.popularUser).all();
    expect(followers.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(followers.map((user) => user.id)).size).toBe(followers.length);
    expect(sandbox.traffic.limited).toBe(0);
    // 40 rows a page up to the first short one; at most a few prefetched pages past it.
    const pages = Math.floor(followers.length / 40) + 1;
    expect(sandbox.traffic.requests).toBeGreaterThanOrEqual(pages);
    expect(sandbox.traffic.requests).toBeLessThanOrEqual(pages + 4);
  });

  it('a download of a 100-asset project gets every asset with no 429', async () => {
    const sandbox = await sandboxWith({ rateLimit: PLATFORM_LIMIT });
    const session = sessionOn(sandbox);
    const progress: number[] = [];
    const files = await session.projects.download(sandbox.samples.assetHeavyProject, {
      onProgress: (p) => progress.push(p.done),
    });
    expect(files.assets.size).toBeGreaterThanOrEqual(100);
    for (const data of files.assets.values()) expect(data.byteLength).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(files.assets.size);
    expect(sandbox.traffic.limited).toBe(0);
    // Metadata (for the token), the body, then each asset once.
    expect(sandbox.traffic.requests).toBe(files.assets.size + 2);
  });

  it('two walks at once in one session share one budget (two budgets would draw 429s)', async () => {
    const sandbox = await sandboxWith({ rateLimit: PLATFORM_LIMIT });
    const session = sessionOn(sandbox);
    const name = sandbox.samples.popularUser;
    const [followers, again] = await Promise.all([
      session.users.followers(name, { limit: 600 }).all(),
      session.users.followers(name, { limit: 600, offset: 600 }).all(),
    ]);
    expect(followers).toHaveLength(600);
    expect(again).toHaveLength(600);
    expect(new Set([...followers, ...again].map((user) => user.id)).size).toBe(1200);
    expect(sandbox.traffic.requests).toBe(30);
    expect(sandbox.traffic.limited).toBe(0);
    // One budget lets through its burst and a second's worth in any second; two would let twice that.
    expect(busiestSecond(sandbox.traffic.log())).toBeLessThanOrEqual(MOST_IN_A_SECOND);
  });
});

describe('429s', () => {
  it('Retry-After: 2 is kept by the whole host group: no request inside the window', async () => {
    const sandbox = await sandboxWith({ rateLimit: { perSecond: 1, burst: 3, retryAfter: 2 } });
    const session = sessionOn(sandbox);
    const waits: PageProgress[] = [];
    // When the client heard of each refusal and how long it was told to wait (the log's clock).
    const heard: { at: number; resumeInMs: number }[] = [];
    let other: Promise<unknown> | undefined;
    session.http.watchRateLimits(({ resumeInMs }) => {
      heard.push({ at: performance.now(), resumeInMs });
      // Another call to the same group of hosts, asked for during the pause: it waits too.
      other ??= session.projects.get(sandbox.samples.assetHeavyProject);
    });
    // When each request to this sandbox went out: undici's own report of the headers it wrote
    // (its diagnostics channel, watched, not stubbed).
    const sends: number[] = [];
    const onSend = (message: unknown) => {
      if ((message as { request: { origin: string } }).request.origin === sandbox.url)
        sends.push(performance.now());
    };
    subscribe('undici:client:sendHeaders', onSend);
    let rows: unknown[];
    try {
      // One page at a time, so that no request is on its way when a refusal is heard.
      rows = await session.users.followers(sandbox.samples.popularUser, {
        limit: 200,
        prefetch: 1,
        onProgress: (p) => p.rateLimited && waits.push(p),
      });
      expect(await other).toMatchObject({ id: sandbox.samples.assetHeavyProject });
    } finally {
      unsubscribe('undici:client:sendHeaders', onSend);
    }
    expect(rows).toHaveLength(200);
    const log = sandbox.traffic.log();
    // Every arrival was a send seen (one the host never saw, on a dropped keep-alive socket, would
    // count below as on its way: a looser check, never a false failure).
    expect(sends.length).toBeGreaterThanOrEqual(log.length);
    const refused = log.filter((entry) => entry.refused === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(heard).toHaveLength(refused.length);
    // Each refusal asked for 2 s, and the client was told to wait exactly that from when it heard
    // it (one reading of the clock, taken from the pause's end: arithmetic, not a duration).
    for (const { resumeInMs } of heard) expect(resumeInMs).toBeCloseTo(2000, 6);
    // The host's own record of arrivals: in the 2 s the host asked for, from when the client heard
    // the refusal, only requests sent before that (the other call, let go with the refused one at
    // a pause's end) and still on their way may arrive; none sent after it, of any kind (walk page
    // or metadata). (The pause ends 2 s after the budget's reading, taken just before `at` in the
    // same synchronous call: a request let go then arrives later than `at` + 2 s.)
    for (const { at } of heard) {
      const onTheirWay = sends.filter((t) => t < at).length - log.filter((entry) => entry.at < at).length;
      const inside = log.filter((entry) => entry.at > at && entry.at < at + 2000);
      expect(inside.length, `arrivals in the pause heard at ${at.toFixed(0)} ms`).toBeLessThanOrEqual(
        onTheirWay,
      );
    }
    expect(log.filter((entry) => entry.path.startsWith('/api/projects/'))).toHaveLength(1);
    // The walk said so while it waited.
    expect(waits.length).toBe(heard.length);
    expect(waits[0]!.rateLimited).toMatchObject({ status: 429 });
    expect(waits[0]!.rateLimited!.message).toMatch(/^rate-limited, resuming in 2\.0 s$/);
  });

  it('a limit below the budget is found (AIMD), without Retry-After, and every row still comes', async () => {
    const sandbox = await sandboxWith({ rateLimit: { perSecond: 3, burst: 3, retryAfter: false } });
    const session = sessionOn(sandbox);
    const rows = await session.users.followers(sandbox.samples.popularUser, { limit: 600 }).all();
    expect(rows).toHaveLength(600);
    const budget = session.http.budgetFor(sandbox.hosts.api);
    expect(budget.refusals).toBe(sandbox.traffic.limited);
    expect(budget.refusals).toBeGreaterThan(0);
    // Found, not hammered: refusals are a few, not one per request.
    expect(sandbox.traffic.limited).toBeLessThan(10);
    expect(budget.perSecond).toBeLessThan(10);
  });

  it('a refusal never takes the rate below one request every 5 s (0.35 a second halves to 0.2, not 0.175)', async () => {
    // The sandbox passes one request in 100 s: another session spends it, so this session's
    // first request is refused.
    const sandbox = await sandboxWith({ rateLimit: { perSecond: 0.01, burst: 1, retryAfter: 0 } });
    await sessionOn(sandbox).users.get(sandbox.samples.demoUser);
    const session = sessionOn(sandbox, { rateLimit: 0.35, retries: 0 });
    const error = await caught(session.users.get(sandbox.samples.demoUser));
    expect(error).toMatchObject({ status: 429 });
    const budget = session.http.budgetFor(sandbox.hosts.api);
    expect(budget.refusals).toBe(1);
    expect(budget.perSecond).toBe(0.2);
  });

  it('a Retry-After date already past (a clock behind ours) or below 0 is a wait of 0, never a negative one', async () => {
    for (const retryAfter of ['Thu, 01 Jan 2026 00:00:00 GMT', '-5']) {
      const sandbox = await sandboxWith({ rateLimit: { perSecond: 0.01, burst: 1, retryAfter } });
      await sessionOn(sandbox).users.get(sandbox.samples.demoUser);
      const session = sessionOn(sandbox, { retries: 0 });
      const heard: number[] = [];
      session.http.watchRateLimits(({ resumeInMs }) => heard.push(resumeInMs));
      const error = await caught(session.users.get(sandbox.samples.demoUser));
      expect(error).toMatchObject({ status: 429 });
      expect(error.reason).toBe(
        "rate-limited: still refused after 1 tries (rate limit exceeded: at most 0.01 requests a second); lower the session's rateLimit",
      );
      expect({ retryAfter, heard }).toEqual({ retryAfter, heard: [0] });
    }
  });

  it('with the budget off a walk draws 429s, and still completes by waiting each one out', async () => {
    const sandbox = await sandboxWith({ rateLimit: PLATFORM_LIMIT });
    const session = sessionOn(sandbox, { rateLimit: Number.POSITIVE_INFINITY });
    const rows = await session.users.followers(sandbox.samples.popularUser, { limit: 1200 }).all();
    expect(rows).toHaveLength(1200);
    expect(sandbox.traffic.limited).toBeGreaterThan(0);
    expect(session.http.budgetFor(sandbox.hosts.api).perSecond).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('a blocked address', () => {
  it('fails fast with an ApiError that names the block, not a JSON parse error', async () => {
    const sandbox = await sandboxWith({ rateLimit: PLATFORM_LIMIT, block: true });
    const session = sessionOn(sandbox);
    const error = await caught(session.users.get(sandbox.samples.demoUser));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, blocked: true });
    expect(error.message).toContain('the address looks blocked or rate-limited');
    expect(error.message).toContain(
      '403 with an HTML page instead of JSON: "403 Forbidden Forbidden Access from your address',
    );
    expect(error.message).not.toMatch(/JSON\.parse|Unexpected token/);
    expect(sandbox.traffic.requests).toBe(1);

    // A walk stops at the first blocked page; its other pages never wait out a retry.
    const walk = await caught(session.users.followers(sandbox.samples.popularUser).all());
    expect(walk).toMatchObject({ status: 403, blocked: true });
    expect(sandbox.traffic.requests).toBeLessThanOrEqual(1 + 5);
    // A download blocked halfway: the first refused asset ends it; the others waiting never go out.
    sandbox.traffic.block = false;
    const blockedBefore = sandbox.traffic.blocked;
    const download = session.projects.download(sandbox.samples.assetHeavyProject, {
      onProgress: ({ done }) => {
        if (done === 20) sandbox.traffic.block = true;
      },
    });
    const failed = await caught(download);
    expect(failed).toMatchObject({ status: 403, blocked: true });
    const refusedAssets = sandbox.traffic.blocked - blockedBefore;
    expect(refusedAssets).toBeGreaterThanOrEqual(1);
    expect(refusedAssets).toBeLessThanOrEqual(10);
    expect(sandbox.traffic.limited).toBe(0);
  });
});

describe('RequestBudget', () => {
  it('lets requests go in the order they asked, a burst at once and the rest at the rate', async () => {
    const budget = new RequestBudget({ perSecond: 50, burst: 2 });
    const order: number[] = [];
    await Promise.all([0, 1, 2, 3, 4].map((n) => budget.acquire().then(() => order.push(n))));
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(budget.queued).toBe(0);
  });

  it('an aborted wait leaves the queue; a refusal pauses and halves the rate once per flight', async () => {
    const reports: string[] = [];
    const budget = new RequestBudget({ perSecond: 10, burst: 1 }, (wait) => reports.push(wait.message));
    await budget.acquire();
    const stop = new AbortController();
    const waiting = budget.acquire(stop.signal);
    expect(budget.queued).toBe(1);
    stop.abort(new Error('no longer wanted'));
    await expect(waiting).rejects.toThrow('no longer wanted');
    expect(budget.queued).toBe(0);

    const sentAt = performance.now();
    budget.refused(300, sentAt);
    budget.refused(300, sentAt); // the same flight: one decrease
    expect(budget.perSecond).toBe(5);
    expect(budget.refusals).toBe(2);
    expect(reports[0]).toMatch(/^rate-limited, resuming in 0\.3 s$/);
    // Paused: a request now waits its turn rather than going at once.
    const next = budget.acquire();
    expect(budget.queued).toBe(1);
    await next;
    // Successes win the rate back, never above the limit.
    for (let i = 0; i < 1000; i++) budget.succeeded();
    expect(budget.perSecond).toBe(10);
  });

  it('an aborted wait clears its timer: the process exits at once, not after the pause', async () => {
    const dir = projectTempDir('budget-abort-');
    try {
      const script = await bundleChild('budget-abort-child', dir);
      const { code, line } = await runToExit(script);
      expect(code).toBe(0);
      expect(line).toEqual({ outcome: 'no longer wanted', queued: 0, timers: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Infinity turns pacing off; checks its options', async () => {
    const off = new RequestBudget({ perSecond: Number.POSITIVE_INFINITY, burst: 1 });
    await Promise.all(Array.from({ length: 100 }, () => off.acquire()));
    expect(off.queued).toBe(0);
    expect(() => new Session({ rateLimit: 0 })).toThrow(RangeError);
    expect(() => new Session({ rateLimit: { perSecond: 5, burst: 0 } })).toThrow(RangeError);
    expect(() => new Session({ rateLimit: 'fast' as never })).toThrow(TypeError);
    expect(new Session({ rateLimit: 4 }).http.rateLimit).toEqual({ perSecond: 4, burst: 2 });
    expect(new Session().http.rateLimit).toEqual({ perSecond: 10, burst: 5 });
  });

  it('is one for all the platform’s hosts (counted together), and one of its own for any other host', () => {
    const { http } = new Session();
    const platform = http.budgetFor('https://api.scratch.mit.edu/users/x');
    for (const url of [
      'https://scratch.mit.edu/session/',
      'https://projects.scratch.mit.edu/1',
      'https://assets.scratch.mit.edu/internalapi/asset/x/get/',
      'https://clouddata.scratch.mit.edu/logs',
    ])
      expect(http.budgetFor(url)).toBe(platform);
    const other = http.budgetFor('https://logs.example.org/logs');
    expect(other).not.toBe(platform);
    expect(http.budgetFor('https://logs.example.org/other')).toBe(other);
  });
});
