// Runs the README's script blocks one after another in this one process (copied beside the
// packed package, so `scratchlab` is the package as users get it), and prints, around each
// block's own output, a start line and an end line saying how it ended: `ok`, `error …`, `hang`
// (not done within the plan's bound) or `leaks …` (handles it left behind that would keep a
// process of its own from exiting). Blocks marked `swap` target the real site: they get the
// hosts of the plan's `site`, a sandbox (./swap-hooks.mjs). The process then ends by itself.
//
//   node run-blocks.mjs <plan.json>

import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';

const MARK = '\u241e doc-block';
/** @type {{ blocks: { name: string; file: string; swap?: Record<string, string> }[]; site?: { hosts: object; alternateCloudHost: string; names: Record<string, string>; password: string }; hooks: string; shim: string; timeoutMs: number; settleMs: number }} */
const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** This process's own stdio: active once written to, whatever a block did. */
const STDIO = new Set(['PipeWrap', 'TTYWrap']);

/** Active handles by kind (timers, sockets, servers, child processes…), as counts. */
function resources() {
  const counts = new Map();
  for (const kind of process.getActiveResourcesInfo())
    if (!STDIO.has(kind)) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** What is active now beyond `baseline`, or null when nothing is. */
function beyond(baseline) {
  const extra = [];
  for (const [kind, n] of resources())
    if (n > (baseline.get(kind) ?? 0)) extra.push(`${kind} ×${n - (baseline.get(kind) ?? 0)}`);
  return extra.length > 0 ? extra.join(', ') : null;
}

const swapped = plan.blocks.filter((block) => block.swap);
if (swapped.length > 0) {
  // The site's twin runs in the test's process, so the server's end of a connection is never
  // counted here as a handle of the block.
  const { site } = plan;
  Reflect.set(globalThis, Symbol.for('scratchlab.docs.site'), site);
  process.env.SCRATCH_PASSWORD = site.password;
  register(pathToFileURL(plan.hooks), {
    data: {
      shim: pathToFileURL(plan.shim).href,
      blocks: Object.fromEntries(
        swapped.map((block) => [
          pathToFileURL(block.file).href,
          Object.fromEntries(Object.entries(block.swap).map(([from, to]) => [from, site.names[to] ?? to])),
        ]),
      ),
    },
  });
}

let failed = false;
for (const block of plan.blocks) {
  // Measured before each block: one that left a handle is reported once, not again by the next.
  const baseline = resources();
  process.stdout.write(`${MARK} start ${block.name}\n`);
  let outcome = 'ok';
  let timer;
  const began = performance.now();
  try {
    const bound = new Promise((resolve) => {
      timer = setTimeout(() => resolve('hang'), plan.timeoutMs);
    });
    const ran = await Promise.race([import(pathToFileURL(block.file).href).then(() => 'ok'), bound]);
    if (ran === 'hang') outcome = `hang (not done within ${plan.timeoutMs} ms)`;
  } catch (error) {
    outcome = `error ${inspect(error, { depth: 2 }).split('\n').slice(0, 6).join(' ⏎ ')}`;
  } finally {
    clearTimeout(timer);
  }
  if (outcome === 'ok') {
    // What a process of its own would still wait for: handles that do not go away by themselves.
    const deadline = Date.now() + plan.settleMs;
    let left = beyond(baseline);
    while (left !== null && Date.now() < deadline) {
      await sleep(50);
      left = beyond(baseline);
    }
    if (left !== null) outcome = `leaks ${left}`;
  }
  if (outcome !== 'ok') failed = true;
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  process.stdout.write(`\n${MARK} end ${block.name} ${outcome} (${seconds} s)\n`);
}
// A failed block may have left what never ends: its report is out, so end here.
if (failed) process.exit(1);
