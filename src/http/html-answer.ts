/** Reading the answers the site gives as HTML (profile comments, a profile's activity, forum pages). */

import { MIMEType } from 'node:util';
import { ApiError } from '../errors.js';
import { HtmlDepthError, UnreadablePageError } from '../records/html.js';
import type { ClientCore } from './client-core.js';
import type { HttpAnswer } from './http.js';

/**
 * The answer's text in the charset its `Content-Type` names (UTF-8 when it names none, or one
 * this runtime does not know), unless it starts with a byte order mark, which names its encoding
 * whatever the label says (WHATWG Encoding's "decode", as browsers read a page). Bytes that are
 * not valid in it become U+FFFD, never an error.
 */
export function answerText(answer: HttpAnswer): string {
  const charset = bomEncoding(answer.bytes) ?? charsetOf(answer.headers.get('content-type'));
  try {
    // Stryker disable next-line StringLiteral: TextDecoder('') throws, and the catch reads UTF-8
    return new TextDecoder(charset || 'utf-8').decode(answer.bytes);
  } catch {
    return new TextDecoder('utf-8').decode(answer.bytes);
  }
}

/** The encoding a byte order mark names (TextDecoder then drops the mark), else undefined. */
function bomEncoding(bytes: Uint8Array): string | undefined {
  // Stryker disable next-line StringLiteral: TextDecoder('') throws, and answerText's catch reads UTF-8
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/**
 * The `charset` parameter of a `Content-Type`, as WHATWG's MIME type parser reads it (Node's own
 * `MIMEType`): a quoted value ends at its closing quote and its escapes come off, a type that does
 * not parse names none.
 */
function charsetOf(type: string | null): string | undefined {
  // Stryker disable BlockStatement: an emptied catch answers undefined too (this also hides the try block's mutant, which the tests kill)
  try {
    // Stryker disable next-line StringLiteral: no header and any text that is no MIME type both name no charset
    return new MIMEType(type ?? '').params.get('charset') ?? undefined;
  } catch {
    return undefined;
  }
  // Stryker restore BlockStatement
}

/**
 * Reads an HTML answer with `read`; a page the reader refuses (nested too deep, or without what
 * it needs) is the service's failure, an {@link ApiError}, like an unreadable JSON answer.
 */
export function readHtmlAnswer<T>(
  session: ClientCore,
  answer: HttpAnswer,
  method: string,
  read: (html: string) => T,
): T {
  try {
    return read(answerText(answer));
  } catch (error) {
    if (!(error instanceof HtmlDepthError) && !(error instanceof UnreadablePageError)) throw error;
    throw new ApiError({
      status: answer.status,
      url: answer.url,
      method,
      reason: error.message,
      secrets: session.http.secretsFor(answer.url),
      cause: error,
    });
  }
}
