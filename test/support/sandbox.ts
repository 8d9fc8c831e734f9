/**
 * Starts one sandbox per test file over loopback and hands out sessions against it.
 * Tests talk to it through the real client: undici, tough-cookie, ws.
 */
import { afterAll, beforeAll } from 'vitest';
import { Session, type SessionOptions } from '../../src/index.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

export interface SandboxFixture {
  /** The running sandbox (set in beforeAll). */
  readonly sandbox: Sandbox;
  /** An anonymous session pointed at the sandbox (budget {@link SUITE_SESSION_BUDGET} unless given). */
  anonymous(options?: SessionOptions): Session;
  /** A session logged in as demo account `index` (0 = the main demo user). */
  login(index?: number, options?: SessionOptions): Promise<Session>;
}

/**
 * The suite's sandboxes keep an HTTP rate limit, as the platform does, so that every HTTP test
 * also checks that the client keeps to one. It is faster than the platform's 10 a second to keep
 * the suite short; the tests of the request budget itself run at the platform's rate.
 */
export const SUITE_RATE_LIMIT = { perSecond: 50, burst: 50 } as const;
/** The request budget of the fixture's sessions: within {@link SUITE_RATE_LIMIT}, with room for a second session. */
export const SUITE_SESSION_BUDGET = { perSecond: 40, burst: 20 } as const;

/**
 * Registers beforeAll/afterAll hooks that run a sandbox for the current file, with
 * {@link SUITE_RATE_LIMIT} unless `options.rateLimit` says otherwise.
 */
export function useSandbox(options: SandboxOptions = {}): SandboxFixture {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox({ rateLimit: SUITE_RATE_LIMIT, ...options });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  const fixture: SandboxFixture = {
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox is not started yet (use it inside tests)');
      return sandbox;
    },
    anonymous: (sessionOptions = {}) =>
      new Session({ rateLimit: SUITE_SESSION_BUDGET, ...sessionOptions, hosts: fixture.sandbox.hosts }),
    login: async (index = 0, sessionOptions = {}) => {
      const account = fixture.sandbox.accounts[index];
      if (!account) throw new Error(`the sandbox has no demo account ${index}`);
      return Session.login(account.username, account.password, {
        rateLimit: SUITE_SESSION_BUDGET,
        ...sessionOptions,
        hosts: fixture.sandbox.hosts,
      });
    },
  };
  return fixture;
}

/** The environment `recorder-child.ts` logs in with: the sandbox's hosts and its second demo account. */
export function recorderChildEnv(sandbox: Sandbox): NodeJS.ProcessEnv {
  const account = sandbox.accounts[1]!;
  return {
    ...process.env,
    SANDBOX_HOSTS: JSON.stringify(sandbox.hosts),
    SANDBOX_USER: account.username,
    SANDBOX_PASSWORD: account.password,
  };
}
