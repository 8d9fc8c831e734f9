/**
 * Progress in a notebook: one updatable output per long call (a download, a walk of pages). It
 * appears only after a short delay, so quick calls show nothing; it is updated a few times a
 * second at most; while the service makes the call wait it counts down ("rate-limited, resuming
 * in 2.1 s"); at the end it keeps a one-line summary.
 */
import { rateLimitMessage } from 'scratchlab';
import type { ProgressReport, ProgressSink } from 'scratchlab/presentation';
import { newDisplayId, sendDisplay, updateDisplay } from './display.js';

const counts = new Intl.NumberFormat('en-US');

/** Options of {@link ProgressDisplay}. */
export interface ProgressDisplayOptions {
  /** Milliseconds before the output first appears (default 300). */
  delay?: number;
  /** Least milliseconds between two updates (default 250). */
  interval?: number;
}

/** The text of a report: `1,240 rows · 31 pages` or `12/100 assets · 3.0 MB`. */
export function progressText(report: ProgressReport | null): string {
  if (report === null) return 'starting';
  if ('total' in report) {
    const megabytes = (report.bytes / (1024 * 1024)).toFixed(1);
    return `${counts.format(report.done)}/${counts.format(report.total)} assets · ${megabytes} MB`;
  }
  const rows = `${counts.format(report.items)} ${report.items === 1 ? 'row' : 'rows'}`;
  return `${rows} · ${counts.format(report.pages)} ${report.pages === 1 ? 'page' : 'pages'}`;
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
  /** When the service's pause ends (`Date.now()` clock), while one is on. */
  #resumeAt = 0;
  #ticker: NodeJS.Timeout | undefined;

  constructor(label: string, options: ProgressDisplayOptions = {}) {
    this.#label = label;
    this.#delay = options.delay ?? 300;
    this.#interval = options.interval ?? 250;
  }

  /** Records a report and shows it (throttled; at once when it says the service makes the call wait). */
  update(report: ProgressReport): void {
    if (this.#finished) return;
    this.#last = report;
    if (report.rateLimited) {
      this.#resumeAt = Math.max(this.#resumeAt, Date.now() + report.rateLimited.resumeInMs);
      this.#show();
      clearInterval(this.#ticker);
      this.#ticker = setInterval(
        () => {
          this.#show();
          if (Date.now() >= this.#resumeAt) clearInterval(this.#ticker);
        },
        Math.max(500, this.#interval),
      ).unref();
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
    clearInterval(this.#ticker);
    this.#resumeAt = 0;
    if (this.#displayId !== null) this.#write(`${this.text()} (done)`);
    this.#finished = true;
  }

  /** The output's text now. */
  text(): string {
    const seconds = ((Date.now() - this.#started) / 1000).toFixed(1);
    const waitMs = this.#resumeAt - Date.now();
    const wait = waitMs > 0 ? ` · ${rateLimitMessage(waitMs)}` : '';
    return `${this.#label}: ${progressText(this.#last)} · ${seconds} s${wait}`;
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
