import { describe, expect, it } from 'vitest';
import {
  assertJsonDepth,
  JsonDepthError,
  MAX_JSON_DEPTH,
  parseJson,
  stringifyJson,
  tryParseJson,
} from '../../src/records/json.js';

// parseJson scans the text for depth, skipping strings; the parsed value's own depth (an
// independent walk) says what the scan must find, whatever brackets, quotes and backslashes the
// strings hold.
const TEXTS = [
  String.raw`["a\\", ["[[["], "\"[", {"k]\\\"": [[1]]}]`,
  String.raw`{"\\\\": "{{{{", "x": [["\\\"]]]]\\"]]}`,
  String.raw`[[["\\"], "\""], "[\\\\\\\\"]`,
  String.raw`["", [""], [[""]], "\u005b"]`,
];

function deeperThan(value: unknown, depth: number): boolean {
  try {
    assertJsonDepth(value, depth);
    return false;
  } catch {
    return true;
  }
}

describe('parseJson depth bound', () => {
  it('counts only brackets outside strings, escaped quotes and backslashes included', () => {
    for (const text of TEXTS) {
      const value: unknown = JSON.parse(text);
      for (let depth = 1; depth <= 6; depth++) {
        if (deeperThan(value, depth)) expect(() => parseJson(text, depth)).toThrow(JsonDepthError);
        else expect(parseJson(text, depth)).toEqual(value);
      }
    }
  });

  it('a text of 100,000 backslashes and quotes is scanned in one pass and refused by JSON.parse', () => {
    const text = `["${'\\"'.repeat(50_000)}`;
    expect(() => parseJson(text, 2)).toThrow(SyntaxError);
    expect(() => parseJson(`${'['.repeat(3)}"${'\\\\'.repeat(50_000)}"${']'.repeat(3)}`, 2)).toThrow(
      JsonDepthError,
    );
  });
});

describe('bounded JSON, exactly at its limits', () => {
  it('takes nesting up to the limit, refuses one level more, and names what it refused', () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(parseJson(nested(3), 3)).toEqual([[[]]]);
    expect(() => parseJson(nested(4), 3)).toThrow(new JsonDepthError(3));
    expect(() => parseJson(nested(4), 3)).toThrow('JSON nests deeper than 3 levels');
    expect(parseJson('{"a":{"b":1}}', 2)).toEqual({ a: { b: 1 } });
    expect(() => parseJson('{"a":{"b":{}}}', 2)).toThrow(JsonDepthError);
    // Closing brackets count down: siblings are not deeper.
    expect(parseJson('[[1],[2],[[3]]]', 3)).toEqual([[1], [2], [[3]]]);
    expect(parseJson(nested(MAX_JSON_DEPTH))).toHaveLength(1);
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1))).toThrow(new JsonDepthError(MAX_JSON_DEPTH));
    // An unterminated string ends the scan; JSON.parse then refuses the text.
    expect(() => parseJson('["[[[', 1)).toThrow(SyntaxError);
    expect(tryParseJson('not json')).toBeUndefined();
    expect(tryParseJson(nested(3), 2)).toBeUndefined();
    expect(tryParseJson('{"a":[1]}')).toEqual({ a: [1] });
    const error = new JsonDepthError(7, 'the body');
    expect([error.name, error.message, error.limit, error instanceof RangeError]).toEqual([
      'JsonDepthError',
      'the body nests deeper than 7 levels',
      7,
      true,
    ]);
  });

  it('checks a value before serializing it, a cycle counting as too deep', () => {
    expect(stringifyJson({ a: [1, { b: null }] }, 3)).toBe('{"a":[1,{"b":null}]}');
    expect(() => stringifyJson({ a: [1, { b: [] }] }, 3)).toThrow(new JsonDepthError(3, 'value'));
    expect(() => stringifyJson([[[]]], 2, 'the project')).toThrow('the project nests deeper than 2 levels');
    expect(() => assertJsonDepth(null, 0)).not.toThrow();
    expect(() => assertJsonDepth('text', 0)).not.toThrow();
    expect(() => assertJsonDepth({}, 0)).toThrow(JsonDepthError);
    expect(() => assertJsonDepth({}, 1)).not.toThrow();
    const cycle: { self?: unknown } = {};
    cycle.self = cycle;
    expect(() => assertJsonDepth(cycle, 50)).toThrow(new JsonDepthError(50, 'value'));
  });
});
