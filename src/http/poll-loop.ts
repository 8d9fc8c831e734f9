/**
 * The loop behind the SDK's pollers (`CloudEvents` over the cloud log, `MessageEvents` over the
 * message list): poll, wait `interval`, poll again, until stopped. `start()` settles when the
 * first poll succeeded (the poller is "ready"); a failing poll is reported and the loop goes on;
 * `stop()` abandons a poll under way (its signal aborts) and rejects a `start()` not yet settled.
 * Each start is a new run, so a poll of an old run that finishes late changes nothing.
 */

/** What one poll is given. */
export interface PollRun {
  /** Aborts when the loop stops (pass it to the requests of the poll). */
  readonly signal: AbortSignal;
  /** False once the loop was stopped or restarted: a poll checks it between emits (a listener may stop it). */
  live(): boolean;
}

/** Options of {@link PollLoop}. */
export interface PollLoopOptions {
  /** Seconds from the end of one poll to the start of the next (above 0). */
  interval: number;
  /**
   * One poll. Resolving marks the loop ready (after the first); resolving `false` ends the polling
   * (the source pushes from then on) while the loop stays running. Throwing is reported to `onError`.
   */
  poll: (run: PollRun) => Promise<boolean | undefined>;
  /** A poll failed; the loop goes on. */
  onError: (error: Error) => void;
  /** The first poll succeeded. */
  onReady: () => void;
  /** Who stops, for the rejection of a `start()` that had not settled (`"CloudEvents"`). */
  name: string;
}

export class PollLoop {
  readonly #options: PollLoopOptions;
  #run = 0;
  #ready = false;
  #abort: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #started: Promise<void> | null = null;
  #settle: { resolve: () => void; reject: (error: Error) => void } | null = null;

  constructor(options: PollLoopOptions) {
    if (!Number.isFinite(options.interval) || options.interval <= 0)
      throw new RangeError(`interval must be a number of seconds above 0, got ${options.interval}`);
    this.#options = options;
  }

  /** True between `start()` and `stop()`. */
  get running(): boolean {
    return this.#started !== null;
  }

  /** True once the first poll of this run succeeded. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Starts polling; settles when the first poll succeeded. While running, answers the same promise. */
  start(): Promise<void> {
    if (this.#started) return this.#started;
    const run = ++this.#run;
    this.#ready = false;
    const abort = new AbortController();
    this.#abort = abort;
    const started = new Promise<void>((resolve, reject) => {
      this.#settle = { resolve, reject };
    });
    // Failures are reported to onError too: a caller who ignores the promise must not crash.
    started.catch(() => undefined);
    this.#started = started;
    const live = () => run === this.#run;
    void this.#poll({ signal: abort.signal, live });
    return started;
  }

  /** Stops; a `start()` not yet settled rejects with `reason` (by default: stopped before ready). */
  stop(reason?: Error): void {
    this.#run++;
    this.#ready = false;
    this.#started = null;
    this.#abort?.abort(new Error(`${this.#options.name} was stopped`));
    this.#abort = null;
    // Stryker disable next-line ConditionalExpression: clearTimeout(null) does nothing either
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const settle = this.#settle;
    this.#settle = null;
    settle?.reject(reason ?? new Error(`${this.#options.name} was stopped before it was ready`));
  }

  async #poll(run: PollRun): Promise<void> {
    let again: boolean | undefined = true;
    try {
      again = await this.#options.poll(run);
      if (!run.live()) return;
      if (!this.#ready) {
        this.#ready = true;
        const settle = this.#settle;
        this.#settle = null;
        // Stryker disable next-line OptionalChaining: a live run not yet ready always has its start() to settle
        settle?.resolve();
        this.#options.onReady();
      }
    } catch (thrown) {
      if (!run.live()) return;
      this.#options.onError(thrown instanceof Error ? thrown : new Error(String(thrown)));
    }
    if (!run.live() || again === false) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#poll(run);
    }, this.#options.interval * 1000);
  }
}
