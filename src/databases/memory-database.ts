import type { Database } from './database.js';
import { checkKey, checkName, sortedKeys, toStoredValue } from './validation.js';

/** Options of {@link MemoryDatabase}. */
export interface MemoryDatabaseOptions {
  /** The name served to projects (default `default`). */
  name?: string;
}

/**
 * A database held in this process's memory: fast, and gone when the process ends. Good for
 * tests and for data that may be lost.
 */
export class MemoryDatabase implements Database {
  /** The name served to projects. */
  readonly name: string;
  readonly #data = new Map<string, string>();

  /**
   * @throws TypeError or RangeError for a malformed name.
   */
  constructor(options: MemoryDatabaseOptions = {}) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError('MemoryDatabase: options must be an object like { name }');
    }
    const name = options.name ?? 'default';
    checkName(name, 'MemoryDatabase');
    this.name = name;
  }

  /** The value under `key`, or `undefined`. */
  async get(key: string): Promise<string | undefined> {
    checkKey(key, 'MemoryDatabase.get');
    return this.#data.get(key);
  }

  /** Stores `value` (a number is stored as its string) under `key`. */
  async set(key: string, value: string | number): Promise<void> {
    checkKey(key, 'MemoryDatabase.set');
    this.#data.set(key, toStoredValue(value, 'MemoryDatabase.set'));
  }

  /** Every key, sorted. */
  async keys(): Promise<string[]> {
    return sortedKeys(this.#data.keys());
  }
}
