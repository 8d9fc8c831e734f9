/**
 * Checks shared by every `Database` adapter, so they all accept and refuse the same
 * keys and values.
 *
 * @internal
 */
import { MAX_KEY_LENGTH } from './database.js';

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function checkText(text: string, what: string): void {
  if (text.includes('\u0000')) throw new RangeError(`${what} must not contain NUL (\\u0000)`);
  if (LONE_SURROGATE.test(text)) {
    throw new RangeError(`${what} must be well-formed Unicode (it holds a lone surrogate)`);
  }
}

/**
 * Refuses anything that is not a usable key (see `Database`).
 *
 * @throws TypeError if `key` is not a string; RangeError if it is empty, too long, or holds NUL
 * or a lone surrogate.
 */
export function checkKey(key: unknown, owner: string): asserts key is string {
  if (typeof key !== 'string') throw new TypeError(`${owner}: key must be a string, got ${typeof key}`);
  if (key.length === 0) throw new RangeError(`${owner}: key must not be empty`);
  // Count code points, as MySQL counts characters; only long strings need the exact count.
  if (key.length > MAX_KEY_LENGTH) {
    let points = 0;
    for (const _ of key) points++;
    if (points > MAX_KEY_LENGTH) {
      throw new RangeError(`${owner}: key is ${points} characters long; the limit is ${MAX_KEY_LENGTH}`);
    }
  }
  checkText(key, `${owner}: key`);
}

/**
 * Turns an accepted value into the string to store.
 *
 * @throws TypeError if `value` is neither a string nor a number; RangeError for a non-finite
 * number, NUL or a lone surrogate.
 */
export function toStoredValue(value: unknown, owner: string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new RangeError(`${owner}: value must be a finite number, got ${value}`);
    return String(value);
  }
  if (typeof value !== 'string') {
    throw new TypeError(`${owner}: value must be a string (or a finite number), got ${typeof value}`);
  }
  checkText(value, `${owner}: value`);
  return value;
}

/**
 * Checks a database name given to a constructor.
 *
 * @throws TypeError if it is not a string; RangeError if it is empty.
 */
export function checkName(name: unknown, owner: string): asserts name is string {
  if (typeof name !== 'string') throw new TypeError(`${owner}: name must be a string, got ${typeof name}`);
  if (name.length === 0) throw new RangeError(`${owner}: name must not be empty`);
}

/** Keys in the order every adapter promises. */
export function sortedKeys(keys: Iterable<string>): string[] {
  return [...keys].sort();
}
