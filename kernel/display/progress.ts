/**
 * Progress in a notebook: one updatable output per long call (a download, a walk of pages). It
 * appears only after a short delay, so quick calls show nothing; it is updated a few times a
 * second at most; while the service makes the call wait it counts down ("rate-limited, resuming
 * in 2.1 s"); at the end it keeps a one-line summary.
 */
import {
  type ProgressReport,
  type ProgressSink,
  progressCounts,
  RateLimitCountdown,
} from 'scratchlab/presentation';
import { newDisplayId, sendDisplay, updateDisplay } from './display.js';

/** Options of {@link ProgressDisplay}. */
export interface ProgressDisplayOptions {
  /** Milliseconds before the output first appears (default 300). */
  delay?: number;
  /** Least milliseconds between two updates (default 250). */
  interval?: number;
}

/** One call's output in the notebook: feed it reports; finish it when the call ends. */
export class ProgressDisplay implements ProgressSink {
  readonly #label: string;
  readonly #delay: number;
  readonly #interval: number;
  readonly #started = Date.now();
  #last: ProgressReport | null = null;
  #displayId: string | null = null;
  #shownAt = 0;
  #finished = false;
  #timer: NodeJS.Timeout | undefined;
  readonly #countdown: RateLimitCountdown;

  constructor(label: string, options: ProgressDisplayOptions = {}) {
    this.#label = label;
    this.#delay = options.delay ?? 300;
    this.#interval = options.interval ?? 250;
    this.#countdown = new RateLimitCountdown(() => this.#show(), Math.max(500, this.#interval));
  }

  /** Records a report and shows it (throttled; at once when it says the service makes the call wait). */
  update(report: ProgressReport): void {
    if (this.#finished) return;
    this.#last = report;
    if (report.rateLimited) {
      this.#countdown.pause(report.rateLimited.resumeInMs);
      return;
    }
    const now = Date.now();
    if (now - this.#started < this.#delay) {
      this.#timer ??= setTimeout(() => this.#show(), this.#delay - (now - this.#started)).unref();
      return;
    }
    if (now - this.#shownAt >= this.#interval) this.#show();
  }

  /** Ends the display: a shown output keeps the last counts and the time taken. */
  finish(): void {
    if (this.#finished) return;
    clearTimeout(this.#timer);
    this.#countdown.stop();
    if (this.#displayId !== null) this.#write(`${this.text()} (done)`);
    this.#finished = true;
  }

  /** The output's text now. */
  text(): string {
    const seconds = ((Date.now() - this.#started) / 1000).toFixed(1);
    return `${this.#label}: ${progressCounts(this.#last)} · ${seconds} s${this.#countdown.suffix()}`;
  }

  #show(): void {
    this.#timer = undefined;
    if (this.#finished) return;
    this.#shownAt = Date.now();
    this.#write(this.text());
  }

  #write(text: string): void {
    const bundle = { 'text/plain': text };
    try {
      if (this.#displayId === null) {
        this.#displayId = newDisplayId();
        sendDisplay(bundle, { displayId: this.#displayId });
      } else {
        updateDisplay(bundle, this.#displayId);
      }
    } catch {
      // No cell is running (a call left running after its cell): nowhere to show progress.
    }
  }
}
