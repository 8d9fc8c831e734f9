/**
 * The entry of the type-check worker (./type-checker.ts): a thread that ends the process with the
 * kernel's, even in the middle of a check (./type-check-watchdog.ts), then tslab's converter gets
 * plain programs (./plain-program.ts) before anything loads it, and the loop (./type-check-loop.ts)
 * starts.
 */
import { Worker } from 'node:worker_threads';
import { usePlainPrograms } from './plain-program.js';

// The kernel's process id, as the kernel passed it (not `process.ppid`: the kernel may be gone).
const kernel = Number(process.argv[2]);
if (!Number.isInteger(kernel) || kernel <= 1)
  throw new Error("type-check-worker.js takes the kernel's process id");
// It never keeps the process alive (the end of the IPC channel ends it between checks).
new Worker(new URL('./type-check-watchdog.js', import.meta.url), { workerData: { kernel } }).unref();

usePlainPrograms();
await import('./type-check-loop.js');
