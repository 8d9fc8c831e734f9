// The kernel's send queue (kernel/protocol/send-queue.ts) on real zeromq sockets, the ones tslab
// creates: every send waits for the one before, and for the socket's bind.

import { describe, expect, it } from 'vitest';
import { Publisher } from 'zeromq';
import { QueuedSocket } from '../../kernel/protocol/send-queue.js';

describe('the send queue of a zeromq socket', () => {
  it('sends only once its socket is bound (a send during the bind failed, and its message was lost)', async () => {
    // tslab binds its five sockets at once and handles a request as soon as the shell is bound: a
    // kernel_info_request that came first was answered while iopub (or the shell) was still binding.
    const socket = new Publisher();
    const errors: string[] = [];
    try {
      const bound = socket.bind('tcp://127.0.0.1:*');
      const queued = new QueuedSocket(socket, (error) => errors.push(String(error)), bound);
      void queued.send(['status', 'busy']);
      void queued.send(['reply']);
      await bound;
      await queued.drained();
      expect(errors).toEqual([]);
    } finally {
      socket.close();
    }
  });
});
