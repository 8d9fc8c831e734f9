import { describe, expect, it } from 'vitest';
import {
  assertBaseUrl,
  assertBoolean,
  assertFunction,
  assertInteger,
  assertLanguage,
  assertNonEmptyString,
  assertObject,
  assertSeconds,
  assertUsername,
  describe as describeValue,
  isUsername,
  MAX_TIMER_SECONDS,
  toDateLimit,
  toId,
} from '../../src/records/validate.js';

// The public API's argument checks: the exact error class and message of each refusal, and the
// value answered on success (the messages are what a caller reads, so they are the contract).
function refusal(run: () => unknown): { type: string; message: string } {
  try {
    run();
  } catch (error) {
    return { type: (error as Error).constructor.name, message: (error as Error).message };
  }
  throw new Error('expected a refusal');
}

describe('argument checks', () => {
  it('describes values briefly, never their whole content', () => {
    expect(describeValue(null)).toBe('null');
    expect(describeValue([1])).toBe('an array');
    expect(describeValue('x'.repeat(40))).toBe(JSON.stringify('x'.repeat(40)));
    expect(describeValue('x'.repeat(41))).toBe('a long string');
    expect(describeValue(2.5)).toBe('2.5');
    expect(describeValue(false)).toBe('false');
    expect(describeValue({ secret: 'a' })).toBe('an object');
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue(() => 1)).toBe('function');
    expect(describeValue(1n)).toBe('bigint');
  });

  it('takes usernames of 1 to 20 letters, digits, _ and -', () => {
    for (const name of ['a', 'A_b-9', 'x'.repeat(20)]) {
      expect(isUsername(name)).toBe(true);
      expect(() => assertUsername(name)).not.toThrow();
    }
    for (const name of ['x'.repeat(21), 'a b', 'é', '']) expect(isUsername(name)).toBe(false);
    expect(isUsername(7)).toBe(false);
    expect(refusal(() => assertUsername('a b'))).toEqual({
      type: 'RangeError',
      message: 'username is not a valid Scratch username: "a b"',
    });
    expect(refusal(() => assertUsername(' ', 'owner'))).toEqual({
      type: 'RangeError',
      message: 'owner must not be empty',
    });
    expect(refusal(() => assertNonEmptyString(3, 'title'))).toEqual({
      type: 'TypeError',
      message: 'title must be a string, got 3',
    });
  });

  it('takes ids as positive safe integers or strings of digits', () => {
    expect(toId(5, 'id')).toBe(5);
    expect(toId('0012', 'id')).toBe(12);
    expect(refusal(() => toId(0, 'id'))).toEqual({
      type: 'RangeError',
      message: 'id must be a positive integer id, got 0',
    });
    expect(refusal(() => toId('0', 'id'))).toEqual({
      type: 'RangeError',
      message: 'id must be a positive integer id, got 0',
    });
    expect(refusal(() => toId(-3, 'studio'))).toEqual({
      type: 'RangeError',
      message: 'studio must be a positive integer id, got -3',
    });
    for (const [value, shown] of [
      ['12a', '"12a"'],
      [1.5, '1.5'],
      [2 ** 53, String(2 ** 53)],
      [null, 'null'],
    ] as const) {
      expect(refusal(() => toId(value, 'id'))).toEqual({
        type: 'TypeError',
        message: `id must be a positive integer id, got ${shown}`,
      });
    }
  });

  it('checks whole numbers against their bounds, in words', () => {
    expect(assertInteger(1, 'limit', 1, 40)).toBe(1);
    expect(assertInteger(40, 'limit', 1, 40)).toBe(40);
    expect(refusal(() => assertInteger(0, 'limit', 1, 40)).message).toBe(
      'limit must be between 1 and 40, got 0',
    );
    expect(refusal(() => assertInteger(41, 'limit', 1, 40)).message).toBe(
      'limit must be between 1 and 40, got 41',
    );
    expect(refusal(() => assertInteger(0, 'limit', 1))).toEqual({
      type: 'RangeError',
      message: 'limit must be at least 1, got 0',
    });
    expect(refusal(() => assertInteger(5001, 'offset', Number.MIN_SAFE_INTEGER, 5000)).message).toBe(
      'offset must be at most 5,000, got 5001',
    );
    expect(refusal(() => assertInteger(0, 'n', 1000, 2000)).message).toBe(
      'n must be between 1,000 and 2,000, got 0',
    );
    expect(refusal(() => assertInteger(2.5, 'limit', 1))).toEqual({
      type: 'TypeError',
      message: 'limit must be a whole number, got 2.5',
    });
    expect(refusal(() => assertInteger('3', 'limit', 1)).message).toBe(
      'limit must be a whole number, got "3"',
    );
  });

  it('checks functions, objects, booleans and language codes', () => {
    expect(refusal(() => assertFunction('f', 'onProgress'))).toEqual({
      type: 'TypeError',
      message: 'onProgress must be a function, got "f"',
    });
    expect(() => assertFunction(() => 1, 'onProgress')).not.toThrow();
    for (const [value, shown] of [
      [null, 'null'],
      [[], 'an array'],
      ['o', '"o"'],
    ] as const) {
      expect(refusal(() => assertObject(value, 'options'))).toEqual({
        type: 'TypeError',
        message: `options must be an object, got ${shown}`,
      });
    }
    expect(() => assertObject({}, 'options')).not.toThrow();
    expect(assertBoolean(false, 'flag')).toBe(false);
    expect(refusal(() => assertBoolean(0, 'flag'))).toEqual({
      type: 'TypeError',
      message: 'flag must be a boolean, got 0',
    });
    for (const code of ['en', 'pt-br', 'zh-cn', 'es-419', 'haw', 'sr-Latn']) {
      expect(() => assertLanguage(code)).not.toThrow();
    }
    for (const code of ['EN', 'e', 'en-', 'en-abcde', 'en_us', 'engl']) {
      expect(refusal(() => assertLanguage(code))).toEqual({
        type: 'RangeError',
        message: `language must be a language code such as "en" or "es-419", got ${JSON.stringify(code)}`,
      });
    }
    expect(refusal(() => assertLanguage(1, 'lang')).message).toBe('lang must be a string, got 1');
  });

  it('checks base URLs and answers them without trailing slashes', () => {
    expect(assertBaseUrl('http://127.0.0.1:8080//', 'apiBase', ['http:', 'https:'])).toBe(
      'http://127.0.0.1:8080',
    );
    expect(assertBaseUrl('wss://clouddata.scratch.mit.edu', 'cloudHost', ['wss:'])).toBe(
      'wss://clouddata.scratch.mit.edu',
    );
    expect(refusal(() => assertBaseUrl('not a url', 'apiBase', ['https:']))).toEqual({
      type: 'TypeError',
      message: 'apiBase is not a valid URL: "not a url"',
    });
    expect(refusal(() => assertBaseUrl('ftp://x', 'apiBase', ['http:', 'https:']))).toEqual({
      type: 'TypeError',
      message: 'apiBase must use http: or https:, got ftp:',
    });
  });

  it('checks durations in seconds, naming the timer bound', () => {
    expect(assertSeconds(0, 'timeout')).toBe(0);
    expect(assertSeconds(MAX_TIMER_SECONDS, 'every', 0, MAX_TIMER_SECONDS)).toBe(MAX_TIMER_SECONDS);
    expect(refusal(() => assertSeconds(Number.NaN, 'timeout'))).toEqual({
      type: 'TypeError',
      message: 'timeout must be a number of seconds, got NaN',
    });
    expect(refusal(() => assertSeconds('1', 'timeout')).type).toBe('TypeError');
    expect(refusal(() => assertSeconds(Number.POSITIVE_INFINITY, 'timeout'))).toEqual({
      type: 'RangeError',
      message: 'timeout must be a finite number of seconds, at least 0, got Infinity',
    });
    expect(refusal(() => assertSeconds(0.5, 'every', 1)).message).toBe(
      'every must be a finite number of seconds, at least 1, got 0.5',
    );
    expect(refusal(() => assertSeconds(MAX_TIMER_SECONDS + 1, 'every', 0, MAX_TIMER_SECONDS)).message).toBe(
      `every must be at most ${MAX_TIMER_SECONDS} seconds (about 24.8 days, the longest wait a timer keeps), got ${MAX_TIMER_SECONDS + 1}`,
    );
    expect(refusal(() => assertSeconds(61, 'wait', 0, 60)).message).toBe(
      'wait must be at most 60 seconds, got 61',
    );
  });

  it('turns a Date or a date string into an ISO dateLimit', () => {
    expect(toDateLimit(new Date(Date.UTC(2025, 4, 27, 5, 15, 56)))).toBe('2025-05-27T05:15:56.000Z');
    expect(toDateLimit('2025-05-27T07:15:56+02:00')).toBe('2025-05-27T05:15:56.000Z');
    expect(refusal(() => toDateLimit(5))).toEqual({
      type: 'TypeError',
      message: 'dateLimit must be a Date or an ISO date string, got 5',
    });
    expect(refusal(() => toDateLimit('soon', 'since'))).toEqual({
      type: 'RangeError',
      message: 'since is not a valid date: "soon"',
    });
    expect(refusal(() => toDateLimit(new Date(Number.NaN))).message).toBe(
      'dateLimit is not a valid date: an object',
    );
  });
});
