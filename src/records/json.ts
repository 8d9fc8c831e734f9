/**
 * JSON with a bound on nesting. `JSON.parse` accepts millions of nested brackets (and stalls the
 * event loop on them), and `JSON.stringify` overflows the stack on deep values: every parse and
 * serialize of outside data goes through here so both fail fast with a clear error instead.
 */

/** The deepest nesting of arrays and objects accepted anywhere (real projects stay far below). */
export const MAX_JSON_DEPTH = 1000;

/** Thrown when JSON text or a value nests deeper than {@link MAX_JSON_DEPTH}. */
export class JsonDepthError extends RangeError {
  constructor(
    readonly limit: number,
    what = 'JSON',
  ) {
    super(`${what} nests deeper than ${limit} levels`);
    this.name = 'JsonDepthError';
  }
}

/**
 * The deepest bracket nesting in JSON text, stopping as soon as it passes `limit`. Linear, with
 * no recursion; brackets inside strings do not count.
 */
function jsonTextDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Skip the string at once (indexOf is faster than a loop over its characters): its end
      // is the next quote not escaped, one after an even number of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return deepest;
      i = end;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return deepest;
}

/** True when the character at `at` follows an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (at - backslashes - 1 >= 0 && text.charCodeAt(at - backslashes - 1) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}

/** `JSON.parse` that first refuses text nesting deeper than `maxDepth` ({@link JsonDepthError}). */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  if (jsonTextDepth(text, maxDepth) > maxDepth) throw new JsonDepthError(maxDepth);
  return JSON.parse(text);
}

/** Parses JSON text, answering `undefined` instead of throwing when it is not JSON or nests too deep. */
export function tryParseJson(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  try {
    return parseJson(text, maxDepth);
  } catch {
    return undefined;
  }
}

/**
 * Throws {@link JsonDepthError} when a value nests arrays and objects deeper than `maxDepth`.
 * Iterative, so a hostile value cannot overflow the stack here; a cycle counts as too deep.
 */
export function assertJsonDepth(value: unknown, maxDepth = MAX_JSON_DEPTH, what = 'value'): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth > maxDepth) throw new JsonDepthError(maxDepth, what);
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
}

/** `JSON.stringify` that first refuses a value nesting deeper than `maxDepth`. */
export function stringifyJson(value: unknown, maxDepth = MAX_JSON_DEPTH, what = 'value'): string {
  assertJsonDepth(value, maxDepth, what);
  return JSON.stringify(value);
}
