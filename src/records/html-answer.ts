/** Reading the answers the site gives as HTML (profile comments, a profile's activity, forum pages). */

import { ApiError } from '../errors.js';
import type { ClientCore } from '../http/client-core.js';
import type { HttpAnswer } from '../http/http.js';
import { HtmlDepthError } from './html.js';

/**
 * A page that parsed but lacks what its reader needs (a heading, a table, a post's id): the
 * reader throws it naming what was missing, and {@link readHtmlAnswer} makes it an `ApiError`.
 */
export class UnreadablePageError extends Error {
  override readonly name = 'UnreadablePageError';
  constructor(readonly missing: string) {
    super(`the page has no ${missing}`);
  }
}

/**
 * The answer's text in the charset its `Content-Type` names (UTF-8 when it names none, or one
 * this runtime does not know). Bytes that are not valid in it become U+FFFD, never an error.
 */
export function answerText(answer: HttpAnswer): string {
  const type = answer.headers.get('content-type') ?? '';
  const charset = type
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.toLowerCase().startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/^"|"$/g, '');
  try {
    return new TextDecoder(charset || 'utf-8').decode(answer.bytes);
  } catch {
    return new TextDecoder('utf-8').decode(answer.bytes);
  }
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
