// Project analysis: files a second of `analyzeProject` against the Scratch Team's
// `scratch-analysis` 2.4.2 on the same `.sb3` bytes (the real projects of test/analysis/fixtures,
// each written as an .sb3; both unzip, parse and count, ours also scores, walks and finds smells):
// the ratio ours / theirs should be at least 1. Then one very large generated project (50,000
// blocks in 5,000 scripts): the time of one analysis and the memory it holds.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { analyzeProject, writeSb3 } from '../../dist/index.js';
import { best, fmt, report } from './lib.mjs';

const require = createRequire(import.meta.url);
const scratchAnalysis = require('scratch-analysis');
const folder = new URL('../analysis/fixtures/', import.meta.url);
const ROUNDS = Number(process.env.ANALYSIS_BENCH_ROUNDS ?? 5);

function fixtures() {
  return readdirSync(folder)
    .filter((name) => /__.*\.json(\.gz)?$/.test(name))
    .map((name) => {
      const raw = readFileSync(new URL(name, folder));
      const json = JSON.parse((name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8'));
      return { name, bytes: writeSb3({ json, assets: new Map() }) };
    });
}

const theirs = (bytes) =>
  new Promise((resolve) =>
    scratchAnalysis(Buffer.from(bytes), (error, result) => resolve(error ? null : result)),
  );

/** 50,000 blocks: 5,000 scripts of a hat, a loop and eight blocks inside, over 50 sprites. */
function largeProject() {
  const targets = [
    {
      isStage: true,
      name: 'Stage',
      variables: {},
      lists: {},
      broadcasts: {},
      blocks: {},
      comments: {},
      costumes: [],
      sounds: [],
    },
  ];
  let n = 0;
  for (let s = 0; s < 50; s++) {
    const blocks = {};
    for (let k = 0; k < 100; k++) {
      const ids = Array.from({ length: 10 }, () => `b${n++}`);
      blocks[ids[0]] = {
        opcode: 'event_whenflagclicked',
        next: ids[1],
        parent: null,
        inputs: {},
        fields: {},
        shadow: false,
        topLevel: true,
        x: 0,
        y: 0,
      };
      blocks[ids[1]] = {
        opcode: 'control_repeat',
        next: null,
        parent: ids[0],
        inputs: { TIMES: [1, [6, '10']], SUBSTACK: [2, ids[2]] },
        fields: {},
        shadow: false,
        topLevel: false,
      };
      for (let i = 2; i < 10; i++) {
        blocks[ids[i]] = {
          opcode: i % 2 ? 'motion_turnright' : 'motion_movesteps',
          next: ids[i + 1] ?? null,
          parent: ids[i - 1],
          inputs: { STEPS: [1, [4, String(i)]] },
          fields: {},
          shadow: false,
          topLevel: false,
        };
      }
    }
    targets.push({
      isStage: false,
      name: `Sprite${s + 1}`,
      variables: {},
      lists: {},
      broadcasts: {},
      blocks,
      comments: {},
      costumes: [],
      sounds: [],
    });
  }
  return { targets, monitors: [], extensions: [], meta: { semver: '3.0.0' } };
}

export default async function bench() {
  const files = fixtures();
  const accepted = [];
  for (const file of files) if (await theirs(file.bytes)) accepted.push(file);
  // Warm both (JIT, ajv's compiled schema), then the best of ROUNDS passes over every file.
  for (const file of accepted) analyzeProject(file.bytes);
  const ours = await best(ROUNDS, async () => {
    for (const file of accepted) analyzeProject(file.bytes);
  });
  const them = await best(ROUNDS, async () => {
    for (const file of accepted) await theirs(file.bytes);
  });
  const oursRate = (accepted.length / ours.ms) * 1000;
  const theirRate = (accepted.length / them.ms) * 1000;
  const ok = report(
    `files a second, analyzeProject / scratch-analysis (${accepted.length} real .sb3 files)`,
    oursRate / theirRate,
    1,
    `${oursRate.toFixed(0)} vs ${theirRate.toFixed(0)} files/s; ${fmt(ours.ms)} vs ${fmt(them.ms)} a pass`,
  );

  const big = largeProject();
  const text = JSON.stringify(big);
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const start = performance.now();
  const analysis = analyzeProject(text);
  const ms = performance.now() - start;
  global.gc?.();
  const held = process.memoryUsage().heapUsed - before;
  console.log(
    `  one large project (${analysis.summary.blocks} blocks, ${analysis.summary.scripts} scripts, ${(text.length / 1e6).toFixed(1)} MB of JSON): ${fmt(ms)}, ${(held / 2 ** 20).toFixed(0)} MiB held by its analysis${global.gc ? '' : ' (run node with --expose-gc for a settled figure)'}`,
  );
  const theirsBig = await best(1, () => theirs(writeSb3({ json: big, assets: new Map() })));
  console.log(`  the same project in scratch-analysis: ${fmt(theirsBig.ms)}`);
  return ok;
}
