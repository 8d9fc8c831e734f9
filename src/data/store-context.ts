/** What the parts of the store share: the DuckDB module, the one connection, and its turn-taking. */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DuckDB } from './duckdb-module.js';
import type { Serial } from './serial.js';

export interface StoreContext {
  duck: DuckDB;
  connection: DuckDBConnection;
  /** Every use of `connection` runs through it: transactions never interleave. */
  serial: Serial;
  /** A connection of its own (a load's transaction must not hold up queries): the caller closes it. */
  connect(): Promise<DuckDBConnection>;
}
