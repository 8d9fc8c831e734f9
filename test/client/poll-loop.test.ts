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

/** Waits until `condition` holds, for a bounded number of short turns (then fails). */
const until = async (condition: () => boolean) => {
  for (let turn = 0; !condition(); turn++) {
    if (turn > 5000) throw new Error(`never happened: ${condition}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
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

/** Resolves after `loops` polls of a second loop with the same interval, started now: its timers
 *  are set after any timer of the loop under test, so by then that loop's next poll would have run. */
async function afterPolls(interval: number, loops = 3): Promise<void> {
  let polls = 0;
  const witness = new PollLoop({
    interval,
    name: 'Witness',
    poll: async () => {
      polls++;
      return true;
    },
    onError: () => undefined,
    onReady: () => undefined,
  });
  witness.start();
  await until(() => polls >= loops);
  witness.stop();
}

describe('PollLoop runs', () => {
  it('refuses an interval that is not a finite number above 0, naming it', () => {
    for (const interval of [Number.NaN, Number.POSITIVE_INFINITY, -1, 0]) {
      expect(() => loopOf([async () => true], { interval })).toThrow(
        new RangeError(`interval must be a number of seconds above 0, got ${interval}`),
      );
    }
    expect(loopOf([async () => true], { interval: 0.001 }).loop.running).toBe(false);
  });

  it('a poll that answers false ends the polling; the loop stays running and ready', async () => {
    const { loop, calls, ready } = loopOf([async () => false]);
    await loop.start();
    expect([loop.running, loop.ready, ready()]).toEqual([true, true, 1]);
    await afterPolls(0.01);
    expect(calls()).toBe(1);
    loop.stop();
    expect([loop.running, loop.ready]).toEqual([false, false]);
  });

  it('stop() ends the polling after ready, and rejects nothing', async () => {
    const { loop, calls } = loopOf([async () => true]);
    await loop.start();
    await until(() => calls() >= 2);
    loop.stop();
    const stoppedAt = calls();
    await afterPolls(0.01);
    expect(calls()).toBe(stoppedAt);
  });

  it('waits `interval` seconds between polls', async () => {
    const order: string[] = [];
    const { loop } = loopOf(
      [
        async () => {
          // A timer of half the interval, set before the loop sets its own: it fires first.
          setTimeout(() => order.push('half'), 25);
          order.push('poll 1');
          return true;
        },
        async () => {
          order.push('poll 2');
          return false;
        },
      ],
      { interval: 0.05 },
    );
    await loop.start();
    await until(() => order.length === 3);
    expect(order).toEqual(['poll 1', 'half', 'poll 2']);
    loop.stop();
  });

  it('stop(reason) rejects a start() not yet settled with that reason; the signal says who stopped', async () => {
    let run: { signal: AbortSignal; live(): boolean } | undefined;
    const { loop, errors, ready } = loopOf([
      (given) => {
        run = given;
        return new Promise((_, reject) =>
          given.signal.addEventListener('abort', () => reject(given.signal.reason)),
        );
      },
    ]);
    const started = loop.start();
    await until(() => run !== undefined);
    expect(run!.live()).toBe(true);
    loop.stop(new Error('the cloud went away'));
    await expect(started).rejects.toThrow('the cloud went away');
    expect(run!.live()).toBe(false);
    expect(run!.signal.reason).toEqual(new Error('Test poller was stopped'));
    // The stopped run's failure is nobody's news.
    await afterPolls(0.01);
    expect([errors, ready(), loop.ready]).toEqual([[], 0, false]);
  });

  it('a poll of an old run that ends late changes nothing in the new run', async () => {
    const finish: (() => void)[] = [];
    const { loop, ready, calls } = loopOf([
      () => new Promise((resolve) => finish.push(() => resolve(true))),
      () => new Promise((resolve) => finish.push(() => resolve(false))),
    ]);
    const first = loop.start();
    await until(() => finish.length === 1);
    loop.stop();
    await expect(first).rejects.toThrow('Test poller was stopped before it was ready');
    const second = loop.start();
    expect(second).not.toBe(first);
    await until(() => finish.length === 2);
    finish[0]!(); // the old run's poll ends now
    await afterPolls(0.01);
    expect([loop.ready, ready(), calls()]).toEqual([false, 0, 2]);
    finish[1]!();
    await second;
    expect([loop.ready, ready()]).toEqual([true, 1]);
    loop.stop();
  });

  it('reports a thrown value that is not an Error as one; a late failure of a stopped run is dropped', async () => {
    const { loop, errors } = loopOf([
      async () => {
        throw 'plain failure';
      },
      async () => true,
    ]);
    await loop.start();
    expect(errors).toEqual([new Error('plain failure')]);
    loop.stop();
    let fail: (() => void) | undefined;
    const late = loopOf([() => new Promise((_, reject) => (fail = () => reject(new Error('late'))))]);
    const started = late.loop.start();
    await until(() => fail !== undefined);
    late.loop.stop();
    fail!();
    await expect(started).rejects.toThrow('stopped before it was ready');
    await afterPolls(0.01);
    expect(late.errors).toEqual([]);
  });
});

describe('PollLoop start and stop', () => {
  it('is neither running nor ready before start(), and a stop() then is harmless', () => {
    const { loop, calls } = loopOf([async () => true]);
    expect([loop.running, loop.ready]).toEqual([false, false]);
    loop.stop();
    expect([loop.running, loop.ready, calls()]).toEqual([false, false, 0]);
  });

  it('a start() nobody awaits, stopped before ready, leaves no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let polled = false;
      const { loop } = loopOf([
        () => {
          polled = true;
          return new Promise(() => undefined);
        },
      ]);
      loop.start();
      await until(() => polled);
      loop.stop();
      // Unhandled rejections are reported after the microtasks of the turn: a few turns prove it.
      await afterPolls(0.01);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
