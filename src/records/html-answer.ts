/** Reading the answers the site gives as HTML (profile comments, a profile's activity). */

import { ApiError } from '../errors.js';
import type { ClientCore } from '../http/client-core.js';
import type { HttpAnswer } from '../http/http.js';
import { HtmlDepthError } from './html.js';
import { HtmlShapeError } from './html-shape-error.js';

/**
 * Reads an HTML answer with `read`; a page the reader refuses (nested too deep, or lacking what
 * the reader needs) is the service's failure, an {@link ApiError}, like an unreadable JSON answer.
 */
export function readHtmlAnswer<T>(
  session: ClientCore,
  answer: HttpAnswer,
  method: string,
  read: (html: string) => T,
): T {
  try {
    return read(new TextDecoder().decode(answer.bytes));
  } catch (error) {
    if (!(error instanceof HtmlDepthError || error instanceof HtmlShapeError)) throw error;
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
