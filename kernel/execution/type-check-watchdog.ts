/**
 * A thread of the type-check worker's process (./type-check-worker.ts) that ends the process once
 * the kernel that started it has gone. The worker's own thread hears of it (its IPC channel
 * closes) only between checks: a kernel killed outright (SIGKILL, as Jupyter's restart does after
 * its interrupt) during a check of minutes left the worker running it, a core and up to a GiB
 * each, for all that time, out of reach of Jupyter's kill (a session of its own). This thread is
 * never busy: it looks at the parent's id, as ../parent-watch.ts does for the kernel.
 */
import { workerData } from 'node:worker_threads';

/** How often the parent is looked at (a getppid() call): the longest the worker outlives the kernel. */
const POLL_MS = 500;

const { kernel } = workerData as { kernel: number };
// Handed to init (or a subreaper): the kernel has ended. The check in hand is of no use to anyone.
const gone = () => process.ppid !== kernel;
if (gone()) process.kill(process.pid, 'SIGKILL');
setInterval(() => {
  if (gone()) process.kill(process.pid, 'SIGKILL');
}, POLL_MS);
