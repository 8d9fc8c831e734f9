/**
 * Soak test (issue 10 §6), not part of `npm test`: `npm run soak -- --duration 10m` (through `run.ts`).
 *
 * On the sandbox's alternate cloud endpoint, through a TCP proxy: a `CloudRequests` host, a
 * `CloudEvents` listener and `--clients` (50) simulated projects (test/support/project-simulator.ts)
 * that each send a request every few seconds and wait for its answer (a new rid after 20 s
 * without one, like a project that retries, 10 tries at most). The sandbox is stopped and started
 * again on the same port every `--restart-every` (30 s), and during the middle third of the run
 * the proxy cuts every connection after a random 0.5-4 s. At the end no new request is sent and
 * the outstanding ones get time to finish.
 *
 * Prints requests sent, answered, lost (no answer to any try), wrong answers, duplicated (a rid
 * the host served twice), how many needed more than one try (the protocol keeps only the latest
 * value of `TO_HOST`: a request written while the host's connection is down is overwritten by
 * the next one before the host is back), reconnects, errors, and RSS and heap at start and end.
 * Exits 1 unless nothing was lost, wrong or duplicated and memory stayed flat.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Cloud, CloudEvents, CloudRequests } from '../../src/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { ProjectSimulator } from '../support/project-simulator.js';
import { startFlappingProxy } from './flapping-proxy.js';

interface Settings {
  durationMs: number;
  clients: number;
  restartEveryMs: number;
}

function parseDuration(text: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text);
  if (!match)
    throw new RangeError(`${flag} must be a duration like 90s, 10m or 1h, got ${JSON.stringify(text)}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? 's']!;
  return Number(match[1]) * unit;
}

function parseArgs(argv: string[]): Settings {
  const settings: Settings = { durationMs: 3 * 60_000, clients: 50, restartEveryMs: 30_000 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    const value = inline ?? argv[++i];
    if (value === undefined) throw new RangeError(`${flag} needs a value`);
    if (flag === '--duration') settings.durationMs = parseDuration(value, flag);
    else if (flag === '--restart-every') settings.restartEveryMs = parseDuration(value, flag);
    else if (flag === '--clients') settings.clients = Number.parseInt(value, 10);
    else throw new RangeError(`unknown flag ${flag} (known: --duration, --clients, --restart-every)`);
  }
  if (!(settings.clients >= 1 && settings.clients <= 100)) throw new RangeError('--clients must be 1-100');
  return settings;
}

const settings = parseArgs(process.argv.slice(2));
const PROJECT = 'soak';
const ANSWER_TIMEOUT_MS = 20_000;
const TRIES = 10;
const CLIENT_RATE = 0.05;
const HOST_RATE = 0.01;
// A flapping network makes waits grow: keep them short enough for a run of minutes.
const RECONNECT_DELAY = 0.2;
const STABLE_AFTER = 2;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
function memory() {
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

const stats = {
  sent: 0,
  answered: 0,
  lost: 0,
  wrong: 0,
  retries: 0,
  retried: 0,
  mostTries: 1,
  reconnects: 0,
  cloudErrors: 0,
  hostErrors: 0,
  restarts: 0,
  listenerEvents: 0,
};
const served = new Map<string, number>();

let sandbox: Sandbox = await startSandbox({ cloudRateLimits: false });
const port = sandbox.port;
const proxy = await startFlappingProxy(port);
const url = new URL(sandbox.alternateCloudHost);
url.port = String(proxy.port);
const host = url.toString().replace(/\/$/, '');

const clouds: Cloud[] = [];
function cloud(username: string, rateLimit: number): Cloud {
  const made = Cloud.alternate(PROJECT, {
    purpose: 'soak test',
    contact: '@soak',
    host,
    username,
    rateLimit,
    reconnectDelay: RECONNECT_DELAY,
    stableAfter: STABLE_AFTER,
  });
  made.on('connect', ({ reconnected }) => {
    if (reconnected) stats.reconnects++;
  });
  made.on('error', () => stats.cloudErrors++);
  clouds.push(made);
  return made;
}

const requests = new CloudRequests(cloud('soakhost', HOST_RATE));
requests.request('echo', ([text]) => `${text}!`);
requests.on('request', ({ requestId }) => served.set(requestId, (served.get(requestId) ?? 0) + 1));
requests.on('error', () => stats.hostErrors++);
await requests.start();

const events = new CloudEvents(cloud('soakwatch', 0.1), { source: 'websocket' });
events.on('set', () => stats.listenerEvents++);
await events.start();

const simulators = await Promise.all(
  Array.from({ length: settings.clients }, (_, i) =>
    new ProjectSimulator(cloud(`soak${String(i + 1).padStart(2, '0')}`, CLIENT_RATE), {
      timeoutMs: ANSWER_TIMEOUT_MS,
    }).start(),
  ),
);

// Rids are unique across the run (a random rid per project collides among thousands of requests,
// and the host answers a rid only once, by design).
let nextRid = 0;
const rid = () => `${10001 + (nextRid++ % 89999)}0`;

let sending = true;
async function clientLoop(simulator: ProjectSimulator, index: number): Promise<void> {
  while (sending) {
    await sleep(1000 + Math.random() * 4000);
    if (!sending) break;
    const text = `c${index}n${++stats.sent}`;
    let answered = false;
    let tries = 0;
    for (let attempt = 0; attempt < TRIES && !answered; attempt++) {
      tries++;
      if (attempt > 0) stats.retries++;
      try {
        const response = await simulator.request('echo', [text], { rid: rid() });
        answered = true;
        if (response.text() === `${text}!`) stats.answered++;
        else stats.wrong++;
      } catch {
        // no answer within the timeout: try again with a new rid
      }
    }
    if (!answered) stats.lost++;
    if (tries > 1) stats.retried++;
    stats.mostTries = Math.max(stats.mostTries, tries);
    // The simulator keeps every answer it sees (other projects' too) and every value it sent:
    // test-side memory, dropped here so that the readings measure the library and the sandbox.
    simulator.responses.clear();
    simulator.sent.length = 0;
  }
}

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const loops = simulators.map((simulator, i) => clientLoop(simulator, i + 1));
console.log(
  `soak: ${settings.clients} clients, ${settings.durationMs / 1000} s, sandbox restarted every ${settings.restartEveryMs / 1000} s, ` +
    `proxy flapping in the middle third; RSS at setup ${mb(memory().rss)}`,
);

let before: { rss: number; heapUsed: number } | null = null;
const restarts = (async () => {
  while (sending) {
    await sleep(settings.restartEveryMs);
    if (!sending) break;
    await sandbox.close();
    sandbox = await startSandbox({ port, cloudRateLimits: false });
    stats.restarts++;
    if (stats.restarts === 1) {
      // The start reading: warmed up, with every part made once (a restart included).
      await sleep(5000);
      before = memory();
      console.log(`  ${elapsed()}: start reading, RSS ${mb(before.rss)}, heap ${mb(before.heapUsed)}`);
    }
  }
})();

const third = settings.durationMs / 3;
const progress = setInterval(() => {
  const { rss } = process.memoryUsage();
  console.log(
    `  ${elapsed()}: sent ${stats.sent}, answered ${stats.answered}, lost ${stats.lost}, retries ${stats.retries}, ` +
      `reconnects ${stats.reconnects}, restarts ${stats.restarts}, proxy cuts ${proxy.cut}, RSS ${mb(rss)}`,
  );
}, 30_000);
await sleep(third);
proxy.flap(500, 4000);
console.log(`  ${elapsed()}: the proxy starts cutting connections`);
await sleep(third);
proxy.steady();
console.log(`  ${elapsed()}: the proxy is steady again`);
await sleep(settings.durationMs - 2 * third);
sending = false;
console.log(`  ${elapsed()}: no new requests; waiting for the outstanding ones`);
await restarts;
await Promise.all(loops);
await requests.idle();
clearInterval(progress);
const after = memory();

const duplicated = [...served.values()].filter((count) => count > 1).length;
await requests.stop();
await events.stop();
await Promise.all(clouds.map((c) => c.disconnect()));
await proxy.close();
await sandbox.close();

const start = before ?? after;
const growth = after.rss / start.rss;
const flat = growth <= 1.25 && after.heapUsed <= start.heapUsed * 1.25 + 8 * 2 ** 20;
console.log(`
soak results after ${elapsed()}:
  requests sent       ${stats.sent}
  answered            ${stats.answered}
  lost                ${stats.lost}   (no answer to any of ${TRIES} tries)
  wrong answers       ${stats.wrong}
  duplicated          ${duplicated}   (rids the host served more than once; ${served.size} served)
  needed a retry      ${stats.retried}   (${stats.retries} tries again, ${stats.sent + stats.retries - served.size} tries the host never saw; at most ${stats.mostTries} tries for one request)
  reconnects          ${stats.reconnects}   (all ${clouds.length} connections; ${stats.restarts} sandbox restarts, ${proxy.cut} proxy cuts)
  cloud errors        ${stats.cloudErrors}   (reported retries, flaps and closes)
  host errors         ${stats.hostErrors}
  listener events     ${stats.listenerEvents}
  RSS                 ${mb(start.rss)} -> ${mb(after.rss)} (x${growth.toFixed(2)}); heap ${mb(start.heapUsed)} -> ${mb(after.heapUsed)} (start: after the first restart)
  verdict             ${stats.lost === 0 && stats.wrong === 0 && duplicated === 0 && flat ? 'PASS' : 'FAIL'}`);
process.exitCode = stats.lost === 0 && stats.wrong === 0 && duplicated === 0 && flat ? 0 : 1;
