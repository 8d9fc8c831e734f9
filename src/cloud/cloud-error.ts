import { describe } from '../records/validate.js';
import { describeCloseCode } from './close-codes.js';

/**
 * A failure of a cloud connection: a permanent close by the server, a connection that could not
 * be opened, or a set that was dropped by `disconnect()`. Never holds cookies or headers.
 */
export class CloudError extends Error {
  override readonly name = 'CloudError';
  /** The WebSocket close code that caused it, or `null` when the socket was never closed by the server. */
  readonly closeCode: number | null;

  constructor(message: string, options: { closeCode?: number | null; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.closeCode = options.closeCode ?? null;
  }

  /** The error for a close code, with what to fix in its message. */
  static fromClose(code: number, reason: string, where: string): CloudError {
    const said = reason ? ` (server said: ${JSON.stringify(reason.slice(0, 200))})` : '';
    return new CloudError(
      `cloud connection to ${where} closed with ${code}: ${describeCloseCode(code)}${said}`,
      {
        closeCode: code,
      },
    );
  }
}

/**
 * The readable text of something thrown or reported: an error's message, a non-empty string as
 * is, a number or boolean as written, or `fallback` when there is nothing to say.
 */
export function messageOf(error: unknown, fallback = 'unknown error'): string {
  if (error instanceof Error) return error.message || fallback;
  if (typeof error === 'string') return error || fallback;
  if (typeof error === 'number' || typeof error === 'boolean') return describe(error);
  return fallback;
}
