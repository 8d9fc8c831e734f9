// Benchmarks of the REPL (issues 5 and 13), against the built package in dist/:
// (a) time from launch to the first prompt, in a pseudo-terminal, of `scratchlab repl --sandbox`
//     and of `scratchlab repl` (no saved session: anonymous, no network), against a plain `node`
//     REPL measured in the same run (target: at most 3 times slower). The session and the sandbox
//     open in the background after the prompt; the time until the session line is printed (the
//     first input naming `session` waits for it) is reported beside, for information;
// (b) time to render a 1,000-row project table (`show(projects, { rows: Infinity })`'s work), and
//     the same table typed at the REPL, from Enter to the next prompt.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pty from 'node-pty';
import { renderTable, toTable } from '../../dist/presentation/index.js';
import { best, fmt } from './lib.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = 5;
const MAX_SLOWDOWN = 3;
/** The line printed once the session is open. */
const SESSION_READY = /(logged in as|not logged in)[^\n]*\n/;
const TABLE_TARGET_MS = 250;

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
const strip = (text) => text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '');

/**
 * A child in a pseudo-terminal with a throwaway HOME; `ready` resolves once `prompt` is on screen,
 * `session` once the session line follows (never for a bare node REPL).
 */
function launch(args, prompt) {
  const home = mkdtempSync(join(tmpdir(), 'scratchlab-bench-'));
  const env = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'c'),
    XDG_STATE_HOME: join(home, 's'),
  };
  for (const key of Object.keys(env))
    if (key.startsWith('SCRATCH_') || key === 'NODE_OPTIONS') delete env[key];
  env.NODE_REPL_HISTORY = join(home, 'node_history');
  const start = performance.now();
  const child = pty.spawn(process.execPath, args, { cols: 120, rows: 40, cwd: ROOT, env });
  let out = '';
  let sessionReady;
  const session = new Promise((resolve) => {
    sessionReady = resolve;
  });
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no prompt from ${args.join(' ') || 'node'}:\n${out}`)),
      60_000,
    );
    child.onData((data) => {
      out += data;
      const text = strip(out);
      if (text.includes(prompt)) {
        clearTimeout(timer);
        resolve(performance.now() - start);
      }
      if (SESSION_READY.test(text)) sessionReady(performance.now() - start);
    });
  });
  return {
    ready,
    session,
    child,
    output: () => out,
    close() {
      child.kill();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Milliseconds to the prompt and (unless `withSession` is false) to the session line. */
async function timeToPrompt(args, prompt, withSession = true) {
  const run = launch(args, prompt);
  try {
    const ready = await run.ready;
    const session = withSession ? await run.session : Number.NaN;
    return { ready, session };
  } finally {
    run.close();
  }
}

function slowdown(label, ms, baseline) {
  const ratio = ms / baseline;
  const ok = ratio <= MAX_SLOWDOWN;
  console.log(
    `  ${label}: ${fmt(ms)} vs node ${fmt(baseline)}: ${ratio.toFixed(2)}x (target <= ${MAX_SLOWDOWN}x: ${ok ? 'met' : 'MISSED'})`,
  );
  return ok;
}

/** `n` project records with mixed-width titles (self-contained: it is also sent to the REPL as source). */
function projects(n) {
  const TITLES = [
    'Platformer 世界',
    '🎮 Paper Minecraft 🧱',
    'ねこのぼうけん 2',
    'Flappy Dino',
    'e\u0301le\u0301phant',
  ];
  return Array.from({ length: n }, (_, i) => ({
    id: 100_000_000 + i,
    title: `${TITLES[i % TITLES.length]} #${i}`,
    description: '',
    instructions: '',
    visibility: 'visible',
    public: true,
    comments_allowed: true,
    is_published: true,
    author: {
      id: i,
      username: `maker_${i % 97}`,
      scratchteam: false,
      history: { joined: '2015-01-01T00:00:00.000Z' },
      profile: { id: null, images: {} },
    },
    image: '',
    images: {},
    history: {
      created: '2024-01-01T00:00:00.000Z',
      modified: '2024-01-02T00:00:00.000Z',
      shared: '2024-01-03T00:00:00.000Z',
    },
    stats: { views: i * 37, loves: i * 3, favorites: i * 2, remixes: i % 11 },
    remix: { parent: null, root: null },
  }));
}

export default async function replBench() {
  // (a) Interleaved, best of RUNS each, so a busy moment hurts all three alike.
  const times = { node: Infinity, plain: Infinity, sandbox: Infinity };
  const sessions = { plain: Infinity, sandbox: Infinity };
  for (let i = 0; i < RUNS; i++) {
    times.node = Math.min(times.node, (await timeToPrompt([], '> ', false)).ready);
    for (const [name, args] of [
      ['plain', ['repl']],
      ['sandbox', ['repl', '--sandbox']],
    ]) {
      const run = await timeToPrompt([join(ROOT, 'dist/cli.js'), ...args], 'scratchlab> ');
      times[name] = Math.min(times[name], run.ready);
      sessions[name] = Math.min(sessions[name], run.session);
    }
  }
  console.log(`  (a) launch to first prompt, best of ${RUNS}:`);
  const okPlain = slowdown('scratchlab repl', times.plain, times.node);
  const okSandbox = slowdown('scratchlab repl --sandbox', times.sandbox, times.node);
  console.log(
    `      session open (in the background) after ${fmt(sessions.plain)} (repl), ${fmt(sessions.sandbox)} (--sandbox: seeded and logged in), for information`,
  );

  // (b) The table itself, in this process.
  const rows = projects(1000);
  const table = await best(5, () =>
    renderTable(toTable(rows, { maxRows: Infinity }), { width: 120, color: true }),
  );
  const lines = table.result.split('\n').length;
  const okTable = table.ms <= TABLE_TARGET_MS;
  console.log(
    `  (b) 1,000-row project table: ${fmt(table.ms)} to lay out and render ${lines} lines (target <= ${TABLE_TARGET_MS} ms: ${okTable ? 'met' : 'MISSED'})`,
  );

  // …and typed at a REPL: Enter to the next prompt, the terminal's output included.
  const repl = launch([join(ROOT, 'dist/cli.js'), 'repl'], 'scratchlab> ');
  try {
    await repl.ready;
    const type = (line) =>
      new Promise((resolve) => {
        const offset = repl.output().length;
        const start = performance.now();
        const poll = setInterval(() => {
          const out = strip(repl.output().slice(offset));
          if (/\n[^\n]*scratchlab> $/.test(out)) {
            clearInterval(poll);
            resolve(performance.now() - start);
          }
        }, 2);
        repl.child.write(`${line}\r`);
      });
    // The same records as above, built at the prompt (typing 1,000 records would time the typing).
    await type(`globalThis.rows = (${projects.toString()})(1000); rows.length`);
    await type('show(rows.slice(0, 10), { rows: Infinity })'); // warm up esbuild and the renderer
    let shown = Infinity;
    for (let i = 0; i < 3; i++) shown = Math.min(shown, await type('show(rows, { rows: Infinity })'));
    console.log(
      `      typed at the REPL: show(rows, { rows: Infinity }) ${fmt(shown)} from Enter to the next prompt`,
    );
  } finally {
    repl.close();
  }
  return okPlain && okSandbox && okTable;
}
