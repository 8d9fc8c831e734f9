/**
 * Names and values of cloud variables (WIRE.md §5): the `☁ ` prefix on the wire, and the checks a
 * value passes before it is sent. The sandbox's server uses the same rules to drop invalid sets.
 */
import { describe } from '../records/validate.js';

/** The prefix of every cloud variable's name on the wire: U+2601 and a space. */
export const CLOUD_PREFIX = '\u2601 ';

/** The platform's length limit for a value. */
export const PLATFORM_LENGTH_LIMIT = 256;
/** The alternate server's length limit for a value. */
export const ALTERNATE_LENGTH_LIMIT = 100_000;

// Digits with an optional leading `-` and at most one `.`; at least one digit somewhere.
const NUMERIC = /^-?(?:\d+\.?\d*|\.\d+)$/;

/** True when a text holds line breaks or other control characters (C0 or DEL). */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** True for a value the platform accepts as a number: `12`, `-3.5`, `.5`, `7.`. */
export function isNumericValue(text: string): boolean {
  return NUMERIC.test(text);
}

/**
 * A finite number written out in full, as the numeric rule wants it: never in exponent form.
 * `1e21` gives `"1000000000000000000000"`, `1e-7` gives `"0.0000001"`; other numbers read as
 * `String()` writes them. (`String()` switches to an exponent from 1e21 up and below 1e-6.)
 */
export function numberText(value: number): string {
  if (Number.isInteger(value)) {
    // Safe integers as `String()` writes them (`-0` as `"0"`); larger ones digit for digit.
    return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
  }
  const text = String(value);
  const e = text.indexOf('e');
  if (e === -1) return text;
  // Only fractions below 1e-6 get here (every double from 2^53 up is an integer): move the
  // point left by the exponent, keeping the shortest digits `String()` chose.
  const sign = text.startsWith('-') ? '-' : '';
  const digits = text.slice(sign.length, e).replace('.', '');
  const exponent = Number(text.slice(e + 1));
  return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
}

/** The API's name (without prefix) for a name as it came from the wire or from a caller. */
export function stripPrefix(name: string): string {
  return name.startsWith(CLOUD_PREFIX) ? name.slice(CLOUD_PREFIX.length) : name;
}

/** The wire name for an API name: the prefix added once (a caller may already have included it). */
export function toWireName(name: string): string {
  return CLOUD_PREFIX + stripPrefix(name);
}

/**
 * Checks a variable name from the caller and returns it without the prefix.
 * @throws TypeError when it is not a string; RangeError when empty or holding control characters.
 */
export function checkName(name: unknown, argument = 'name'): string {
  if (typeof name !== 'string') throw new TypeError(`${argument} must be a string, got ${describe(name)}`);
  const bare = stripPrefix(name);
  if (bare.length === 0)
    throw new RangeError(`${argument} must not be empty (the "☁ " prefix is added for you)`);
  // Line breaks and other control characters make names unreadable in logs and projects.
  if (hasControlCharacters(bare))
    throw new RangeError(`${argument} must not contain line breaks or control characters`);
  return bare;
}

/** The rules a value is checked against. */
interface ValueRules {
  /** Allow any text, not just numbers. */
  allowNonNumeric: boolean;
  /** At most this many characters. */
  lengthLimit: number;
}

/**
 * Checks a value and returns its wire text. A number is written out in full ({@link numberText}),
 * so `1e21` and `1e-7` pass the numeric rule like any other number (within `lengthLimit`).
 * @throws TypeError for a value that is not a string or number, or not numeric when it must be;
 *   RangeError for NaN, an infinite number, or a value longer than `lengthLimit`.
 */
export function checkValue(value: unknown, rules: ValueRules, argument = 'value'): string {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${argument} must be a finite number, got ${value}`);
    text = numberText(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    throw new TypeError(`${argument} must be a string or a number, got ${describe(value)}`);
  }
  if (!rules.allowNonNumeric && !isNumericValue(text)) {
    throw new TypeError(
      `${argument} must be numeric (digits, an optional leading "-" and at most one "."), got ${describe(text)}: ` +
        'encode text with encode() first, or pass allowNonNumeric: true for a server that accepts text',
    );
  }
  if (text.length > rules.lengthLimit) {
    throw new RangeError(`${argument} is ${text.length} characters long; the limit is ${rules.lengthLimit}`);
  }
  return text;
}
