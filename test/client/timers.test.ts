import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sleep } from '../../src/http/timers.js';

// The one wait of the HTTP core (retries' backoff): it ends on time or at its signal, and leaves
// neither a timer nor a listener behind (counted in the same turn, so nothing else runs between).

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('sleep', () => {
  it('resolves, and takes its listener off the signal', async () => {
    const controller = new AbortController();
    await expect(sleep(1, controller.signal)).resolves.toBeUndefined();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(sleep(0)).resolves.toBeUndefined();
  });

  it('rejects at once with the reason of a signal aborted before', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already'));
    const before = timers();
    const waiting = sleep(60_000, controller.signal);
    expect(timers()).toBe(before);
    await expect(waiting).rejects.toThrow('already');
  });

  it('rejects with the signal’s reason when it aborts first, and clears its timer', async () => {
    const controller = new AbortController();
    const before = timers();
    const waiting = sleep(60_000, controller.signal);
    expect(timers()).toBe(before + 1);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    // The listeners of an abort run at once: the timer is gone when abort() returns.
    controller.abort(new Error('stop waiting'));
    expect(timers()).toBe(before);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    await expect(waiting).rejects.toThrow('stop waiting');
  });
});
