/**
 * The store's fault suite (`test/data/store-faults.test.ts`) at length, not part of `npm test`:
 * `npm run soak -- store --kills 200` SIGKILLs the resumable load at that many moments (18 in
 * `npm test`), each checked for every row exactly once; the suite's other faults run once.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

let kills = 200;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const [flag, inline] = args[i]!.split('=', 2) as [string, string | undefined];
  const value = inline ?? args[++i];
  if (flag !== '--kills' || value === undefined)
    throw new RangeError('usage: npm run soak -- store [--kills N]');
  kills = Number.parseInt(value, 10);
  if (!(kills >= 3 && kills <= 10_000)) throw new RangeError('--kills must be 3-10000');
}
const root = fileURLToPath(new URL('../..', import.meta.url));
const run = spawnSync('npx', ['vitest', 'run', 'test/data/store-faults.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, STORE_FAULT_KILLS: String(kills) },
});
process.exitCode = run.status ?? 1;
