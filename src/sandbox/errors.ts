import type { ErrorBody } from '../records/records.js';

/**
 * An answer that ends a request early. The server turns it into JSON (`{"code","message"}` like
 * the real API, or `body` when a route needs another shape, e.g. the login array).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message = '',
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.body = body ?? ({ code, message } satisfies ErrorBody);
    this.headers = headers;
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, 'BadRequest', message);
export const unauthorized = (message = 'Authentication required'): HttpError =>
  new HttpError(401, 'Unauthorized', message);
export const forbidden = (message = ''): HttpError => new HttpError(403, 'Forbidden', message);
/** The real API's 404 body has an empty message: `{"code":"NotFound","message":""}`. */
export const notFound = (): HttpError => new HttpError(404, 'NotFound', '');
export const tooLarge = (limit: number, headers?: Record<string, string>): HttpError =>
  new HttpError(413, 'PayloadTooLarge', `body larger than ${limit} bytes`, undefined, headers);
