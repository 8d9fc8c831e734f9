/**
 * tslab's executor, as the kernel runs it: the first cell waits for the preload (the Jupyter
 * server answers at once, the login and the preload run meanwhile), and each cell ends only when
 * its pending displays have been sent.
 */
import type { PendingDisplays } from './pending-displays.js';
import type { Executor } from './tslab.js';

/** Options of {@link kernelExecutor}. */
export interface KernelExecutorOptions {
  /** Settles when the preload has run; a rejection fails every cell with its message. */
  ready: Promise<void>;
  pending: PendingDisplays;
  /** Prints a cell failure (one line for the SDK's errors). */
  printError(error: unknown): void;
}

/** Wraps tslab's executor. */
export function kernelExecutor(inner: Executor, options: KernelExecutorOptions): Executor {
  const { ready, pending, printError } = options;
  return {
    async execute(src) {
      try {
        await ready;
      } catch (error) {
        printError(error);
        return false;
      }
      let ok = false;
      try {
        ok = await inner.execute(src);
      } finally {
        ok = (await pending.settle(printError)) && ok;
      }
      return ok;
    },
    inspect: (src, position) => inner.inspect(src, position),
    complete: (src, position) => inner.complete(src, position),
    reset: () => inner.reset(),
    interrupt: () => inner.interrupt(),
    get locals() {
      return inner.locals;
    },
    close: () => inner.close(),
  };
}
