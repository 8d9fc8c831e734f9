/**
 * Start-up shared by the REPL and the Jupyter kernel: a logged-in `Session`, either on the
 * embedded sandbox (with a demo account) or on the real site (resumed from the saved session,
 * or logged in from the environment or a prompt, then saved).
 */
import type { Sandbox } from '../sandbox/index.js';
import { Session } from '../session.js';
import { sessionFile } from './paths.js';
import { resumeSession, saveSession } from './session-store.js';

export interface WorkbenchOptions {
  /** Start the embedded sandbox and log in its first demo account. */
  sandbox?: boolean;
  /** Environment to read `SCRATCH_USERNAME`, `SCRATCH_PASSWORD`, `HOME`, `XDG_*` from. */
  env?: Record<string, string | undefined>;
  /** Asks for the password (hidden) when the environment has none; omit to stay anonymous. */
  askPassword?: (username: string) => Promise<string>;
}

export interface Workbench {
  session: Session;
  sandbox: Sandbox | null;
  /** One line for a banner: who is logged in, where. */
  description: string;
  /** Stops the sandbox, if one was started. */
  close(): Promise<void>;
}

/** Opens a session as the REPL and the kernel do at start-up. */
export async function openWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const env = options.env ?? process.env;
  if (options.sandbox) {
    const { startSandbox } = await import('../sandbox/index.js');
    const sandbox = await startSandbox();
    const account = sandbox.accounts[0]!;
    const session = await Session.login(account.username, account.password, { hosts: sandbox.hosts });
    return {
      session,
      sandbox,
      description: `logged in as ${account.username} on the embedded sandbox at ${sandbox.url}`,
      close: () => sandbox.close(),
    };
  }
  const file = sessionFile(env);
  const resumed = await resumeSession(file);
  if (resumed) {
    return workbench(resumed, `logged in as ${resumed.username} on ${resumed.siteHost} (saved session)`);
  }
  const username = env.SCRATCH_USERNAME;
  if (username) {
    const password = env.SCRATCH_PASSWORD ?? (await options.askPassword?.(username));
    if (password) {
      const session = await Session.login(username, password);
      await saveSession(session, file);
      return workbench(session, `logged in as ${session.username} on ${session.siteHost}`);
    }
  }
  return workbench(
    new Session(),
    'not logged in (anonymous reads only): set SCRATCH_USERNAME, or use .login',
  );
}

function workbench(session: Session, description: string): Workbench {
  return { session, sandbox: null, description, close: async () => {} };
}
