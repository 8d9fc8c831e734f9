/**
 * The single queue every set goes through: serialized, in call order, with at least `interval`
 * milliseconds between two sends (measured on the monotonic clock, so no bursts even when the
 * wall clock jumps or a reconnect drained a backlog).
 *
 * An item leaves the queue only when `send` reports that an open, handshaken socket took it;
 * otherwise it stays at the head and the pump sleeps until {@link CloudPacer.wake}.
 */
import { setTimeout as delay, setImmediate as nextTurn } from 'node:timers/promises';

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** Below this many milliseconds the pump spins on `setImmediate` instead of a timer: timers round to whole ms. */
const SPIN_MS = 2;
/** With no interval, yield to I/O after this many sends so a long backlog does not starve the socket. */
const YIELD_EVERY = 64;

export class CloudPacer<T> {
  readonly #intervalMs: number;
  readonly #canSend: () => boolean;
  readonly #send: (item: T) => boolean;
  readonly #queue: Waiting<T>[] = [];
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #pumping = false;
  #rewake = false;

  /**
   * @param intervalMs least time between two sends
   * @param canSend whether a socket is ready now
   * @param send writes one item; false when it was not written (it then stays queued)
   */
  constructor(intervalMs: number, canSend: () => boolean, send: (item: T) => boolean) {
    this.#intervalMs = intervalMs;
    this.#canSend = canSend;
    this.#send = send;
  }

  /** Items not sent yet. */
  get size(): number {
    return this.#queue.length;
  }

  /** Queues an item; the promise settles when it was written, or when the queue is cleared. */
  enqueue(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.wake();
    });
  }

  /**
   * Puts items back at the head of the queue, ahead of everything queued, in the given order.
   * Their callers were answered already, so nothing settles when they go out or are cleared.
   */
  requeue(items: readonly T[]): void {
    const noop = () => undefined;
    this.#queue.unshift(...items.map((item) => ({ item, resolve: noop, reject: noop })));
    this.wake();
  }

  /** Starts sending if a socket is ready (call it after every handshake). */
  wake(): void {
    if (this.#pumping) {
      this.#rewake = true;
      return;
    }
    void this.#pump();
  }

  /** Rejects every queued item with `error` and empties the queue. */
  rejectAll(error: Error): void {
    const dropped = this.#queue.splice(0);
    for (const waiting of dropped) waiting.reject(error);
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      let sent = 0;
      while (this.#queue.length > 0 && this.#canSend()) {
        await this.#waitTurn();
        const head = this.#queue[0];
        if (!head || !this.#canSend()) break; // cleared, or the socket went away while we waited
        // Pace from the moment a set goes out, so the time a write takes is not added to each gap.
        const startedAt = performance.now();
        if (!this.#send(head.item)) break; // not written: keep it queued until the next wake()
        this.#lastSentAt = startedAt;
        this.#queue.shift();
        head.resolve();
        if (this.#intervalMs === 0 && ++sent % YIELD_EVERY === 0) await nextTurn();
      }
    } finally {
      this.#pumping = false;
    }
    if (this.#rewake) {
      this.#rewake = false;
      if (this.#queue.length > 0 && this.#canSend()) void this.#pump();
    }
  }

  async #waitTurn(): Promise<void> {
    const due = this.#lastSentAt + this.#intervalMs;
    for (;;) {
      const remaining = due - performance.now();
      if (remaining <= 0) return;
      if (remaining > SPIN_MS) await delay(remaining - SPIN_MS / 2);
      else await nextTurn();
    }
  }
}
