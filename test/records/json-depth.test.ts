import { describe, expect, it } from 'vitest';
import { assertJsonDepth, JsonDepthError, parseJson } from '../../src/records/json.js';

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
