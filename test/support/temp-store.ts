// A store in a fresh folder for one test file, opened before its tests and removed after them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openStore, type Store } from '../../src/data/index.js';

/** What {@link useTempStore} gives: the open store (after `beforeAll`), and its folder. */
export interface TempStore {
  readonly store: Store;
  readonly dir: string;
  /** The columns of `table` and their DuckDB types, by name. */
  typesOf(table: string): Promise<Record<string, unknown>>;
}

/** Opens `<tmp>/<prefix>…/test.duckdb` before the file's tests; closes and removes it after them. */
export function useTempStore(prefix: string): TempStore {
  let store: Store | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    store = await openStore(join(dir, 'test.duckdb'));
  });
  afterAll(async () => {
    await store?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the store opens in beforeAll: use it inside a test');
    return value;
  };
  return {
    get store() {
      return ready(store);
    },
    get dir() {
      return ready(dir);
    },
    async typesOf(table) {
      const rows = await ready(store).query(
        'select column_name, data_type from information_schema.columns where table_name = $1',
        [table],
      );
      return Object.fromEntries(rows.map((row) => [row.column_name, row.data_type]));
    },
  };
}
