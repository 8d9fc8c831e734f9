// Issue 4 benchmarks (cloud requests), over the sandbox's platform cloud on loopback:
// (a) a 10,000-character answer at rateLimit 0.1 takes at most 1.05 x the bound `packets x 0.1 s`
//     (the sandbox's own per-connection limits on, so a packet sent too fast would be lost);
// (b) small requests answered per second by one host, three projects sending at once (no pacing:
//     the host's own cost, not the rate limit's);
// (c) encode and decode throughput in MB/s (default table and lossless).

import { CloudRequests } from '../../dist/cloud/requests/index.js';
import { decode, encode } from '../../dist/encoding.js';
import { Session } from '../../dist/index.js';
import { startSandbox } from '../../dist/sandbox/index.js';
import { best, fmt } from './lib.mjs';

/** The project's side, reduced to what the benchmark needs: send a request, reassemble its answer. */
class Project {
  constructor(cloud) {
    this.cloud = cloud;
    this.pending = new Map();
    this.cloud.on('set', ({ name, value }) => this.#receive(name, value));
  }

  // Rids like the template's (10001-99999 then 0), but unique across the benchmark's projects: random
  // ones collide often among hundreds of requests in flight, and a host answers a rid only once.
  static #next = 0;
  request(text, rid = `${10001 + (Project.#next++ % 89999)}0`) {
    const answer = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${rid}`)), 30_000);
      this.pending.set(rid, {
        parts: new Map(),
        done: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
    return this.cloud.setVar('TO_HOST', `${encode(text)}.${rid}`).then(() => answer);
  }

  #receive(name, value) {
    if (!name.startsWith('FROM_HOST_')) return;
    const [digits, tail] = value.split('.');
    const rid = tail.slice(0, -4);
    const job = this.pending.get(rid);
    if (!job) return;
    const code = tail.slice(-4);
    if (code.endsWith('222')) job.last = { digits, marker: code[0] };
    else job.parts.set(Number(code.slice(0, 3)), digits);
    if (!job.last) return;
    for (let k = 1; k <= job.parts.size; k++) if (!job.parts.has(k)) return;
    this.pending.delete(rid);
    const all = [
      ...Array.from({ length: job.parts.size }, (_, i) => job.parts.get(i + 1)),
      job.last.digits,
    ].join('');
    job.done({ packets: job.parts.size + 1, text: job.last.marker === '3' ? all : decode(all) });
  }
}

async function withSandbox(options, run) {
  const sandbox = await startSandbox(options);
  const clouds = [];
  const cloudOf = async (account, rateLimit) => {
    const { username, password } = sandbox.accounts[account];
    const session = await Session.login(username, password, { hosts: sandbox.hosts });
    const cloud = session.cloud(sandbox.cloudProjectId, { rateLimit });
    await cloud.connect();
    clouds.push(cloud);
    return cloud;
  };
  try {
    return await run(cloudOf);
  } finally {
    await Promise.all(clouds.map((c) => c.disconnect().catch(() => undefined)));
    await sandbox.close();
  }
}

async function longAnswer() {
  return withSandbox({}, async (cloudOf) => {
    const host = new CloudRequests(await cloudOf(0, 0.1), { lookupRequester: false });
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(223).slice(0, 10_000);
    host.request('long', () => text);
    await host.start();
    const project = new Project(await cloudOf(1, 0.1));
    // Let the host's pacing start from rest, as it would for a request arriving in a quiet moment.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    const answer = await project.request('long');
    const ms = performance.now() - started;
    await host.stop();
    if (answer.text !== text) throw new Error('the long answer came back different');
    const bound = answer.packets * 100;
    const ratio = ms / bound;
    const ok = ratio <= 1.05;
    console.log(
      `  (a) 10,000-character answer: ${answer.packets} packets in ${fmt(ms)}, bound ${fmt(bound)}: ratio ${ratio.toFixed(3)} (target <= 1.05: ${ok ? 'met' : 'MISSED'})`,
    );
    return ok;
  });
}

async function smallRequests() {
  return withSandbox({ cloudRateLimits: false }, async (cloudOf) => {
    const host = new CloudRequests(await cloudOf(0, 0), { lookupRequester: false });
    host.request('add', ([a, b]) => Number(a) + Number(b));
    await host.start();
    const projects = [
      new Project(await cloudOf(1, 0)),
      new Project(await cloudOf(2, 0)),
      new Project(await cloudOf(1, 0)),
    ];
    const perProject = 300;
    const round = async () => {
      const jobs = projects.flatMap((p, who) =>
        Array.from({ length: perProject }, (_, i) =>
          p.request(`add&${who}&${i}`).then((r) => {
            if (r.text !== String(who + i)) throw new Error(`wrong answer ${r.text}`);
          }),
        ),
      );
      await Promise.all(jobs);
    };
    await round(); // warm-up
    const { ms } = await best(3, round);
    await host.stop();
    const count = projects.length * perProject;
    console.log(
      `  (b) small requests: ${count} from ${projects.length} projects at once in ${fmt(ms)}: ${((count / ms) * 1000).toFixed(0)} answered/s (no pacing)`,
    );
    return true;
  });
}

function codecThroughput() {
  const table = 'Hello, World! The quick brown fox jumps over the lazy dog 0123456789 ?';
  const text = table.repeat(Math.ceil(4_000_000 / table.length)).slice(0, 4_000_000);
  const mixed = 'Grüße aus Köln, 東京 😀 '.repeat(100_000);
  const mb = (chars, ms) => `${(chars / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;
  const measure = (label, input, fn) => {
    let out;
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      out = fn(input);
      min = Math.min(min, performance.now() - t);
    }
    console.log(
      `  (c) ${label}: ${(input.length / 1e6).toFixed(1)} M chars in ${min.toFixed(1)} ms = ${mb(input.length, min)}`,
    );
    return out;
  };
  const digits = measure('encode (table)', text, (t) => encode(t));
  const back = measure('decode (table)', digits, (d) => decode(d));
  const lossless = measure('encode (lossless, mixed text)', mixed, (t) => encode(t, { lossless: true }));
  const mixedBack = measure('decode (lossless, mixed text)', lossless, (d) => decode(d, { lossless: true }));
  if (back !== text || mixedBack !== mixed) throw new Error('the codec did not round-trip');
  return true;
}

export default async function requestsBench() {
  const a = await longAnswer();
  const b = await smallRequests();
  const c = codecThroughput();
  return a && b && c;
}
