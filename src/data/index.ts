/**
 * `scratchlab/data`: a DuckDB store for platform data. Needs `@duckdb/node-api` installed beside
 * scratchlab (`npm install @duckdb/node-api`).
 *
 * ```ts
 * import { openStore } from 'scratchlab/data';
 * const store = await openStore('scratch.duckdb');
 * await store.load('projects', session.studios.projects(studioId), { onProgress: console.log });
 * const rows = await store.sql`select "author.username", count(*) from projects group by 1`;
 * await store.export('projects', 'projects.parquet');
 * await store.exportQuery('select * from projects where views > $1', 'popular.csv', { params: [100] });
 * ```
 */
export {
  CloudRecorder,
  type CloudRecorderEvents,
  FLUSH_MS,
  type RecordCloudOptions,
  type RecorderCounts,
} from './cloud-recorder.js';
export type { ColumnType, ScalarType } from './column-types.js';
export { defaultStore, defaultStorePath } from './default-store.js';
export { INSTALL_COMMAND, MissingDuckDBError } from './duckdb-module.js';
export type { ExportOptions, FileFormat, ImportResult } from './file-copy.js';
export { DEFAULT_EVERY, isLiveQuery, LiveQuery, type LiveQueryOptions } from './live-query.js';
export type { LoadOptions, LoadProgress, LoadResult } from './load.js';
export { ColumnCaseError, ColumnTypeError } from './load-errors.js';
export type { LoadSource } from './load-sources.js';
export type { SqlValue } from './query-values.js';
export { RecorderBusyError } from './recorder-claim.js';
export { type FileHolder, StoreBusyError } from './shared-file.js';
export {
  DEFAULT_MAX_ROWS,
  DEFAULT_WAIT,
  openStore,
  type QueryOptions,
  type QueryRow,
  Store,
  type StoreOptions,
  type TableInfo,
} from './store.js';
