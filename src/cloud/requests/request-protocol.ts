/**
 * The cloud requests protocol of WIRE.md §8 as pure functions: reading the request variable,
 * encoding answers, cutting them into packets, and request ids. Nothing here touches a socket.
 *
 * ## The request variable (`☁ TO_HOST`)
 *
 * A request is `encode("name&arg1&arg2…")` (WIRE.md §7). A short one is sent whole as
 * `payload + "." + rid`; a long one in pieces, `"-" + piece + "." + rid` for every piece but the
 * last, then the last piece without the `-`. The rid (request id) is chosen by the project: a
 * random 10001-99999 followed by `0`.
 *
 * ## The response variables (`☁ FROM_HOST_1` … `☁ FROM_HOST_9`)
 *
 * The answer's digits are cut into packets of `lengthLimit - (len(rid) + 6)` digits. With `k`
 * counting from 1:
 *
 * | packet | value |
 * |---|---|
 * | k, not the last | `digits + "." + rid + kkk + "1"` (`kkk`: k on three digits) |
 * | the last | `digits + "." + rid + marker + "222"` |
 *
 * The marker is `3` for a raw answer (an integer without `-`, sent as its own digits, only when
 * the rid ends in `0`) and `2` for an encoded one. The vectors of WIRE.md §8 pin this order: the
 * push of `hi` is `3537.10000000055692222`, i.e. `encode("hi")` = `3537`, `.`, the push id
 * `1000000005569` (`100000000` and four random digits), then the marker `2`, then `222`. So the
 * marker sits right after the rid and `222` closes the value; both kinds of packet end with four
 * characters after the rid (`kkk1` or `m222`), which is why a packet holds at most
 * `lengthLimit - (len(rid) + 6)` digits: 1 for the `.`, 4 for the tail, 1 to spare.
 *
 * @module
 */
import { decode, type EncodingOptions, encode, encodeList } from '../../encoding.js';
import { describe } from '../../records/validate.js';
import { numberText } from '../cloud-values.js';

/** What separates the request name and its arguments in a decoded request. */
export const ARGUMENT_SEPARATOR = '&';
/** The marker of an answer sent as its own digits (a non-negative integer). */
export const MARKER_RAW = '3';
/** The marker of an encoded answer (text, a list, or any other number). */
export const MARKER_ENCODED = '2';
/** The marker of an answer: raw `3` or encoded `2`. */
export type ResponseMarker = typeof MARKER_RAW | typeof MARKER_ENCODED;
/** What closes the last packet of an answer, after its marker. */
export const LAST_PACKET_TAIL = '222';
/** What closes every packet that is not the last, after its three-digit index. */
export const PACKET_TAIL = '1';
/** The first nine digits of a push id (an answer nobody asked for). */
export const PUSH_ID_PREFIX = '100000000';
/** The most packets one answer may take: the index `kkk` of the packets before the last has three digits. */
export const MAX_PACKETS = 1000;
/** Characters of a packet that are not answer digits, besides the rid: `.`, the 4-character tail, 1 spare. */
export const PACKET_OVERHEAD = 6;
/** The longest request payload the project sends in one piece (WIRE.md §8: "under 245 digits"). */
export const SHORT_REQUEST_DIGITS = 244;

/** What an encoded empty string is sent as: the encoding of `-` (WIRE.md §8). */
const EMPTY_TEXT = '-';
const REQUEST_VALUE = /^(-?)(\d*)\.(\d+)$/;
const DIGITS = /^\d+$/;

/** One value of the request variable, read. */
export interface RequestPiece {
  /** The request id. */
  readonly rid: string;
  /** The payload digits this value carries (all of them for a short request). */
  readonly digits: string;
  /** False for a piece sent with a leading `-`: more pieces of the same rid follow. */
  readonly last: boolean;
}

/**
 * Reads one value of the request variable: `[-]digits.rid`. Anything else (a value some other
 * script left there, a number without a rid) gives `null`.
 */
export function parseRequestValue(value: string): RequestPiece | null {
  if (typeof value !== 'string') return null;
  const match = REQUEST_VALUE.exec(value);
  if (match === null) return null;
  return { rid: match[3]!, digits: match[2]!, last: match[1] === '' };
}

/** A request, decoded: its name and its arguments (possibly none). */
export interface DecodedRequest {
  readonly name: string;
  readonly args: string[];
}

/**
 * Decodes a whole request payload (all pieces joined) into its name and arguments: the text is
 * split on every `&`, so an argument cannot hold a `&` (the project's template works the same way).
 * `encode("ping")` gives `{ name: 'ping', args: [] }`.
 *
 * @throws RangeError for digits that are not an encoding (odd length, a code not in the table)
 */
export function decodeRequest(digits: string, options?: EncodingOptions): DecodedRequest {
  const text = decode(digits, options);
  const [name, ...args] = text.split(ARGUMENT_SEPARATOR);
  return { name: name!, args };
}

/**
 * The payload of a request, as a project sends it: `encode("name&arg1&arg2…")`. For tests and
 * for bots that call another host.
 *
 * @throws TypeError if the name or an argument is not a string; RangeError if one holds a `&`
 */
export function encodeRequest(name: string, args: readonly string[] = [], options?: EncodingOptions): string {
  checkRequestName(name, 'encodeRequest: name');
  if (!Array.isArray(args)) throw new TypeError('encodeRequest: args must be an array of strings');
  args.forEach((arg: unknown, i) => {
    if (typeof arg !== 'string')
      throw new TypeError(`encodeRequest: args[${i}] must be a string, got ${typeof arg}`);
    if (arg.includes(ARGUMENT_SEPARATOR)) {
      throw new RangeError(`encodeRequest: args[${i}] must not contain "&" (it separates the arguments)`);
    }
  });
  return encode([name, ...args].join(ARGUMENT_SEPARATOR), options);
}

/**
 * Checks a request name: a non-empty string without `&`.
 * @throws TypeError if it is not a string; RangeError if it is empty or holds a `&`
 */
export function checkRequestName(name: unknown, argument = 'name'): asserts name is string {
  if (typeof name !== 'string') throw new TypeError(`${argument} must be a string, got ${typeof name}`);
  if (name.length === 0) throw new RangeError(`${argument} must not be empty`);
  if (name.includes(ARGUMENT_SEPARATOR)) {
    throw new RangeError(
      `${argument} must not contain "&" (it separates a request's arguments): ${JSON.stringify(name)}`,
    );
  }
}

/** What a handler may answer: text, a number, a list of texts (numbers in it become text), or nothing. */
export type ResponseValue = string | number | readonly (string | number)[] | null | undefined;

/** An answer ready to be cut into packets. */
export interface EncodedResponse {
  /** The digits the project reads (raw or encoded). */
  readonly digits: string;
  /** `3` (raw) or `2` (encoded). */
  readonly marker: ResponseMarker;
}

/** True when a rid lets the answer go raw: it ends in `0` (the template's own rids always do). */
export function acceptsRaw(rid: string): boolean {
  return rid.endsWith('0');
}

/**
 * Encodes an answer (WIRE.md §8):
 *
 * - a non-negative integer `number` answers a rid ending in `0` raw (marker `3`), as its own
 *   digits (`1e21` is written out in full);
 * - everything else is encoded (marker `2`): a negative or non-integer number as its text
 *   (`2.5`, `-3`; `NaN` and `Infinity` too, as text), a string as is with `""` sent as the
 *   encoding of `-`, a list as each item encoded followed by `89` (the last too; `[]` gives no digits);
 * - `undefined` and `null` (a handler that returned nothing) answer like `""`.
 *
 * A string of digits is text, so it goes encoded: the project decodes it back to the same text.
 *
 * @throws TypeError for any other value (a boolean, an object, a list item that is not a string or number)
 */
export function encodeResponse(
  value: ResponseValue,
  rid: string,
  options?: EncodingOptions,
): EncodedResponse {
  if (value === undefined || value === null) value = '';
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 0 && acceptsRaw(rid)) {
      return { digits: numberText(value), marker: MARKER_RAW };
    }
    return { digits: encode(String(value), options), marker: MARKER_ENCODED };
  }
  if (typeof value === 'string') {
    return { digits: encode(value === '' ? EMPTY_TEXT : value, options), marker: MARKER_ENCODED };
  }
  if (Array.isArray(value)) {
    const items = (value as readonly unknown[]).map((item, i) => {
      if (typeof item === 'string') return item;
      if (typeof item === 'number') return String(item);
      throw new TypeError(
        `a response list may hold only strings and numbers; item ${i} is ${describe(item)}`,
      );
    });
    return { digits: encodeList(items, options), marker: MARKER_ENCODED };
  }
  throw new TypeError(
    `a response must be a string, a number, an array of strings or nothing; got ${describe(value)}`,
  );
}

/**
 * How many answer digits one packet holds: `lengthLimit - (len(rid) + 6)` (244 on the platform
 * for a six-digit rid).
 * @throws RangeError when the length limit leaves no room for a single digit
 */
export function packetSize(lengthLimit: number, rid: string): number {
  const size = lengthLimit - (rid.length + PACKET_OVERHEAD);
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(
      `a length limit of ${lengthLimit} leaves no room for answer digits with the ${rid.length}-digit rid ${rid}`,
    );
  }
  return size;
}

/**
 * Cuts an answer into the values the response variables receive, in order (see the module
 * documentation). An empty answer is one packet with no digits.
 * @throws RangeError when the answer needs more than {@link MAX_PACKETS} packets, or for a bad rid
 */
export function buildPackets(response: EncodedResponse, rid: string, lengthLimit: number): string[] {
  if (typeof rid !== 'string' || !DIGITS.test(rid))
    throw new RangeError(`a rid must be digits, got ${String(rid)}`);
  const size = packetSize(lengthLimit, rid);
  const { digits, marker } = response;
  const count = Math.max(1, Math.ceil(digits.length / size));
  if (count > MAX_PACKETS) {
    throw new RangeError(
      `the answer is ${digits.length} digits: ${count} packets of ${size}, but at most ${MAX_PACKETS} can be numbered`,
    );
  }
  const packets = new Array<string>(count);
  for (let k = 1; k < count; k++) {
    const piece = digits.slice((k - 1) * size, k * size);
    packets[k - 1] = `${piece}.${rid}${String(k).padStart(3, '0')}${PACKET_TAIL}`;
  }
  packets[count - 1] = `${digits.slice((count - 1) * size)}.${rid}${marker}${LAST_PACKET_TAIL}`;
  return packets;
}

/** Most characters of an error message sent to a project (the whole value is capped elsewhere). */
const MAX_ERROR_TEXT = 200;

/**
 * The text a project receives when its request failed: `Error: <message>`, on one line, at most
 * 200 characters. (Characters outside the encoding table arrive as spaces in the default mode.)
 */
export function errorText(error: unknown): string {
  const message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : describe(error);
  const line = `Error: ${message.replace(/\s+/g, ' ').trim() || 'unknown error'}`;
  return line.length > MAX_ERROR_TEXT ? `${line.slice(0, MAX_ERROR_TEXT - 3)}...` : line;
}

/** A request id as the project's template picks it: a random 10001-99999 followed by `0`. */
export function randomRequestId(random: () => number = Math.random): string {
  return `${10001 + Math.floor(random() * 89999)}0`;
}

/** A push id: `100000000` followed by four random digits (13 digits). */
export function randomPushId(random: () => number = Math.random): string {
  return PUSH_ID_PREFIX + String(Math.floor(random() * 10000)).padStart(4, '0');
}
