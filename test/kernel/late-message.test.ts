// The log line of an iopub message that came after a shutdown (kernel/protocol/late-message.ts):
// its text is shown, bounded, unless it may hold a secret.
import { describe, expect, it } from 'vitest';
import { lateMessage } from '../../kernel/protocol/late-message.js';

describe('the log line of a message after a shutdown', () => {
  it('shows the text of a stream, a result, an error and a status', () => {
    expect(lateMessage('execute_request', 'stream', { name: 'stdout', text: 'late text\n' })).toBe(
      'stream of execute_request: late text',
    );
    expect(lateMessage('execute_request', 'execute_result', { data: { 'text/plain': "'x'" } })).toBe(
      "execute_result of execute_request: 'x'",
    );
    expect(lateMessage('execute_request', 'error', { ename: 'TypeError', evalue: 'boom' })).toBe(
      'error of execute_request: TypeError: boom',
    );
    expect(lateMessage('execute_request', 'status', { execution_state: 'idle' })).toBe(
      'status of execute_request: idle',
    );
  });

  it('cuts a long text, and leaves out one that may hold a secret', () => {
    const long = lateMessage('execute_request', 'stream', { name: 'stdout', text: 'a'.repeat(5000) });
    expect(long.length).toBeLessThan(2100);
    expect(long.endsWith('…')).toBe(true);
    for (const text of [
      'scratchsessionsid=abc123def456',
      "{ token: 'abc123def456' }",
      'csrftoken: abc123def456',
    ]) {
      const line = lateMessage('execute_request', 'stream', { name: 'stdout', text });
      expect(line).not.toContain('abc123def456');
      expect(line).toBe(
        `stream of execute_request: (${text.length} characters that may hold a secret, not shown)`,
      );
    }
  });
});
