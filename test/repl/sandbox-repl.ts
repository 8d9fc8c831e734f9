/** One `scratchlab repl --sandbox` child process for a test file: started before, closed after. */
import { afterAll, beforeAll } from 'vitest';
import { ReplProcess } from './pty.js';

/** Registers the hooks; answers a getter of the running REPL. */
export function useSandboxRepl(): () => ReplProcess {
  let repl: ReplProcess | undefined;
  beforeAll(async () => {
    repl = await ReplProcess.start({ sandbox: true });
  }, 60_000);
  afterAll(async () => {
    await repl?.close();
  });
  return () => {
    if (!repl) throw new Error('the REPL is not started yet (use it inside tests)');
    return repl;
  };
}
