/**
 * Argument checks for the public API. Caller mistakes are `TypeError` (wrong kind of value)
 * or `RangeError` (right kind, out of bounds), and the message names the argument.
 */

export function assertString(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, got ${describe(value)}`);
}

export function assertNonEmptyString(value: unknown, name: string): asserts value is string {
  assertString(value, name);
  if (value.trim() === '') throw new RangeError(`${name} must not be empty`);
}

/** Usernames on the platform: up to 20 letters, digits, `_` and `-` (some old accounts are shorter than 3). */
const USERNAME = /^[A-Za-z0-9_-]{1,20}$/;

/** Checks a username against the platform's rule. */
export function assertUsername(value: unknown, name = 'username'): asserts value is string {
  assertNonEmptyString(value, name);
  if (!USERNAME.test(value)) {
    throw new RangeError(`${name} is not a valid Scratch username: ${JSON.stringify(value)}`);
  }
}

/** Accepts a positive integer id, or a string of digits (as ids come from URLs). */
export function toId(value: unknown, name: string): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
    throw new TypeError(`${name} must be a positive integer id, got ${describe(value)}`);
  }
  if (id <= 0) throw new RangeError(`${name} must be a positive integer id, got ${id}`);
  return id;
}

/**
 * Checks a whole number between `min` and `max`; answers it. Messages read as a person would say
 * them: "limit must be at least 1", "limit must be a whole number, got 2.5".
 */
export function assertInteger(
  value: unknown,
  name: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`${name} must be a whole number, got ${describe(value)}`);
  }
  if (value < min || value > max) throw new RangeError(`${name} ${bounds(min, max)}, got ${value}`);
  return value;
}

/** "must be at least 1", "must be at most 40", "must be between 1 and 40". */
function bounds(min: number, max: number): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  if (max >= Number.MAX_SAFE_INTEGER) return `must be at least ${fmt(min)}`;
  if (min <= Number.MIN_SAFE_INTEGER) return `must be at most ${fmt(max)}`;
  return `must be between ${fmt(min)} and ${fmt(max)}`;
}

export function assertFunction(value: unknown, name: string): void {
  if (typeof value !== 'function') throw new TypeError(`${name} must be a function, got ${describe(value)}`);
}

export function assertObject(value: unknown, name: string): asserts value is object {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${name} must be an object, got ${describe(value)}`);
  }
}

/** Language codes as the platform writes them: `en`, `pt-br`, `zh-cn`, `es-419`. */
export function assertLanguage(value: unknown, name = 'language'): asserts value is string {
  assertString(value, name);
  if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,4})?$/.test(value)) {
    throw new RangeError(
      `${name} must be a language code such as "en" or "es-419", got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * Checks a base URL and its protocol; answers it without trailing slashes so paths can be
 * appended with a single `/`.
 */
export function assertBaseUrl(value: unknown, name: string, protocols: readonly string[]): string {
  assertNonEmptyString(value, name);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${name} is not a valid URL: ${JSON.stringify(value)}`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new TypeError(`${name} must use ${protocols.join(' or ')}, got ${url.protocol}`);
  }
  return value.replace(/\/+$/, '');
}

/** A short description of a value for error messages (never its full content). */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? 'a long string' : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * The longest wait a timer keeps, in seconds (2^31 - 1 ms, about 24.8 days): Node fires a longer
 * `setTimeout` after 1 ms, so a period past it would run in a tight loop.
 */
export const MAX_TIMER_SECONDS = 2_147_483;

/** The longest delay `setTimeout` keeps, in ms (a longer one fires after 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Checks a duration in seconds: a finite number, at least `min` (default 0) and at most `max`
 * (default unbounded; {@link MAX_TIMER_SECONDS} for the period of a timer). Answers it.
 */
export function assertSeconds(value: unknown, name: string, min = 0, max = Number.POSITIVE_INFINITY): number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new TypeError(`${name} must be a number of seconds, got ${describe(value)}`);
  }
  if (!Number.isFinite(value) || value < min) {
    throw new RangeError(`${name} must be a finite number of seconds, at least ${min}, got ${value}`);
  }
  if (value > max) {
    const why = max === MAX_TIMER_SECONDS ? ' (about 24.8 days, the longest wait a timer keeps)' : '';
    throw new RangeError(`${name} must be at most ${max} seconds${why}, got ${value}`);
  }
  return value;
}

/** Checks a boolean option. Answers it. */
export function assertBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be a boolean, got ${describe(value)}`);
  return value;
}

/** True for a platform username: the rule of {@link assertUsername}, as a test (for servers that refuse instead of throwing). */
export function isUsername(value: unknown): value is string {
  return typeof value === 'string' && USERNAME.test(value);
}

/**
 * A `dateLimit` of the activity lists: ISO-8601 with milliseconds and `Z`
 * (`2025-05-27T05:15:56.000Z`), from a `Date` or a date string.
 * @throws TypeError when it is neither; RangeError when it is not a valid date
 */
export function toDateLimit(value: unknown, name = 'dateLimit'): string {
  if (!(value instanceof Date) && typeof value !== 'string') {
    throw new TypeError(`${name} must be a Date or an ISO date string, got ${describe(value)}`);
  }
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`${name} is not a valid date: ${describe(value)}`);
  return new Date(ms).toISOString();
}
