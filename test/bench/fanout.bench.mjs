// Issue 13 §3: fan-out of the sandbox's cloud server, 1 sender and 10 receivers over loopback,
// on the platform and the alternate endpoint, against a bare per-message `ws` broadcast server
// measured in the same run. Prints delivered messages per second for each and the ratio
// (target >= 2: the alternate server's own design measured about that against the same baseline).
// Raw `ws` clients on every side, so the figure is the servers' own work.
import { createServer } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import WebSocket, { WebSocketServer } from 'ws';
import { Session } from '../../dist/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';
import { best, fmt, report } from './lib.mjs';

const RECEIVERS = 10;
const MESSAGES = 20_000;
const TARGET = 2;
const AGENT = 'scratchlab-bench/1.0 (Purpose: fan-out benchmark; Contact: @bench)';

/** Lines naming `name` in a frame (a frame may hold several `\n`-joined sets). */
function countLines(text, name) {
  let count = 0;
  for (let i = text.indexOf(name); i !== -1; i = text.indexOf(name, i + name.length)) count++;
  return count;
}

/** Opens a raw client and sends its handshake (if any); does not wait for an answer. */
async function join(url, headers, handshake) {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.on('error', () => undefined);
  if (handshake) ws.send(`${JSON.stringify(handshake)}\n`);
  return ws;
}

const setLine = (user, projectId, name, value) =>
  `${JSON.stringify({ method: 'set', name, value, user, project_id: projectId })}\n`;

/** Sends a marker until every receiver has seen one: all handshakes are in. */
async function sync(sender, receivers, user, projectId) {
  for (let round = 1; ; round++) {
    const marker = `"☁ sync${round}"`;
    const seen = receivers.map(
      (ws) =>
        new Promise((resolve) => {
          const onMessage = (data) => {
            if (data.toString().includes(marker)) {
              ws.off('message', onMessage);
              resolve(true);
            }
          };
          ws.on('message', onMessage);
          setTimeout(() => {
            ws.off('message', onMessage);
            resolve(false);
          }, 200);
        }),
    );
    sender.send(setLine(user, projectId, `☁ sync${round}`, String(round)));
    if ((await Promise.all(seen)).every(Boolean)) return;
  }
}

/** One run: `MESSAGES` sets as fast as the sender's socket takes them; ms until every receiver has all. */
async function fanOut({ url, headers, handshake, user, projectId }) {
  const receivers = await Promise.all(Array.from({ length: RECEIVERS }, () => join(url, headers, handshake)));
  const sender = await join(url, headers, handshake);
  await sync(sender, receivers, user, projectId);
  let done = 0;
  const arrived = new Promise((resolve) => {
    for (const ws of receivers) {
      let count = 0;
      ws.on('message', (data) => {
        count += countLines(data.toString(), '"☁ bench"');
        if (count === MESSAGES && ++done === receivers.length) resolve();
      });
    }
  });
  const start = performance.now();
  for (let i = 0; i < MESSAGES; i++) {
    sender.send(setLine(user, projectId, '☁ bench', String(i)));
    if (sender.bufferedAmount > 1 << 20) while (sender.bufferedAmount > 1 << 18) await nextTurn();
  }
  await arrived;
  const ms = performance.now() - start;
  for (const ws of [sender, ...receivers]) ws.terminate();
  return ms;
}

/** A bare broadcast server: every frame goes to every other client as it comes, one frame each. */
async function bareBroadcast() {
  const server = createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (ws) => {
    ws.on('error', () => undefined);
    ws.on('message', (data, isBinary) => {
      for (const other of wss.clients)
        if (other !== ws && other.readyState === WebSocket.OPEN) other.send(data, { binary: isBinary });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(resolve);
      }),
  };
}

const rate = (ms) => (MESSAGES * RECEIVERS) / (ms / 1000);
const perSecond = (value) => `${Math.round(value).toLocaleString('en')} msg/s`;

export default async function fanoutBench() {
  const sandbox = await startSandbox({ cloudRateLimits: false });
  const bare = await bareBroadcast();
  try {
    const account = sandbox.accounts[0];
    const session = await Session.login(account.username, account.password, { hosts: sandbox.hosts });
    const projectId = String(sandbox.cloudProjectId);
    const cases = {
      platform: {
        url: sandbox.hosts.cloudWs,
        headers: {
          Cookie: `scratchsessionsid=${session.http.cookie(sandbox.hosts.site, 'scratchsessionsid')}`,
        },
        handshake: { method: 'handshake', user: session.username, project_id: projectId },
        user: session.username,
        projectId,
      },
      alternate: {
        url: sandbox.alternateCloudHost,
        headers: { 'User-Agent': AGENT },
        handshake: { method: 'handshake', user: 'benchplayer', project_id: '4242' },
        user: 'benchplayer',
        projectId: '4242',
      },
      bare: { url: bare.url, headers: {}, handshake: null, user: 'bench', projectId },
    };
    // Warm every path once, then the best of three runs each, the baseline in between.
    for (const setup of Object.values(cases)) await fanOut(setup);
    const base = await best(3, () => fanOut(cases.bare));
    let ok = true;
    for (const endpoint of ['platform', 'alternate']) {
      const ours = await best(3, () => fanOut(cases[endpoint]));
      ok =
        report(
          `fan-out 1 → ${RECEIVERS}, ${MESSAGES} sets, ${endpoint} endpoint vs bare per-message ws`,
          rate(ours.ms) / rate(base.ms),
          TARGET,
          `sandbox ${perSecond(rate(ours.ms))} (${fmt(ours.ms)}) vs bare ws ${perSecond(rate(base.ms))} (${fmt(base.ms)})`,
        ) && ok;
    }
    return ok;
  } finally {
    await bare.close();
    await sandbox.close();
  }
}
