// Issue 13 §3 and issue 16 §1: fan-out of the sandbox's cloud server, 1 sender and 10 receivers
// over loopback, on the platform and the alternate endpoint, against two servers measured in the
// same run, round by round: a model of TurboWarp's cloud-server (turbowarp-model.mjs: sets
// buffered per receiver and sent 60 times a second, one text frame each; target >= 0.9) and a bare
// per-message `ws` broadcast (target >= 2). Prints delivered messages per second and the ratios.
// Raw `ws` clients on every side, so the figure is the servers' own work; every server sends text
// frames, which the receivers validate as UTF-8 (that cost is in every figure).
import { createServer } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import WebSocket, { WebSocketServer } from 'ws';
import { Session } from '../../dist/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';
import { fmt, report } from './lib.mjs';
import { startTurboWarpModel } from './turbowarp-model.mjs';

const RECEIVERS = 10;
const MESSAGES = 20_000;
const TARGET_BARE = 2;
const TARGET_TURBOWARP = 0.9;
const ROUNDS = 3;
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
  const turbowarp = await startTurboWarpModel();
  try {
    const account = sandbox.accounts[0];
    const session = await Session.login(account.username, account.password, { hosts: sandbox.hosts });
    const projectId = String(sandbox.cloudProjectId);
    /** A player of an alternate-style server (no login) at `url`. */
    const player = (url) => ({
      url,
      headers: { 'User-Agent': AGENT },
      handshake: { method: 'handshake', user: 'benchplayer', project_id: '4242' },
      user: 'benchplayer',
      projectId: '4242',
    });
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
      alternate: player(sandbox.alternateCloudHost),
      turbowarp: player(turbowarp.url),
      bare: { url: bare.url, headers: {}, handshake: null, user: 'bench', projectId },
    };
    // Warm every path once, then ROUNDS rounds of every server one after another (so a busy
    // moment of a shared machine hits all of them alike); each keeps its best run.
    for (const setup of Object.values(cases)) await fanOut(setup);
    const ms = Object.fromEntries(Object.keys(cases).map((name) => [name, Number.POSITIVE_INFINITY]));
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, setup] of Object.entries(cases)) ms[name] = Math.min(ms[name], await fanOut(setup));
    const figure = (name) => `${perSecond(rate(ms[name]))} (${fmt(ms[name])})`;
    report(
      `fan-out 1 → ${RECEIVERS}, ${MESSAGES} sets, TurboWarp model vs bare per-message ws`,
      rate(ms.turbowarp) / rate(ms.bare),
      undefined,
      `TurboWarp model ${figure('turbowarp')} vs bare ws ${figure('bare')}`,
    );
    let ok = true;
    for (const endpoint of ['platform', 'alternate']) {
      ok =
        report(
          `fan-out 1 → ${RECEIVERS}, ${MESSAGES} sets, ${endpoint} endpoint vs TurboWarp model`,
          rate(ms[endpoint]) / rate(ms.turbowarp),
          TARGET_TURBOWARP,
          `sandbox ${figure(endpoint)} vs TurboWarp model ${figure('turbowarp')}`,
        ) && ok;
      ok =
        report(
          `fan-out 1 → ${RECEIVERS}, ${MESSAGES} sets, ${endpoint} endpoint vs bare per-message ws`,
          rate(ms[endpoint]) / rate(ms.bare),
          TARGET_BARE,
          `sandbox ${figure(endpoint)} vs bare ws ${figure('bare')}`,
        ) && ok;
    }
    return ok;
  } finally {
    await turbowarp.close();
    await bare.close();
    await sandbox.close();
  }
}
