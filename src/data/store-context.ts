/** A database a load writes into on a connection of its own (the load's staging file). */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { DuckDB } from './duckdb-module.js';

export interface StoreContext {
  duck: DuckDB;
  /** A connection of its own (a load's transaction spans its batches): the caller closes it. */
  connect(): Promise<DuckDBConnection>;
}
