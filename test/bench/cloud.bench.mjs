// Issue 13 §3, the cloud client's side (the server's fan-out is in fanout.bench.mjs), over loopback:
// (a) sender: the `Cloud` client at rateLimit 0 vs a plain `ws` sender writing the same set lines
//     to the same bare counting server in the same run, sets per second until the server has read
//     them all (target ratio >= 0.8);
// (b) pacing at rateLimit 0.1 against the sandbox (its platform rate limit on): the mean gap
//     between sets as written, as a ratio to 100 ms, on an idle machine and under a CPU load the
//     bench makes itself (a busy worker thread per core, and a main event loop kept busy part of
//     the time, as a bot doing other work); target within 2% of 100 ms, and no burst (no gap
//     under 50 ms: the schedule makes up at most a quarter of the interval of lateness). Beside
//     it, in the same run and load, the naive way (each set 100 ms after the previous one was
//     written, as the client did before) as the baseline.
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import WebSocket, { WebSocketServer } from 'ws';
import { Cloud, Session } from '../../dist/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';
import { fmt, report } from './lib.mjs';

const SETS = 20_000;
const PACED = 60;

/** A bare server that counts the set lines it reads; it answers a handshake with one values frame. */
async function countingServer() {
  const server = createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  const counter = { count: 0, target: 0, done: null };
  wss.on('connection', (ws) => {
    let handshaken = false;
    ws.on('message', (data) => {
      const text = data.toString();
      if (!handshaken) {
        handshaken = true;
        ws.send('{"method":"set","name":"☁ bench","value":"0"}');
        return;
      }
      for (let i = text.indexOf('"set"'); i !== -1; i = text.indexOf('"set"', i + 1)) counter.count++;
      if (counter.done && counter.count >= counter.target) {
        const done = counter.done;
        counter.done = null;
        done();
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${server.address().port}`,
    /** Resolves once `n` more set lines have been read. */
    expect(n) {
      counter.count = 0;
      counter.target = n;
      return new Promise((resolve) => {
        counter.done = resolve;
      });
    },
    close: () =>
      new Promise((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(resolve);
      }),
  };
}

/** The baseline: a plain `ws` client writing the lines `Cloud` writes, with the usual backpressure. */
async function plainSender(server) {
  const ws = new WebSocket(server.url, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const answered = new Promise((resolve) => ws.once('message', resolve));
  ws.send(`${JSON.stringify({ method: 'handshake', user: 'plain', project_id: '1' })}\n`);
  await answered;
  const arrived = server.expect(SETS);
  const start = performance.now();
  for (let i = 0; i < SETS; i++) {
    ws.send(
      `${JSON.stringify({ method: 'set', name: '☁ bench', value: String(i), user: 'plain', project_id: '1' })}\n`,
    );
    if (ws.bufferedAmount > 1 << 20) while (ws.bufferedAmount > 1 << 18) await nextTurn();
  }
  await arrived;
  const ms = performance.now() - start;
  ws.terminate();
  return ms;
}

/** The `Cloud` client: every set through `setVar`, each promise awaited. */
async function cloudSender(server) {
  const cloud = new Cloud({ projectId: 1, host: server.url, username: 'cloud', rateLimit: 0 });
  await cloud.connect();
  const arrived = server.expect(SETS);
  const start = performance.now();
  await Promise.all(Array.from({ length: SETS }, (_, i) => cloud.setVar('bench', i)));
  await arrived;
  const ms = performance.now() - start;
  await cloud.disconnect();
  return ms;
}

async function senderBench() {
  const server = await countingServer();
  try {
    // Warm both paths once, then the best of five runs each, interleaved.
    await plainSender(server);
    await cloudSender(server);
    let plain = Number.POSITIVE_INFINITY;
    let cloud = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 5; run++) {
      plain = Math.min(plain, await plainSender(server));
      cloud = Math.min(cloud, await cloudSender(server));
    }
    const rate = (ms) => Math.round(SETS / (ms / 1000)).toLocaleString('en');
    return report(
      `(a) sender at rateLimit 0, ${SETS} sets`,
      plain / cloud,
      0.8,
      `Cloud ${rate(cloud)} sets/s (${fmt(cloud)}) vs plain ws ${rate(plain)} sets/s (${fmt(plain)})`,
    );
  } finally {
    await server.close();
  }
}

/** CPU load: a busy worker per core, and the main event loop busy 4 ms out of every 10. */
function startLoad() {
  const workers = Array.from(
    { length: availableParallelism() },
    () => new Worker('for (;;) { Math.sqrt(Math.random()); }', { eval: true }),
  );
  const busy = setInterval(() => {
    const until = performance.now() + 4;
    while (performance.now() < until) Math.sqrt(Math.random());
  }, 10);
  return async () => {
    clearInterval(busy);
    await Promise.all(workers.map((worker) => worker.terminate()));
  };
}

/** The demo user's session on the sandbox. */
function login(sandbox) {
  const account = sandbox.accounts[0];
  return Session.login(account.username, account.password, { hosts: sandbox.hosts });
}

/** The baseline: a raw socket that writes each set `interval` after writing the previous one. */
async function naiveGaps(sandbox) {
  const session = await login(sandbox);
  const cookie = `scratchsessionsid=${session.http.cookie(sandbox.hosts.site, 'scratchsessionsid')}`;
  const ws = new WebSocket(sandbox.hosts.cloudWs, { headers: { Cookie: cookie }, perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const projectId = String(sandbox.cloudProjectId);
  const answered = new Promise((resolve) => ws.once('message', resolve));
  ws.send(`${JSON.stringify({ method: 'handshake', user: session.username, project_id: projectId })}\n`);
  await answered;
  const sent = [];
  for (let i = 0; i < PACED; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100 - (performance.now() - sent[i - 1])));
    sent.push(performance.now());
    ws.send(
      `${JSON.stringify({ method: 'set', name: '☁ naive', value: String(i), user: session.username, project_id: projectId })}\n`,
    );
  }
  ws.close();
  return sent.slice(1).map((t, i) => t - sent[i]);
}

/** Sends PACED sets at rateLimit 0.1 and returns the gaps between them as written. */
async function pacedGaps(sandbox) {
  const session = await login(sandbox);
  const sent = [];
  // The client's own socket class, with a stamp taken as each set frame is written.
  class StampedWebSocket extends WebSocket {
    send(data, ...rest) {
      if (String(data).includes('"method":"set"')) sent.push(performance.now());
      return super.send(data, ...rest);
    }
  }
  const cloud = session.cloud(sandbox.cloudProjectId, { WebSocket: StampedWebSocket }); // rateLimit 0.1
  await cloud.connect();
  await Promise.all(Array.from({ length: PACED }, (_, i) => cloud.setVar('paced', i)));
  const open = cloud.state === 'open';
  await cloud.disconnect();
  if (sent.length !== PACED) throw new Error(`expected ${PACED} stamped sets, got ${sent.length}`);
  return { gaps: sent.slice(1).map((t, i) => t - sent[i]), open };
}

const average = (values) => values.reduce((a, b) => a + b, 0) / values.length;

async function pacingBench() {
  const sandbox = await startSandbox(); // its platform rate limit is on: pacing must never trip it
  let ok = true;
  try {
    for (const loaded of [false, true]) {
      const stop = loaded ? startLoad() : null;
      let result;
      let naive;
      try {
        result = await pacedGaps(sandbox);
        naive = await naiveGaps(sandbox);
      } finally {
        await stop?.();
      }
      const { gaps, open } = result;
      const mean = average(gaps);
      const ratio = mean / 100;
      const meanOk = Math.abs(ratio - 1) <= 0.02;
      const min = Math.min(...gaps);
      const noBurst = min >= 50;
      ok = ok && meanOk && noBurst && open;
      console.log(
        `  (b) pacing at rateLimit 0.1, ${PACED} sets, ${loaded ? `under load (${availableParallelism()} busy workers + a busy event loop)` : 'idle machine'}: ` +
          `mean gap / 100 ms = ratio ${ratio.toFixed(3)} (target 1 ± 0.02: ${meanOk ? 'met' : 'MISSED'})  ` +
          `[mean ${mean.toFixed(2)} ms, min ${min.toFixed(2)} ms (no burst, none under 50 ms: ${noBurst ? 'met' : 'MISSED'}), max ${Math.max(...gaps).toFixed(2)} ms; ` +
          `server rate limit never tripped: ${open ? 'yes' : 'NO'}; ` +
          `baseline, naive pacing in the same conditions: ratio ${(average(naive) / 100).toFixed(3)}, min ${Math.min(...naive).toFixed(2)} ms]`,
      );
    }
  } finally {
    await sandbox.close();
  }
  return ok;
}

export default async function cloudBench() {
  const a = await senderBench();
  const b = await pacingBench();
  return a && b;
}
