/**
 * Reading the platform's JSON records as the real service sends them (WIRE.md §10), so they
 * arrive in one shape whatever the quirk:
 * - integers beyond `Number.MAX_SAFE_INTEGER` (news ids) keep their exact digits, as strings
 *   (`JSON.parse` would round them; Node 20 has no reviver access to the source text);
 * - protocol-relative URLs (`//cdn2.scratch.mit.edu/...`) get the scheme of the answer they came
 *   in, as a browser resolves them: `https:` on the real service (a sandbox on `http:` keeps `http:`);
 * - date-times without a zone (`2019-08-24T10:20:30`, meant as UTC) get their `Z`.
 * Only API records go through here, never project bodies: those are kept byte for byte.
 */
import { parseJson } from './json.js';

/** An integer literal of 16 digits or more: the only ones that can pass 2^53. */
const LONG_DIGITS = /\d{16}/;

/**
 * Parses an API answer (nesting bounded like every parse) and normalizes it as the module
 * comment says. Throws `JsonDepthError` or `SyntaxError` like {@link parseJson}.
 */
export function parseAnswer(text: string, answerUrl?: string): unknown {
  return normalizeRecord(
    parseJson(LONG_DIGITS.test(text) ? quoteUnsafeIntegers(text) : text),
    schemeOf(answerUrl),
  );
}

/** `http:` for an answer that came over plain HTTP (a local sandbox), else `https:`. */
function schemeOf(url: string | undefined): 'http:' | 'https:' {
  return url?.startsWith('http:') ? 'http:' : 'https:';
}

/**
 * Strings (skipped whole, so digits inside them are left alone) or a long integer literal that
 * is not the fraction or exponent of another number.
 */
const STRING_OR_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![\d.eE])/g;

/**
 * Rewrites every integer literal outside strings that `Number` cannot hold exactly into a
 * string literal of the same digits. One linear pass.
 */
export function quoteUnsafeIntegers(text: string): string {
  return text.replace(STRING_OR_LONG_INTEGER, (match) =>
    // Stryker disable next-line MethodExpression: equivalent, a match is a whole string literal or an integer, so it starts with a quote exactly when it ends with one
    match.startsWith('"') || Number.isSafeInteger(Number(match)) ? match : `"${match}"`,
  );
}

/** Keys whose string values are URLs (`thumbnail_url`, `thumbnailUrl`, `image`, `90x90`, ...). */
const URL_KEY = /url$|image$|^images?$|thumbnail|avatar|icon|^\d+x\d+$/i;
/** Keys whose string values are date-times (`dateJoined`, `joined`, `datetime_created`, ...). */
const DATE_KEY = /date|joined|created|modified|shared|stamp/i;
const PROTOCOL_RELATIVE = /^\/\/[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/|$)/i;
const ZONELESS_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * A record with its URLs given `scheme` and its zone-less date-times marked UTC, in place.
 * Only values under URL-like and date-like keys are touched: free text stays as written.
 */
export function normalizeRecord<T>(value: T, scheme: 'http:' | 'https:' = 'https:'): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    const record = item as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (typeof child === 'string') {
        // Stryker disable next-line StringLiteral: equivalent, any name no URL or date key matches would do (an array's indexes match none either)
        const fixed = normalizeString(Array.isArray(item) ? '' : key, child, scheme);
        if (fixed !== child) record[key] = fixed;
      } else if (child !== null && typeof child === 'object') {
        stack.push(child);
      }
    }
  }
  return value;
}

function normalizeString(key: string, value: string, scheme: string): string {
  if (URL_KEY.test(key) && PROTOCOL_RELATIVE.test(value)) return `${scheme}${value}`;
  if (DATE_KEY.test(key) && ZONELESS_DATE_TIME.test(value)) return `${value}Z`;
  return value;
}
