/**
 * The single queue every set goes through: serialized, in call order, at least about `interval`
 * milliseconds apart.
 *
 * Pacing runs on a schedule of deadlines on the monotonic clock (`performance.now`): the next
 * deadline is the previous deadline plus the interval, not "now plus the interval", so a timer
 * that fires late (a loaded machine, a busy event loop) does not stretch every gap: the next gap
 * is shorter by the lateness, and the mean stays at the interval. Lateness is absorbed only up
 * to a quarter of the interval (`ABSORB`; on a loaded machine timers and threads run late by
 * tens of milliseconds now and then): a send later than that moves the schedule instead, so a
 * stall never turns into a burst of catch-up sends, and no gap is shorter than 3/4 of the interval. A queue that was empty, or a socket that was
 * not ready, starts a fresh schedule (the first set goes at once), so idle time is never "made up".
 *
 * With no interval (`rateLimit` 0) the queue is written out as fast as the socket takes it, in a
 * plain loop (no promise per step), yielding to I/O every few hundred sets and whenever the
 * socket's own buffer passes a bound (backpressure: memory stays bounded whatever the backlog).
 * While the buffer drains the pump checks it again at once; when it stops shrinking (a peer that
 * does not read) the checks back off to timers of up to {@link MAX_DRAIN_WAIT_MS}, not a spin.
 *
 * An item leaves the queue only when `send` reports that an open, handshaken socket took it;
 * otherwise it stays at the head and the pump sleeps until {@link CloudPacer.wake}.
 */

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** How the pacer sees the socket. */
interface PacerSink<T> {
  /** Whether a socket is ready now. */
  canSend(): boolean;
  /** Writes one item; false when it was not written (it then stays queued). */
  send(item: T): boolean;
  /** Bytes the socket holds that the network has not taken yet (0 when unknown). */
  buffered(): number;
}

/** The clock and timers the pacer runs on (the process's own by default; a simulation in tests). */
export interface PacerClock {
  /** Monotonic milliseconds. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  setImmediate(callback: () => void): unknown;
}

const PROCESS_CLOCK: PacerClock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  setImmediate: (callback) => setImmediate(callback),
};

/** Fraction of the interval by which a late send may shorten the next gap. */
export const ABSORB = 0.25;
/** A send this close to its deadline (ms) goes now: timers round to whole milliseconds. */
const EARLY_MS = 1;
/** With no interval, yield to I/O after this many sends so a long backlog does not starve the process. */
export const YIELD_EVERY = 512;
/** Stop writing while the socket holds more than this many bytes ... */
export const HIGH_WATER = 1 << 20;
/** ... and go on once it holds less than this. */
export const LOW_WATER = 1 << 18;
/**
 * Checks of a full buffer in a row that saw no byte leave, made at once, before the pump waits on
 * timers instead (a peer that stopped reading must not keep the process spinning) ...
 */
export const DRAIN_SPINS = 16;
/** ... timers that double from 1 ms up to this many, until bytes leave again. */
export const MAX_DRAIN_WAIT_MS = 50;

const noop = () => undefined;

export class CloudPacer<T> {
  readonly #intervalMs: number;
  readonly #absorbMs: number;
  readonly #sink: PacerSink<T>;
  readonly #clock: PacerClock;
  /** Queue storage: items from `#head` on are waiting (a head index keeps `shift` O(1)). */
  #items: Waiting<T>[] = [];
  #head = 0;
  /** Deadline of the next send on the monotonic clock. */
  #due = Number.NEGATIVE_INFINITY;
  /** Whether a timer or an immediate will run the pump. */
  #scheduled = false;
  /** Whether the pump stopped for want of work or of a socket (the next start is a fresh schedule). */
  #idle = true;
  /** Whether we are waiting for the socket's buffer to drain. */
  #draining = false;
  /** While draining: the buffer's size at the last check, and checks in a row it did not shrink. */
  #lastBuffered = 0;
  #stalls = 0;
  /** Set while the pump runs: a `wake()` from inside a send (an event listener) changes nothing. */
  #pumping = false;

  /**
   * @param intervalMs least time between two sends, on average exactly this
   * @param sink the socket side
   * @param clock the clock and timers (the process's by default)
   */
  constructor(intervalMs: number, sink: PacerSink<T>, clock: PacerClock = PROCESS_CLOCK) {
    this.#intervalMs = intervalMs;
    this.#absorbMs = intervalMs * ABSORB;
    this.#sink = sink;
    this.#clock = clock;
  }

  /** Items not sent yet. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  /** Queues an item; the promise settles when it was written, or when the queue is cleared. */
  enqueue(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#items.push({ item, resolve, reject });
      this.wake();
    });
  }

  /**
   * Puts items back at the head of the queue, ahead of everything queued, in the given order.
   * Their callers were answered already, so nothing settles when they go out or are cleared.
   */
  requeue(items: readonly T[]): void {
    const back = items.map((item) => ({ item, resolve: noop, reject: noop }));
    this.#items = [...back, ...this.#items.slice(this.#head)];
    this.#head = 0;
    this.wake();
  }

  /** Starts sending if a socket is ready (call it after every handshake). */
  wake(): void {
    // The pump is running or due anyway: it will see the new work.
    if (this.#pumping || this.#scheduled) return;
    this.#pumping = true;
    try {
      this.#pump();
    } finally {
      this.#pumping = false;
    }
  }

  /** Rejects every queued item with `error` and empties the queue. */
  rejectAll(error: Error): void {
    const dropped = this.#items.slice(this.#head);
    this.#items = [];
    this.#head = 0;
    for (const waiting of dropped) waiting.reject(error);
  }

  #pump(): void {
    const sink = this.#sink;
    let sent = 0;
    while (this.size > 0) {
      if (!sink.canSend()) break;
      // No clock at all without an interval (the hot path of a burst).
      const now = this.#intervalMs > 0 ? this.#clock.now() : 0;
      if (this.#idle) {
        // A fresh start: the time spent idle or offline is not a debt to pay back in a burst.
        this.#idle = false;
        if (this.#due < now) this.#due = now;
      }
      if (this.#intervalMs > 0) {
        const wait = this.#due - now;
        if (wait > EARLY_MS) {
          this.#scheduled = true;
          this.#clock.setTimeout(this.#resume, wait);
          return;
        }
      }
      const buffered = sink.buffered();
      if (buffered > HIGH_WATER || (this.#draining && buffered > LOW_WATER)) {
        this.#stalls = this.#draining && buffered >= this.#lastBuffered ? this.#stalls + 1 : 0;
        this.#lastBuffered = buffered;
        this.#draining = true;
        this.#scheduled = true;
        if (this.#stalls < DRAIN_SPINS) this.#clock.setImmediate(this.#resume);
        else
          this.#clock.setTimeout(
            this.#resume,
            Math.min(MAX_DRAIN_WAIT_MS, 2 ** (this.#stalls - DRAIN_SPINS)),
          );
        return;
      }
      this.#draining = false;
      // Off the queue before the send: a listener of the send (a `sent` event) may clear the
      // queue (`disconnect()`), and this item, written, must resolve, not be rejected with them.
      const items = this.#items;
      const index = this.#head++;
      const head = items[index]!;
      if (!sink.send(head.item)) {
        this.#head = index; // not written (and no listener ran): keep it queued until the next wake()
        break;
      }
      if (this.#items === items) {
        items[index] = undefined as unknown as Waiting<T>;
        if (this.#head >= 1024 && this.#head * 2 >= items.length) {
          this.#items = items.slice(this.#head);
          this.#head = 0;
        }
      }
      if (this.#intervalMs > 0) {
        // The previous deadline plus the interval; a send later than the absorbable lateness
        // moves the schedule instead (no catch-up burst).
        this.#due = Math.max(this.#due, now - this.#absorbMs) + this.#intervalMs;
      }
      head.resolve();
      if (++sent >= YIELD_EVERY) {
        this.#scheduled = true;
        this.#clock.setImmediate(this.#resume);
        return;
      }
    }
    this.#idle = true;
  }

  readonly #resume = (): void => {
    this.#scheduled = false;
    this.wake();
  };
}
