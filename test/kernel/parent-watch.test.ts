// The kernel ends with the front end that started it (kernel/parent-watch.ts), as IPython's kernel
// does: here a front end that is gone before the kernel has even started (jupyter_client starts the
// kernel and its process ends at once), so the kernel, adopted by init, has never known its parent.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { toolPath } from '../support/tools.js';
import { hasJupyter, installKernels, type JupyterHome, jupyterHome } from './jupyter.js';

const run = promisify(execFile);

/** Longest wait for the kernel to end (it looks at its parent once a second, then shuts down). */
const END_MS = 60_000;

/** Starts the kernel through jupyter_client, prints its process id, and ends at once. */
const LAUNCHER = `
import os, subprocess, sys
from jupyter_client.manager import KernelManager
km = KernelManager(kernel_name="scratchlab")
# Its output not on this process's pipe, which would stay open as long as the kernel runs.
km.start_kernel(cwd=sys.argv[1], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(km.provisioner.process.pid, flush=True)
os._exit(0)
`;

/** Whether process `pid` runs (and is not a zombie waiting for its parent). */
function running(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    return readFileSync(stat, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false; // it ended while being read
  }
}

describe.skipIf(!hasJupyter)('a kernel whose front end has gone', () => {
  let home: JupyterHome;

  beforeAll(async () => {
    home = jupyterHome('parent-watch');
    await installKernels(home);
  });

  it('ends by itself when its front end was gone before it started', {
    timeout: END_MS + 30_000,
  }, async () => {
    const { stdout } = await run(toolPath('python3'), ['-c', LAUNCHER, home.dir], { env: home.env });
    const pid = Number(stdout.trim());
    expect(Number.isInteger(pid) && pid > 1).toBe(true);
    try {
      const deadline = Date.now() + END_MS;
      while (running(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(running(pid), `kernel ${pid} still runs ${END_MS} ms after its front end ended`).toBe(false);
    } finally {
      if (running(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
