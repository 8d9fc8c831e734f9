/**
 * The sets a `Cloud` wrote that are not known to have reached the server yet: the latest value
 * of each variable, for the reconcile after an unexpected close (see `Cloud`).
 *
 * The cloud protocol has no acknowledgement, so "reached the server" is inferred:
 * - On a socket that can ping (`ws`, the default), from a pong. A server reads a connection's
 *   frames in order and answers a ping when it reads it, so the pong to a ping sent after a set
 *   confirms that set (and every earlier one). A server that is closing answers no ping, so a
 *   set the server ignored while closing is never confirmed. At most one ping is out at a time:
 *   one after a write, the next only once its pong is back and newer sets were written, and no
 *   sooner than `minProbeGapMs` after the last (so no more than one per set, one per round trip
 *   and one per gap, and none while no set is written). At the default pace of 0.1 s each set
 *   gets its own ping. (`Cloud` sends none at `rateLimit` 0, where they would slow a burst.)
 * - Whatever the socket, a set counts as arrived `windowMs` after it was written: a longer
 *   round trip than that is not expected, and the ledger stays small.
 *
 * Memory is bounded: one entry per variable, at most `maxEntries`, none older than `windowMs`.
 */

/** One variable's latest write. */
interface LedgerEntry {
  /** The name without `☁ `. */
  readonly name: string;
  /** The value as it was written. */
  readonly value: string;
}

/** Options of a {@link WriteLedger}. */
interface WriteLedgerOptions {
  /**
   * Sends a probe answered once the server has read everything written before it (a ping);
   * false when the socket cannot. `onAnswer` is called at most once.
   */
  probe(onAnswer: () => void): boolean;
  /** Age after which a write counts as arrived, in milliseconds (default 2000). */
  windowMs?: number;
  /** Least time between two probes, in milliseconds (default 20). */
  minProbeGapMs?: number;
  /** Variables remembered at most; the least recently written go first (default 1024). */
  maxEntries?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

interface Entry {
  readonly name: string;
  value: string;
  seq: number;
  at: number;
}

/** The default age after which a write counts as arrived. */
const LEDGER_WINDOW_MS = 2000;
const DEFAULT_MAX_ENTRIES = 1024;
/** Pings cost the server a pong each: a burst of sets shares one per this many milliseconds. */
const DEFAULT_MIN_PROBE_GAP_MS = 20;

/** The unconfirmed writes of one `Cloud`, across its sockets (see the module TSDoc). */
export class WriteLedger {
  readonly #probe: (onAnswer: () => void) => boolean;
  readonly #windowMs: number;
  readonly #minProbeGapMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** By name, least recently written first (a rewrite moves its entry to the end). */
  readonly #entries = new Map<string, Entry>();
  #seq = 0;
  /** The entry written last (the Map's last, unless it was removed since). */
  #last: Entry | null = null;
  /** Whether a probe is out and unanswered on the current socket. */
  #probing = false;
  #lastProbeAt = Number.NEGATIVE_INFINITY;
  /** A probe waiting for its gap. */
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped when the socket changes: answers to probes sent on an earlier one are ignored. */
  #generation = 0;

  constructor(options: WriteLedgerOptions) {
    this.#probe = options.probe;
    this.#windowMs = options.windowMs ?? LEDGER_WINDOW_MS;
    this.#minProbeGapMs = options.minProbeGapMs ?? DEFAULT_MIN_PROBE_GAP_MS;
    this.#maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Variables with a write not known to have arrived. */
  get size(): number {
    this.#expire(this.#now());
    return this.#entries.size;
  }

  /** A set was written to the socket. */
  written(name: string, value: string): void {
    const at = this.#now();
    const seq = ++this.#seq;
    const last = this.#last;
    if (last !== null && last.name === name && this.#entries.get(name) === last) {
      // The variable written last, again (a burst on one variable): it stays last, so update it.
      last.value = value;
      last.seq = seq;
      last.at = at;
    } else {
      const entry: Entry = { name, value, seq, at };
      this.#entries.delete(name);
      this.#entries.set(name, entry);
      this.#last = entry;
    }
    this.#expire(at);
    while (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#scheduleProbe();
  }

  /**
   * The server sent a value for `name` after our write: the variable moved on, and our value must
   * not be brought back over the newer one after a reconnect.
   */
  overtaken(name: string): void {
    this.#entries.delete(name);
  }

  /**
   * The connection went down: answers the writes that may not have reached the server, oldest
   * first, and starts over empty (for the next socket).
   */
  takeUnconfirmed(): LedgerEntry[] {
    this.#expire(this.#now());
    const out = [...this.#entries.values()].map(({ name, value }) => ({ name, value }));
    this.reset();
    return out;
  }

  /** Forgets every write and any probe under way (a new socket, or `disconnect()`). */
  reset(): void {
    this.#entries.clear();
    this.#probing = false;
    this.#generation++;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Sends a probe now, or once the gap since the last one has passed; nothing if one is out or due. */
  #scheduleProbe(): void {
    if (this.#probing || this.#timer !== null || this.#entries.size === 0) return;
    const wait = this.#lastProbeAt + this.#minProbeGapMs - this.#now();
    if (wait <= 0) {
      this.#sendProbe();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#scheduleProbe();
    }, wait);
    // A pending probe must not keep a process alive on its own.
    this.#timer.unref?.();
  }

  #sendProbe(): void {
    const generation = this.#generation;
    const upTo = this.#seq;
    this.#lastProbeAt = this.#now();
    this.#probing = this.#probe(() => {
      if (generation !== this.#generation) return;
      this.#probing = false;
      // Everything written before the probe has reached the server.
      for (const [name, entry] of this.#entries) if (entry.seq <= upTo) this.#entries.delete(name);
      this.#scheduleProbe();
    });
  }

  #expire(now: number): void {
    // Entries are ordered by write time, so the expired ones are at the front.
    for (const [name, entry] of this.#entries) {
      if (now - entry.at < this.#windowMs) break;
      this.#entries.delete(name);
    }
  }
}
