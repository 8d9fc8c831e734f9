/**
 * A named key-value store of strings: what the cloud storage host serves (WIRE.md §9).
 *
 * Every adapter follows the same rules, so a project can move from one to another without
 * surprises:
 *
 * - a key is a non-empty string of at most {@link MAX_KEY_LENGTH} characters (code points);
 * - a value is a string; a finite number is accepted and stored as `String(n)`, so `get` always
 *   gives strings back;
 * - keys and values must be well-formed Unicode (no lone surrogates) without NUL (`\u0000`),
 *   because PostgreSQL cannot store NUL and SQL drivers silently replace lone surrogates;
 * - `keys()` lists the keys sorted in JavaScript's default string order.
 *
 * Bad input is refused with a `TypeError` (wrong type) or a `RangeError` (wrong content); the
 * promise rejects and nothing is stored.
 */
export interface Database {
  /** The name the storage host serves this database under. */
  readonly name: string;
  /** The value stored under `key`, or `undefined` when there is none. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key`, replacing any previous value; resolves once it is stored. */
  set(key: string, value: string | number): Promise<void>;
  /** Every key, sorted in JavaScript's default string order. */
  keys(): Promise<string[]>;
}

/**
 * The longest key, in characters (code points). MySQL and MariaDB cannot index an unbounded
 * key column, so the SQL tables bound it; every adapter applies the same limit.
 */
export const MAX_KEY_LENGTH = 255;
