/**
 * Progress in a notebook: one updatable output per long call (a download, a walk of pages). It
 * appears only after a short delay, so quick calls show nothing; it is updated a few times a
 * second at most; while the service makes the call wait it counts down ("rate-limited, resuming
 * in 2.1 s"); at the end it keeps a one-line summary.
 */
import {
  ProgressPacer,
  type ProgressReport,
  type ProgressSink,
  progressCounts,
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
  readonly #pacer: ProgressPacer;
  #last: ProgressReport | null = null;
  #displayId: string | null = null;
  #finished = false;

  constructor(label: string, options: ProgressDisplayOptions = {}) {
    this.#label = label;
    const interval = options.interval ?? 250;
    this.#pacer = new ProgressPacer(() => this.#show(), {
      delay: options.delay ?? 300,
      interval,
      countdownEvery: Math.max(500, interval),
    });
  }

  /** Records a report and shows it (throttled; at once when it says the service makes the call wait). */
  update(report: ProgressReport): void {
    if (this.#finished) return;
    this.#last = report;
    this.#pacer.report(report);
  }

  /** Ends the display: a shown output keeps the last counts and the time taken. */
  finish(): void {
    if (this.#finished) return;
    this.#pacer.stop();
    if (this.#displayId !== null) this.#write(`${this.text()} (done)`);
    this.#finished = true;
  }

  /** The output's text now. */
  text(): string {
    const pacer = this.#pacer;
    return `${this.#label}: ${progressCounts(this.#last)} · ${pacer.seconds()} s${pacer.suffix()}`;
  }

  #show(): void {
    if (this.#finished) return;
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
