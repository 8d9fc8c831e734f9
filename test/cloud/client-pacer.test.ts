/**
 * The pacer's schedule (issue 13 §3), on a simulated clock: timers that fire late, as on a loaded
 * machine, must not stretch the mean gap; a stall must not turn into a burst; idle time is not
 * made up; at rateLimit 0 the queue is written in a loop that yields and respects backpressure.
 * The figures on a real loaded machine are printed by test/bench/cloud.bench.mjs.
 */
import { describe, expect, it } from 'vitest';
import {
  ABSORB,
  CloudPacer,
  DRAIN_SPINS,
  HIGH_WATER,
  LOW_WATER,
  MAX_DRAIN_WAIT_MS,
  type PacerClock,
  YIELD_EVERY,
} from '../../src/cloud/cloud-pacer.js';

/** A simulated event loop: timers fire in time order, each `lateness()` ms after its due time. */
class SimulatedLoop implements PacerClock {
  time = 0;
  immediates = 0;
  timers = 0;
  readonly #tasks: { at: number; order: number; run: () => void }[] = [];
  #order = 0;

  constructor(readonly lateness: () => number = () => 0) {}

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    this.timers++;
    this.#push(this.time + Math.max(1, ms) + this.lateness(), callback);
    return null;
  }

  setImmediate(callback: () => void): unknown {
    this.immediates++;
    this.#push(this.time, callback);
    return null;
  }

  /** Runs tasks until none is left, or until `until` returns true. */
  run(until: () => boolean = () => false): void {
    while (this.#tasks.length > 0 && !until()) {
      this.#tasks.sort((a, b) => a.at - b.at || a.order - b.order);
      const task = this.#tasks.shift()!;
      this.time = Math.max(this.time, task.at);
      task.run();
    }
  }

  /** Lets `ms` pass with nothing to do (tasks due meanwhile run). */
  idle(ms: number): void {
    const end = this.time + ms;
    this.run(() => (this.#tasks[0]?.at ?? Number.POSITIVE_INFINITY) > end);
    this.time = end;
  }

  #push(at: number, run: () => void): void {
    this.#tasks.push({ at, order: this.#order++, run });
  }
}

/** A sink that records the simulated time of each send. */
function recordingSink(loop: SimulatedLoop) {
  const sent: { item: number; at: number }[] = [];
  const sink = {
    ready: true,
    buffered: 0,
    canSend: () => sink.ready,
    send: (item: number) => {
      sent.push({ item, at: loop.now() });
      return true;
    },
    bufferedAmount: () => sink.buffered,
  };
  return {
    sent,
    sink: { canSend: sink.canSend, send: sink.send, buffered: sink.bufferedAmount },
    state: sink,
  };
}

/** A seeded random source, so a run is the same every time. */
function seeded(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('pacing on a monotonic schedule', () => {
  it('absorbs timer lateness: the mean gap stays at the interval, no gap below 75% of it', async () => {
    const random = seeded(7);
    const loop = new SimulatedLoop(() => random() * 20); // every timer 0-20 ms late
    const { sent, sink } = recordingSink(loop);
    const pacer = new CloudPacer<number>(100, sink, loop);
    const done = Promise.all(Array.from({ length: 200 }, (_, i) => pacer.enqueue(i)));
    loop.run();
    await done;
    expect(sent.map((s) => s.item)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const between = gaps(sent.map((s) => s.at));
    // Pacing from each send (the old way) would give 100 + the mean lateness, about 104 ms.
    expect(mean(between)).toBeGreaterThan(99.9);
    expect(mean(between)).toBeLessThan(100.1);
    expect(Math.min(...between)).toBeGreaterThanOrEqual(100 * (1 - ABSORB));
  });

  it('a stall longer than the absorbable lateness moves the schedule: no burst of catch-up sends', async () => {
    let stall = 0;
    const loop = new SimulatedLoop(() => {
      const late = stall;
      stall = 0;
      return late;
    });
    const { sent, sink } = recordingSink(loop);
    const pacer = new CloudPacer<number>(100, sink, loop);
    const done = Promise.all(Array.from({ length: 10 }, (_, i) => pacer.enqueue(i)));
    loop.run(() => sent.length === 3);
    stall = 450; // the next timer fires 450 ms late (a blocked event loop)
    loop.run();
    await done;
    const between = gaps(sent.map((s) => s.at));
    const stalled = between.indexOf(Math.max(...between));
    expect(between[stalled]).toBe(550); // the stalled gap
    // Then one gap shorter by the absorbable quarter, and the interval again: no catch-up burst.
    expect(between.slice(stalled + 1)).toEqual([75, ...Array(between.length - stalled - 2).fill(100)]);
    expect(between.slice(0, stalled)).toEqual(Array(stalled).fill(100));
  });

  it('idle time is not made up: after a quiet spell the first set goes at once, then one per interval', async () => {
    const loop = new SimulatedLoop();
    const { sent, sink } = recordingSink(loop);
    const pacer = new CloudPacer<number>(100, sink, loop);
    const first = pacer.enqueue(1); // sent at once
    loop.run();
    await first;
    loop.idle(5000);
    const start = loop.now();
    const done = Promise.all([2, 3, 4].map((i) => pacer.enqueue(i)));
    loop.run();
    await done;
    expect(sent.slice(1).map((s) => s.at - start)).toEqual([0, 100, 200]);
  });

  it('waits for a ready socket, then starts a fresh schedule', async () => {
    const loop = new SimulatedLoop();
    const { sent, sink, state } = recordingSink(loop);
    state.ready = false;
    const pacer = new CloudPacer<number>(100, sink, loop);
    const done = Promise.all([1, 2, 3].map((i) => pacer.enqueue(i)));
    loop.idle(1000);
    expect(sent).toEqual([]);
    expect(pacer.size).toBe(3);
    state.ready = true;
    pacer.wake();
    loop.run();
    await done;
    expect(sent.map((s) => s.at)).toEqual([1000, 1100, 1200]);
  });
});

describe('rateLimit 0', () => {
  it('writes the queue in a loop, yielding to I/O every few hundred sets', async () => {
    const loop = new SimulatedLoop();
    const { sent, sink, state } = recordingSink(loop);
    state.ready = false; // a backlog builds up while connecting
    const pacer = new CloudPacer<number>(0, sink, loop);
    const total = YIELD_EVERY * 4 + 10;
    const done = Promise.all(Array.from({ length: total }, (_, i) => pacer.enqueue(i)));
    state.ready = true;
    pacer.wake();
    loop.run();
    await done;
    expect(sent).toHaveLength(total);
    expect(sent.every((s, i) => s.item === i && s.at === 0)).toBe(true);
    expect(loop.immediates).toBe(4);
  });

  it('stops writing while the socket buffers more than the high-water mark, until it drains', async () => {
    const loop = new SimulatedLoop();
    const { sent, sink, state } = recordingSink(loop);
    const pacer = new CloudPacer<number>(0, sink, loop);
    const done = Promise.all(Array.from({ length: 100 }, (_, i) => pacer.enqueue(i)));
    expect(sent).toHaveLength(100); // written at once while the buffer is small
    await done;
    state.buffered = HIGH_WATER + 1;
    const more = Promise.all(Array.from({ length: 50 }, (_, i) => pacer.enqueue(100 + i)));
    loop.run(() => loop.time >= 1000 || loop.immediates > 10_000);
    expect(sent).toHaveLength(100);
    state.buffered = LOW_WATER + 1; // below the high mark, but not drained enough yet
    loop.run(() => loop.time >= 2000 || loop.immediates > 20_000);
    expect(sent).toHaveLength(100);
    state.buffered = LOW_WATER - 1;
    loop.run();
    await more;
    expect(sent).toHaveLength(150);
  });

  it('a socket that stops draining is checked on timers that back off, not in a spin', async () => {
    const loop = new SimulatedLoop();
    const { sent, sink, state } = recordingSink(loop);
    const pacer = new CloudPacer<number>(0, sink, loop);
    state.buffered = HIGH_WATER + 1; // a peer that reads nothing
    const done = Promise.all([1, 2, 3].map((i) => pacer.enqueue(i)));
    // Ten simulated seconds (or a spin that never lets time pass).
    loop.run(() => loop.time >= 10_000 || loop.immediates > 10_000);
    expect(loop.time).toBeGreaterThanOrEqual(10_000);
    expect(sent).toEqual([]);
    expect(loop.immediates).toBeLessThanOrEqual(DRAIN_SPINS);
    expect(loop.timers).toBeLessThanOrEqual(10_000 / MAX_DRAIN_WAIT_MS + 10);
    // Once bytes leave again, writing goes on within one back-off wait.
    const drainedAt = loop.time;
    state.buffered = 0;
    loop.run();
    await done;
    expect(sent.map((s) => s.item)).toEqual([1, 2, 3]);
    expect(sent[0]!.at - drainedAt).toBeLessThanOrEqual(MAX_DRAIN_WAIT_MS);
  });

  it('a send whose listener clears the queue leaves it empty and consistent', async () => {
    const loop = new SimulatedLoop();
    let ready = false;
    const sent: number[] = [];
    const pacer: CloudPacer<number> = new CloudPacer<number>(
      0,
      {
        canSend: () => ready,
        send: (item) => {
          sent.push(item);
          if (item === 2) pacer.rejectAll(new Error('disconnected')); // a `sent` listener disconnects
          return true;
        },
        buffered: () => 0,
      },
      loop,
    );
    const outcomes = Promise.allSettled([1, 2, 3, 4].map((i) => pacer.enqueue(i)));
    ready = true;
    pacer.wake();
    loop.run();
    expect(sent).toEqual([1, 2]);
    // 2 was written, so it resolves; 3 and 4 were dropped.
    expect((await outcomes).map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(pacer.size).toBe(0);
    await pacer.enqueue(5);
    expect(sent).toEqual([1, 2, 5]);
  });
});
