/**
 * The store the REPL and the kernel preload as `store` (and its tagged template as `sql`): the
 * file named by `SCRATCHLAB_DB`, else `scratchlab.duckdb` in the working folder, opened on first
 * use, so a session that never queries creates no file and never loads DuckDB.
 */
import { resolve } from 'node:path';
import { Store } from './store.js';

/** The file of the front ends' store. */
export function defaultStorePath(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): string {
  const named = env.SCRATCHLAB_DB;
  if (named === ':memory:') return named;
  return resolve(cwd, named && named.trim() !== '' ? named : 'scratchlab.duckdb');
}

/** The front ends' store (see the file's comment). */
export function defaultStore(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): Store {
  return new Store(defaultStorePath(env, cwd));
}
