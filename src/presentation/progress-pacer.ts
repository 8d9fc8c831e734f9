/**
 * When a progress display draws, shared by the REPL's bar and the kernel's output: not before a
 * short delay (quick calls show nothing), then at most once per interval; a pause of the service
 * at once, counted down until it is over (see {@link RateLimitCountdown}).
 */
import type { ProgressReport } from './auto-progress.js';
import { RateLimitCountdown } from './rate-limit-countdown.js';

/** Options of {@link ProgressPacer}, in milliseconds. */
export interface ProgressPacerOptions {
  /** Before the first draw. */
  delay: number;
  /** Least time between two draws for reports. */
  interval: number;
  /** Between two redraws of the countdown during a pause. */
  countdownEvery: number;
}

export class ProgressPacer {
  readonly #draw: () => void;
  readonly #delay: number;
  readonly #interval: number;
  readonly #started = Date.now();
  readonly #countdown: RateLimitCountdown;
  #drawnAt = 0;
  #timer: NodeJS.Timeout | undefined;

  /** @param draw draws the display now (it reads {@link seconds} and {@link suffix}) */
  constructor(draw: () => void, options: ProgressPacerOptions) {
    if (typeof draw !== 'function') throw new TypeError('draw must be a function');
    for (const key of ['delay', 'interval'] as const) {
      const value = options[key];
      if (!Number.isFinite(value) || value < 0)
        throw new RangeError(`${key} must be 0 ms or more, got ${value}`);
    }
    this.#draw = draw;
    this.#delay = options.delay;
    this.#interval = options.interval;
    this.#countdown = new RateLimitCountdown(() => this.#drawNow(), options.countdownEvery);
  }

  /** A report came: draws now, once the delay is over, or not at all (too soon after the last draw). */
  report(report: ProgressReport): void {
    if (report.rateLimited) {
      this.#countdown.pause(report.rateLimited.resumeInMs);
      return;
    }
    const now = Date.now();
    const age = now - this.#started;
    if (age < this.#delay) {
      // Draw when the delay is over, even if no report comes by then.
      this.#timer ??= setTimeout(() => this.#drawNow(), this.#delay - age).unref();
      return;
    }
    if (now - this.#drawnAt >= this.#interval) this.#drawNow();
  }

  /** Seconds since the pacer was made, with one decimal (`12.3`). */
  seconds(): string {
    return ((Date.now() - this.#started) / 1000).toFixed(1);
  }

  /** ` · rate-limited, resuming in 2.1 s` while a pause of the service is on, else empty. */
  suffix(): string {
    return this.#countdown.suffix();
  }

  /** No more draws (the display is done). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#countdown.stop();
  }

  #drawNow(): void {
    this.#timer = undefined;
    this.#drawnAt = Date.now();
    this.#draw();
  }
}
