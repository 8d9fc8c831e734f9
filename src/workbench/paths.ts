/**
 * Where the REPL and the kernel keep their files, following the XDG base directories:
 * config (the saved session) under `$XDG_CONFIG_HOME/scratchlab`, state (REPL history) under
 * `$XDG_STATE_HOME/scratchlab`, each falling back to the usual folder under `$HOME`.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

function home(env: Env): string {
  return env.HOME || homedir();
}

/** `$XDG_CONFIG_HOME/scratchlab` (default `~/.config/scratchlab`). */
export function configDir(env: Env = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(home(env), '.config'), 'scratchlab');
}

/** `$XDG_STATE_HOME/scratchlab` (default `~/.local/state/scratchlab`). */
export function stateDir(env: Env = process.env): string {
  return join(env.XDG_STATE_HOME || join(home(env), '.local', 'state'), 'scratchlab');
}

/** The saved session (a serialized cookie jar, never a password), mode 0600. */
export function sessionFile(env: Env = process.env): string {
  return join(configDir(env), 'session.json');
}

/** The REPL's history. */
export function historyFile(env: Env = process.env): string {
  return join(stateDir(env), 'repl_history');
}
