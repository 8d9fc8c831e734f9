/**
 * Opening the REPL's session through the shared workbench. Kept apart from the REPL proper so the
 * CLI can start it (the sandbox, a login) while the REPL's modules are still loading.
 */
import type { Workbench } from 'scratchlab/workbench';
import { askHidden, PromptCancelled } from '../terminal/password.js';
import type { ReplTerminal } from '../terminal/terminal.js';

/** Options of {@link openSession}. */
interface OpenSessionOptions {
  /** Start the embedded sandbox and log in its demo account. */
  sandbox?: boolean;
  /** `SCRATCH_USERNAME`, `SCRATCH_PASSWORD`, `HOME`, `XDG_*`. */
  env: Record<string, string | undefined>;
  terminal: ReplTerminal;
}

/**
 * Opens the session. On the real site a failure (offline, a refused login) is reported on stderr
 * and leaves an anonymous session; a sandbox that cannot start is an error.
 */
export async function openSession({ sandbox, env, terminal }: OpenSessionOptions): Promise<Workbench> {
  const { openWorkbench } = await import('scratchlab/workbench');
  const prompt = terminal.prompt;
  const askPassword = prompt
    ? (username: string) => askHidden(`Password for ${username}: `, prompt)
    : undefined;
  try {
    return await openWorkbench({ sandbox, env, askPassword });
  } catch (error) {
    if (sandbox) throw error;
    const [{ ApiError, Session }, { formatApiError }] = await Promise.all([
      import('scratchlab'),
      import('../display/writer.js'),
    ]);
    const why =
      error instanceof ApiError
        ? formatApiError(error, terminal.color)
        : error instanceof PromptCancelled
          ? 'cancelled at the password prompt'
          : String(error);
    process.stderr.write(`could not log in: ${why}\ncontinuing anonymous (use .login)\n`);
    return {
      session: new Session(),
      sandbox: null,
      description: 'not logged in (anonymous reads only): use .login',
      close: async () => {},
    };
  }
}
