import { describe, expect, it } from 'vitest';
import { PollLoop, type PollLoopOptions } from '../../src/http/poll-loop.js';

/** A loop whose polls run `polls` in turn; resolves `seen` once `count` polls have run. */
function loopOf(polls: PollLoopOptions['poll'][], extra: Partial<PollLoopOptions> = {}) {
  let calls = 0;
  const errors: Error[] = [];
  let ready = 0;
  const loop = new PollLoop({
    interval: 0.01,
    name: 'Test poller',
    poll: (run) => polls[Math.min(calls++, polls.length - 1)]!(run),
    onError: (error) => errors.push(error),
    onReady: () => ready++,
    ...extra,
  });
  return { loop, errors, calls: () => calls, ready: () => ready };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
};

describe('PollLoop (the loop of CloudEvents and MessageEvents)', () => {
  it('is ready after the first poll that succeeds; a failing poll is reported and polling goes on', async () => {
    const { loop, errors, calls, ready } = loopOf([
      async () => {
        throw new Error('outage');
      },
      async () => true,
    ]);
    await loop.start();
    expect(errors.map((error) => error.message)).toEqual(['outage']);
    expect(loop.ready).toBe(true);
    await until(() => calls() >= 4);
    expect(ready()).toBe(1);
    loop.stop();
    expect(loop.running).toBe(false);
  });

  it('stop() before ready rejects start() and aborts the poll under way', async () => {
    let signal: AbortSignal | undefined;
    const { loop } = loopOf([
      (run) => {
        signal = run.signal;
        return new Promise(() => undefined);
      },
    ]);
    const started = loop.start();
    expect(loop.start()).toBe(started);
    await until(() => signal !== undefined);
    loop.stop();
    await expect(started).rejects.toThrow('Test poller was stopped before it was ready');
    expect(signal!.aborted).toBe(true);
  });

  it('refuses an interval that is not above 0', () => {
    expect(() => loopOf([async () => true], { interval: 0 })).toThrow(RangeError);
  });
});
