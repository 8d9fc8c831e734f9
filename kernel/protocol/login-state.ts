/**
 * What the kernel says about its session: at start (the kernel log and `kernel_info`'s banner),
 * and under a `LoginRequiredError` in a cell: how to log in, through the kernel's environment or
 * the REPL's saved session, never by typing a password into a cell (notebooks are shared and
 * saved with their code).
 */
import type { Workbench } from 'scratchlab/workbench';

/** One line: logged in as whom, where, or anonymous and how to log in. */
export function loginState(workbench: Pick<Workbench, 'session' | 'sandbox'>, sandbox: boolean): string {
  const { session } = workbench;
  const where = sandbox ? 'the embedded sandbox' : session.siteHost;
  if (session.loggedIn) return `logged in as ${session.username} on ${where}`;
  return `anonymous on ${where} (reads only). ${loginHint(sandbox)}`;
}

/** How to log in, for the kernel in question. */
export function loginHint(sandbox: boolean): string {
  if (sandbox) return 'The preloaded `session` is logged in to the sandbox as its demo account: use it.';
  return (
    'To log in, start Jupyter with SCRATCH_USERNAME and SCRATCH_PASSWORD in its environment ' +
    '(or log in once in `scratchlab repl` with .login, which saves the session), then restart the kernel.'
  );
}
