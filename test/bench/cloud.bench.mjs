// Issue 3 benchmarks, over loopback:
// (a) fan-out of the sandbox's cloud server, 1 sender and 10 receivers, delivered messages per
//     second vs a bare `ws` broadcast server measured in the same run (target ratio >= 0.7);
// (b) pacing: at rateLimit 0.1 the mean interval between sets within 2% of 100 ms with no bursts,
//     and at rateLimit 0 the client's sustained sets per second to the sandbox.
// The fan-out uses raw `ws` clients on both servers so the figure is the servers' own work.
import { createServer } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import WebSocket, { WebSocketServer } from 'ws';
import { Session } from '../../dist/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';
import { best, fmt, report } from './lib.mjs';

const RECEIVERS = 10;
const MESSAGES = 20_000;

/** Opens a raw socket, optionally handshakes, and resolves once the server has answered it. */
/**
 * The demo user logged in on `sandbox`, with what a raw `ws` client needs to join its cloud game:
 * the session cookie (quoted, as the jar keeps it), the project id and the handshake.
 */
async function rawLogin(sandbox) {
  const account = sandbox.accounts[0];
  const session = await Session.login(account.username, account.password, { hosts: sandbox.hosts });
  const cookie = `scratchsessionsid=${session.http.cookie(sandbox.hosts.site, 'scratchsessionsid')}`;
  const projectId = String(sandbox.cloudProjectId);
  const handshake = { method: 'handshake', user: session.username, project_id: projectId };
  return { session, cookie, projectId, handshake };
}

async function rawClient(url, headers, handshake) {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  if (handshake) {
    const first = new Promise((resolve) => ws.once('message', resolve));
    ws.send(`${JSON.stringify(handshake)}\n`);
    await first; // the current values: the handshake was taken
  }
  return ws;
}

/** Counts set lines arriving at each receiver; resolves when every receiver has `total`. */
function countArrivals(receivers, total) {
  let done = 0;
  return new Promise((resolve) => {
    for (const ws of receivers) {
      let count = 0;
      ws.on('message', (data) => {
        const text = data.toString();
        for (let i = text.indexOf('"set"'); i !== -1; i = text.indexOf('"set"', i + 1)) count++;
        if (count === total && ++done === receivers.length) resolve();
      });
    }
  });
}

/** Sends `total` set messages as fast as the socket takes them. */
async function blast(ws, user, projectId, total) {
  for (let i = 0; i < total; i++) {
    ws.send(
      `${JSON.stringify({ method: 'set', name: '☁ bench', value: String(i), user, project_id: projectId })}\n`,
    );
    if (ws.bufferedAmount > 1 << 20) while (ws.bufferedAmount > 1 << 18) await nextTurn();
  }
}

/** One fan-out run: connects, sends, waits for every delivery, closes. Returns the delivery count. */
async function fanOut(url, headers, handshake, user, projectId) {
  const receivers = await Promise.all(
    Array.from({ length: RECEIVERS }, () => rawClient(url, headers, handshake)),
  );
  const sender = await rawClient(url, headers, handshake);
  const arrived = countArrivals(receivers, MESSAGES);
  const start = performance.now();
  await blast(sender, user, projectId, MESSAGES);
  await arrived;
  const ms = performance.now() - start;
  for (const ws of [sender, ...receivers]) ws.terminate();
  return ms;
}

/** A bare broadcast server: every frame goes to every other client, untouched. */
async function bareBroadcast() {
  const server = createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (ws) => {
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

async function fanOutBench() {
  const sandbox = await startSandbox({ cloudRateLimits: false });
  const bare = await bareBroadcast();
  try {
    const { session, cookie, projectId, handshake } = await rawLogin(sandbox);
    // Warm both paths once, then take the best of three runs each.
    await fanOut(sandbox.hosts.cloudWs, { Cookie: cookie }, handshake, session.username, projectId);
    await fanOut(bare.url, {}, null, 'bench', projectId);
    const ours = await best(3, () =>
      fanOut(sandbox.hosts.cloudWs, { Cookie: cookie }, handshake, session.username, projectId),
    );
    const base = await best(3, () => fanOut(bare.url, {}, null, 'bench', projectId));
    const delivered = MESSAGES * RECEIVERS;
    const oursRate = delivered / (ours.ms / 1000);
    const baseRate = delivered / (base.ms / 1000);
    return report(
      `(a) fan-out 1 → ${RECEIVERS}, ${MESSAGES} sets`,
      oursRate / baseRate,
      0.7,
      `sandbox ${Math.round(oursRate).toLocaleString('en')} msg/s (${fmt(ours.ms)}) vs bare ws ${Math.round(baseRate).toLocaleString('en')} msg/s (${fmt(base.ms)})`,
    );
  } finally {
    await bare.close();
    await sandbox.close();
  }
}

/** Arrival times (performance.now) of sets at a raw listener. */
function arrivals(ws, name) {
  const times = [];
  ws.on('message', (data) => {
    const now = performance.now();
    for (const line of data.toString().split('\n')) if (line.includes(name)) times.push(now);
  });
  return times;
}

async function pacingBench() {
  // Default sandbox: its platform rate limit is on, and the default pacing must never trip it.
  const sandbox = await startSandbox();
  let ok = true;
  try {
    const { session, cookie, handshake } = await rawLogin(sandbox);
    const listener = await rawClient(sandbox.hosts.cloudWs, { Cookie: cookie }, handshake);
    const times = arrivals(listener, '☁ paced');
    // The client's own socket class, with a stamp taken as each set frame is written.
    const sent = [];
    class StampedWebSocket extends WebSocket {
      send(data, ...rest) {
        if (String(data).includes('"method":"set"')) sent.push(performance.now());
        return super.send(data, ...rest);
      }
    }
    const cloud = session.cloud(sandbox.cloudProjectId, { WebSocket: StampedWebSocket }); // rateLimit 0.1 by default
    const count = 60;
    await Promise.all(Array.from({ length: count }, (_, i) => cloud.setVar('paced', i)));
    if (sent.length !== count) throw new Error(`expected ${count} stamped sets, got ${sent.length}`);
    while (times.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
    const stats = (stamps) => {
      const gaps = stamps.slice(1).map((t, i) => t - stamps[i]);
      return {
        mean: gaps.reduce((x, y) => x + y, 0) / gaps.length,
        min: Math.min(...gaps),
        max: Math.max(...gaps),
      };
    };
    const out = stats(sent);
    const seen = stats(times);
    const meanOk = Math.abs(out.mean - 100) <= 2;
    const noBurst = out.min >= 99;
    ok = meanOk && noBurst && cloud.state === 'open';
    console.log(
      `  (b) pacing at rateLimit 0.1, ${count} sets as sent: mean ${out.mean.toFixed(2)} ms (target 100 ± 2: ${meanOk ? 'met' : 'MISSED'}), ` +
        `min ${out.min.toFixed(2)} ms (no burst below 99 ms: ${noBurst ? 'met' : 'MISSED'}), max ${out.max.toFixed(2)} ms`,
    );
    console.log(
      `      as another connection received them: mean ${seen.mean.toFixed(2)} ms, min ${seen.min.toFixed(2)} ms, max ${seen.max.toFixed(2)} ms; ` +
        `server rate limit never tripped: ${cloud.state === 'open' ? 'yes' : 'NO'}`,
    );
    await cloud.disconnect();
    listener.terminate();
  } finally {
    await sandbox.close();
  }

  const open = await startSandbox({ cloudRateLimits: false });
  try {
    const { session, cookie, handshake } = await rawLogin(open);
    const listener = await rawClient(open.hosts.cloudWs, { Cookie: cookie }, handshake);
    const total = 20_000;
    const received = countArrivals([listener], total);
    const cloud = session.cloud(open.cloudProjectId, { rateLimit: 0 });
    await cloud.connect();
    const start = performance.now();
    await Promise.all(Array.from({ length: total }, (_, i) => cloud.setVar('fast', i)));
    const written = performance.now() - start;
    await received;
    const ms = performance.now() - start;
    console.log(
      `  (b) rateLimit 0: ${total} sets written in ${fmt(written)}, all received by the server's other connection in ${fmt(ms)}: ` +
        `${Math.round(total / (ms / 1000)).toLocaleString('en')} sets/s sustained`,
    );
    await cloud.disconnect();
    listener.terminate();
  } finally {
    await open.close();
  }
  return ok;
}

export default async function cloudBench() {
  const a = await fanOutBench();
  const b = await pacingBench();
  return a && b;
}
