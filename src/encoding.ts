/**
 * Text as digits, for cloud variables (WIRE.md §7).
 *
 * Cloud variables on the platform only hold digits, so projects that exchange text spell each
 * character as its two-digit index in one fixed table. Projects already in use decode with that
 * table, so the default mode follows it exactly:
 *
 * | codes | characters |
 * |---|---|
 * | 10-19 | `1 2 3 4 5 6 7 8 9 0` |
 * | 20 | space (also what any character outside the table becomes) |
 * | 21-72 | `a A b B … z Z` |
 * | 73-88 | * / . , ! " § $ % _ - ( ´ ) and the backtick, then ? (85 is ´ U+00B4, 86 is ), 87 the backtick, 88 ?) |
 * | 89 | the list separator (the old table's `"new line"` entry): not a character |
 * | 90-99 | `@ # ~ ; : + & \| ^ '` |
 *
 * Codes 00-09 are not in the table. The opt-in lossless mode uses four of them as escapes, so that
 * any string survives the trip while text made only of table characters is spelled exactly as
 * the default mode spells it.
 *
 * @module
 */
import { Buffer } from 'node:buffer';

/** Options of {@link encode}, {@link decode}, {@link encodeList} and {@link decodeList}. */
export interface EncodingOptions {
  /**
   * Lossless mode, for new projects (default `false`). Table characters keep their table codes;
   * any other character is written as an escape pair `0w` followed by its code point in decimal,
   * zero-padded to `2w` digits, with the smallest width that fits:
   *
   * - `01` + 2 digits: code points 0-99 (newline is `0110`, NUL is `0100`);
   * - `02` + 4 digits: up to 9 999 (`é` is `020233`);
   * - `03` + 6 digits: up to 999 999 (`😀` is `03128512`);
   * - `04` + 8 digits: up to U+10FFFF.
   *
   * Every token is an even number of digits, so the list separator `89` is still found at pair
   * boundaries. The unit is the JavaScript string: a lone surrogate is written as its own code
   * (55296-57343) and comes back unchanged, so every string round-trips exactly. A decoder in the
   * default mode rejects the escapes (they are codes 01-04) instead of misreading them.
   */
  lossless?: boolean;
}

/** The list separator (WIRE.md §7 code 89, WIRE.md §8 arrays). */
const SEPARATOR = 89;
const SPACE = 20;
const DIGIT_0 = 48;

/** Characters of the table by code; index 89 and 0-9 stay empty. */
const TABLE: readonly string[] = (() => {
  const table = new Array<string>(100).fill('');
  const put = (first: number, chars: string) => {
    // Each entry is one UTF-16 unit (all of them are below U+0100), so indexing by unit is safe.
    for (let i = 0; i < chars.length; i++) table[first + i] = chars[i]!;
  };
  put(10, '1234567890');
  put(20, ' ');
  let letters = '';
  for (let c = 97; c <= 122; c++) letters += String.fromCharCode(c) + String.fromCharCode(c - 32);
  put(21, letters);
  put(73, '*/.,!"\u00a7$%_-(\u00b4)`?');
  put(90, "@#~;:+&|^'");
  return table;
})();

/** Table code by UTF-16 unit (0: not in the table). Every table character is below U+0100. */
const CODE_OF_UNIT = new Uint8Array(256);
/** UTF-16 unit by table code (0: no character; NUL is not a table character). */
const UNIT_OF_CODE = new Uint16Array(100);
for (let code = 0; code < 100; code++) {
  const ch = TABLE[code]!;
  if (ch === '') continue;
  CODE_OF_UNIT[ch.charCodeAt(0)] = code;
  UNIT_OF_CODE[code] = ch.charCodeAt(0);
}

/** ASCII digit bytes of a code's tens and ones, to write a pair with two stores. */
const TENS = new Uint8Array(100);
const ONES = new Uint8Array(100);
for (let code = 0; code < 100; code++) {
  TENS[code] = DIGIT_0 + Math.floor(code / 10);
  ONES[code] = DIGIT_0 + (code % 10);
}

// Output is built in a reused byte buffer and flushed to string pieces, so memory stays bounded
// however long the text is and no per-character string is ever created.
const ENCODE_CHUNK = 1 << 16;
/** The widest single step writes 10 digits (`04` + 8 digits). */
const MAX_STEP = 10;
let scratch: Buffer | undefined;

function readLossless(options: EncodingOptions | undefined, fn: string): boolean {
  if (options === undefined) return false;
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object like { lossless: true }`);
  }
  const { lossless } = options;
  if (lossless === undefined) return false;
  if (typeof lossless !== 'boolean') throw new TypeError(`${fn}: options.lossless must be a boolean`);
  return lossless;
}

function encodeText(text: string, lossless: boolean): string {
  const n = text.length;
  if (n === 0) return '';
  if (scratch === undefined) scratch = Buffer.allocUnsafe(ENCODE_CHUNK + MAX_STEP);
  const out = scratch;
  const flushAt = ENCODE_CHUNK;
  const parts: string[] = [];
  let o = 0;
  for (let i = 0; i < n; i++) {
    if (o >= flushAt) {
      parts.push(out.toString('latin1', 0, o));
      o = 0;
    }
    const unit = text.charCodeAt(i);
    const code = unit < 256 ? CODE_OF_UNIT[unit]! : 0;
    if (code !== 0) {
      out[o++] = TENS[code]!;
      out[o++] = ONES[code]!;
      continue;
    }
    // Not a table character. A surrogate pair is one character (one code point) in both modes.
    let point = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        point = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (!lossless) {
      out[o++] = TENS[SPACE]!;
      out[o++] = ONES[SPACE]!;
      continue;
    }
    const width = point < 100 ? 1 : point < 10_000 ? 2 : point < 1_000_000 ? 3 : 4;
    out[o++] = DIGIT_0;
    out[o++] = DIGIT_0 + width;
    for (let d = width * 2 - 1; d >= 0; d--) {
      out[o + d] = DIGIT_0 + (point % 10);
      point = Math.floor(point / 10);
    }
    o += width * 2;
  }
  parts.push(out.toString('latin1', 0, o));
  return parts.length === 1 ? parts[0]! : parts.join('');
}

// Decoded UTF-16 units go to a reused buffer and are turned into strings a slice at a time
// (`String.fromCharCode.apply` takes an array-like, but not an unbounded one).
const DECODE_CHUNK = 1 << 13;
const units = new Uint16Array(DECODE_CHUNK + 2);

function unitsToString(count: number): string {
  return String.fromCharCode.apply(null, units.subarray(0, count) as unknown as number[]);
}

function checkDigitString(digits: unknown, fn: string): asserts digits is string {
  if (typeof digits !== 'string') throw new TypeError(`${fn}: digits must be a string, got ${typeof digits}`);
  if (digits.length % 2 !== 0) {
    throw new RangeError(`${fn}: digits must have an even length (pairs of digits), got ${digits.length}`);
  }
}

function badDigit(fn: string, digits: string, at: number): never {
  throw new RangeError(`${fn}: character ${JSON.stringify(digits[at])} at offset ${at} is not a digit 0-9`);
}

/**
 * Reads `digits` (already checked to be a string of even length) into items.
 * `list` false: a separator is an error and exactly one item is returned.
 * `list` true: a separator ends an item; a final item without its separator is kept.
 */
function decodeDigits(digits: string, lossless: boolean, list: boolean, fn: string): string[] {
  const len = digits.length;
  const items: string[] = [];
  let parts: string[] = [];
  let k = 0;
  let i = 0;
  while (i < len) {
    if (k >= DECODE_CHUNK) {
      parts.push(unitsToString(k));
      k = 0;
    }
    const a = digits.charCodeAt(i) - DIGIT_0;
    const b = digits.charCodeAt(i + 1) - DIGIT_0;
    if (a < 0 || a > 9) badDigit(fn, digits, i);
    if (b < 0 || b > 9) badDigit(fn, digits, i + 1);
    const code = a * 10 + b;
    const unit = UNIT_OF_CODE[code]!;
    if (unit !== 0) {
      units[k++] = unit;
      i += 2;
      continue;
    }
    if (code === SEPARATOR) {
      if (!list) {
        throw new RangeError(
          `${fn}: pair "89" at offset ${i} is the list separator, not a character (use decodeList)`,
        );
      }
      if (k > 0) parts.push(unitsToString(k));
      items.push(parts.length === 1 ? parts[0]! : parts.join(''));
      parts = [];
      k = 0;
      i += 2;
      continue;
    }
    if (!lossless || code < 1 || code > 4) {
      const hint = code >= 1 && code <= 4 ? ' (a lossless escape: pass { lossless: true })' : '';
      throw new RangeError(
        `${fn}: pair "${digits.slice(i, i + 2)}" at offset ${i} (pair ${i / 2}) is not a code of the table${hint}`,
      );
    }
    const width = code * 2;
    if (i + 2 + width > len) {
      throw new RangeError(`${fn}: escape "0${code}" at offset ${i} needs ${width} more digits`);
    }
    let point = 0;
    for (let j = i + 2; j < i + 2 + width; j++) {
      const d = digits.charCodeAt(j) - DIGIT_0;
      if (d < 0 || d > 9) badDigit(fn, digits, j);
      point = point * 10 + d;
    }
    if (point > 0x10ffff) {
      throw new RangeError(
        `${fn}: escape at offset ${i} holds ${point}, beyond the last code point U+10FFFF`,
      );
    }
    if (point < 0x10000) {
      units[k++] = point;
    } else {
      const rest = point - 0x10000;
      units[k++] = 0xd800 + (rest >> 10);
      units[k++] = 0xdc00 + (rest & 0x3ff);
    }
    i += 2 + width;
  }
  if (k > 0) parts.push(unitsToString(k));
  // Every token yields at least one unit, so pending parts mean characters after the last
  // separator: in a list that is one more (unterminated) item; outside a list, the whole text.
  if (!list || parts.length > 0) items.push(parts.length === 1 ? parts[0]! : parts.join(''));
  return items;
}

/**
 * Spells `text` as digits: two per character.
 *
 * Default mode: exactly the table of WIRE.md §7; a character outside it (including an emoji,
 * which counts as one character) becomes `20`, like a space.
 * `{ lossless: true }`: every string comes back unchanged from {@link decode} with the same
 * option; see {@link EncodingOptions.lossless} for the escapes.
 *
 * @example encode('Hello, World!') === '36294343497620664955432777'
 * @throws TypeError if `text` is not a string or the options are malformed.
 */
export function encode(text: string, options?: EncodingOptions): string {
  const lossless = readLossless(options, 'encode');
  if (typeof text !== 'string') throw new TypeError(`encode: text must be a string, got ${typeof text}`);
  return encodeText(text, lossless);
}

/**
 * Reads digits written by {@link encode} back into text.
 *
 * The separator `89` is refused here (it is not a character): lists go through
 * {@link decodeList}.
 *
 * @throws TypeError if `digits` is not a string; RangeError for an odd length, a non-digit, a
 * pair that is not a code of the table (00-09, or 89), or, in lossless mode, a cut or
 * out-of-range escape. The message names the offset.
 */
export function decode(digits: string, options?: EncodingOptions): string {
  const lossless = readLossless(options, 'decode');
  checkDigitString(digits, 'decode');
  return decodeDigits(digits, lossless, false, 'decode')[0]!;
}

/**
 * Spells a list of strings as digits: each item encoded and followed by the separator `89`,
 * the last item too (the array answers of WIRE.md §8). `[]` gives `''`; `['']` gives `'89'`.
 *
 * @throws TypeError if `items` is not an array of strings.
 */
export function encodeList(items: readonly string[], options?: EncodingOptions): string {
  const lossless = readLossless(options, 'encodeList');
  if (!Array.isArray(items)) throw new TypeError('encodeList: items must be an array of strings');
  const out: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item: unknown = items[i];
    if (typeof item !== 'string') {
      throw new TypeError(`encodeList: item ${i} must be a string, got ${typeof item}`);
    }
    out.push(encodeText(item, lossless), '89');
  }
  return out.join('');
}

/**
 * Reads digits written by {@link encodeList}: the separator `89`, found at pair boundaries
 * (never inside a lossless escape), ends each item. A final item that lacks its separator is
 * still returned, so `decodeList('3537')` and `decodeList('353789')` both give `['hi']`;
 * `''` gives `[]`.
 *
 * @throws the errors of {@link decode}, except that `89` is allowed.
 */
export function decodeList(digits: string, options?: EncodingOptions): string[] {
  const lossless = readLossless(options, 'decodeList');
  checkDigitString(digits, 'decodeList');
  return decodeDigits(digits, lossless, true, 'decodeList');
}

/**
 * The encoding functions in one object, under the names the Python library used
 * (`Encoding.encode`, `Encoding.decode`), plus the list helpers.
 */
export const Encoding = Object.freeze({ encode, decode, encodeList, decodeList });
