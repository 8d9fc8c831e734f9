/**
 * `scratchlab repl [--sandbox]`: arguments → a running REPL. Loaded by `src/cli.ts` only when the
 * REPL is asked for.
 */
import { parseArgs } from 'node:util';
import { openSession } from './session/open-session.js';
import { processTerminal } from './terminal/terminal.js';

const HELP = `Usage: scratchlab repl [--sandbox]

A TypeScript REPL with a logged-in scratchlab Session.

Options:
  --sandbox   start the embedded sandbox in this process and log in its demo account
  -h, --help  show this help

Without --sandbox it uses the real site: the saved session if there is one, else a login from
SCRATCH_USERNAME and SCRATCH_PASSWORD (or a hidden prompt), which is then saved.
`;

/** Runs the REPL until it exits. */
export async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { sandbox: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const env = process.env;
  const terminal = processTerminal(env);
  const open = () => openSession({ sandbox: values.sandbox === true, env, terminal });
  // A password asked for must be typed before the prompt shows; otherwise the session (a sandbox
  // to seed, a saved login to check) opens in the background while the user types.
  const asksPassword =
    values.sandbox !== true &&
    Boolean(env.SCRATCH_USERNAME) &&
    !env.SCRATCH_PASSWORD &&
    terminal.prompt !== null;
  const loading = import('./start-repl.js');
  loading.catch(() => undefined); // awaited below
  // (openSession reports a failed login and goes on anonymous: on the real site it never rejects.)
  const workbench = asksPassword ? Promise.resolve(await open()) : open;
  const { startRepl } = await loading;
  const { closed } = await startRepl({ env, sandbox: values.sandbox === true, workbench });
  await closed;
  // Keep-alive sockets to the site (or a stray timer at the prompt) must not keep the process up
  // after the user asked to leave; the history file gets a moment to be written first.
  setTimeout(() => process.exit(), 200).unref();
}
