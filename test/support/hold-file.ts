/**
 * Holds a DuckDB file the way another process would (DuckDB's own lock, taken by opening it), for
 * tests of what waits for it: tries the open until it gets it (a bound that fails), answers the
 * release.
 */
import { DuckDBInstance } from '@duckdb/node-api';

export async function holdFile(file: string, limitMs = 30_000): Promise<() => void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    try {
      const instance = await DuckDBInstance.create(file);
      return () => instance.closeSync();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}
