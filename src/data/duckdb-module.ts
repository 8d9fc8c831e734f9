/**
 * `@duckdb/node-api`, loaded on first use: it is an optional peer dependency (about 70 MB), so
 * the SDK installs without it and only the data store asks for it, with the command that adds it.
 */
export type DuckDB = typeof import('@duckdb/node-api');

/** The command that installs the store's database. */
export const INSTALL_COMMAND = 'npm install @duckdb/node-api';

let loading: Promise<DuckDB> | undefined;

/** Thrown when the data store is used without `@duckdb/node-api` installed. */
export class MissingDuckDBError extends Error {
  constructor(cause: unknown) {
    super(
      `scratchlab/data needs DuckDB's Node client, which is not installed: run \`${INSTALL_COMMAND}\` beside scratchlab`,
      { cause },
    );
    this.name = 'MissingDuckDBError';
  }
}

/** The DuckDB module; rejects with {@link MissingDuckDBError} when it is not installed. */
export function loadDuckDB(): Promise<DuckDB> {
  loading ??= import('@duckdb/node-api').catch((error: unknown) => {
    loading = undefined;
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new MissingDuckDBError(error);
    throw error;
  });
  return loading;
}
