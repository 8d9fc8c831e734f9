/**
 * What the kernel's log says of an iopub message that comes after a shutdown (./server.ts sends
 * nothing after the shutdown's `idle`): the message's type, its request's type and its text, bounded.
 */

import { mayHoldSecret } from './may-hold-secret.js';

/** Longest text of a late message in the log. */
const LATE_TEXT = 2000;

/** One log line for an iopub message not sent after a shutdown: its type and its text, bounded. */
export function lateMessage(parentType: string, type: string, content: Record<string, unknown>): string {
  const data = content.data as Record<string, unknown> | undefined;
  const text =
    type === 'status'
      ? content.execution_state
      : type === 'error'
        ? `${String(content.ename)}: ${String(content.evalue)}`
        : (content.text ?? data?.['text/plain']);
  // The log is the kernel's, not the user's: text that may hold a secret is left out of it.
  const shown =
    typeof text !== 'string'
      ? ''
      : mayHoldSecret(text)
        ? `(${text.length} characters that may hold a secret, not shown)`
        : text.slice(0, LATE_TEXT) + (text.length > LATE_TEXT ? '…' : '');
  return `${type} of ${parentType}${shown ? `: ${shown.trimEnd()}` : ''}`;
}
