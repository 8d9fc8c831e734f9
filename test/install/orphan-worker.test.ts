/**
 * A test worker whose vitest is gone (killed, or Ctrl-C'd before it stopped its workers) must end
 * (test/support/exit-with-parent.ts). Without that, vitest's reports of the worker's errors to its
 * dead parent fail in turn and the worker spins at full CPU forever (seen after SIGINT to
 * `npx vitest run test/browser/scratch-gui.test.ts`: a `node (vitest 1)` orphan, 13 s of CPU in
 * 18 s). Here: vitest with this repository's config on a long test, its main process SIGKILLed.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  rmSync(dir, { recursive: true, force: true });
});

/** The pids of `parent`'s children, from /proc. */
function childrenOf(parent: number): number[] {
  const text = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(' ').map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('a worker whose vitest was killed exits instead of spinning on its own error reports', async () => {
  dir = mkdtempSync(join(tmpdir(), 'orphan-worker-'));
  mkdirSync(join(dir, 'test'));
  const started = join(dir, 'started');
  writeFileSync(
    join(dir, 'test', 'late.test.ts'),
    `import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
it('throws where nobody catches it, after its parent is gone', async () => {
  writeFileSync(${JSON.stringify(started)}, String(process.pid));
  setTimeout(() => { throw new Error('late'); }, 1000);
  await new Promise((resolve) => setTimeout(resolve, 60_000));
}, 120_000);
`,
  );
  const vitest = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--root',
      dir,
      '--config',
      join(ROOT, 'vitest.config.ts'),
    ],
    { stdio: 'ignore' },
  );
  await until(() => {
    try {
      return readFileSync(started, 'utf8') !== '';
    } catch {
      return false;
    }
  }, 'the test to start');
  const worker = Number(readFileSync(started, 'utf8'));
  expect(childrenOf(vitest.pid!)).toContain(worker);
  leftovers.push(worker);
  vitest.kill('SIGKILL');
  // Well past the late throw (1 s): a worker still there is the spinning one.
  await until(() => !alive(worker), 'the orphaned worker to exit');
}, 90_000);
