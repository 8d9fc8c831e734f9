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
  /** An anonymous session pointed at the sandbox. */
  anonymous(options?: SessionOptions): Session;
  /** A session logged in as demo account `index` (0 = the main demo user). */
  login(index?: number, options?: SessionOptions): Promise<Session>;
}

/** Registers beforeAll/afterAll hooks that run a sandbox for the current file. */
export function useSandbox(options: SandboxOptions = {}): SandboxFixture {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    sandbox = await startSandbox(options);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  const fixture: SandboxFixture = {
    get sandbox() {
      if (!sandbox) throw new Error('the sandbox is not started yet (use it inside tests)');
      return sandbox;
    },
    anonymous: (sessionOptions = {}) => new Session({ ...sessionOptions, hosts: fixture.sandbox.hosts }),
    login: async (index = 0, sessionOptions = {}) => {
      const account = fixture.sandbox.accounts[index];
      if (!account) throw new Error(`the sandbox has no demo account ${index}`);
      return Session.login(account.username, account.password, {
        ...sessionOptions,
        hosts: fixture.sandbox.hosts,
      });
    },
  };
  return fixture;
}
