/**
 * A progress bar on stderr for long operations: asset transfers (a known total, a bar) and page
 * walks (no total, a spinner and counts). It appears only after a short delay, so quick calls
 * print nothing, and it erases itself when done, leaving the line to the result. While the
 * service makes the work wait (a 429), it counts down: "rate-limited, resuming in 2.1 s".
 */
import {
  isTransferReport,
  type ProgressReport,
  progressCounts,
  RateLimitCountdown,
  truncateToWidth,
} from 'scratchlab/presentation';

/** A stream a bar can be drawn on (stderr). */
interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Options of {@link ProgressBar}. */
interface ProgressBarOptions {
  /** Where to draw (default `process.stderr`); nothing is drawn unless it is a terminal. */
  stream?: ProgressStream;
  /** Milliseconds before the bar first appears (default 150). */
  delay?: number;
  /** Least milliseconds between two redraws (default 80). */
  interval?: number;
}

/** Bars drawn and not finished, so the REPL can erase them when an input ends (even by an error). */
const active = new Set<ProgressBar>();

/** Erases every bar still on screen: called when an input has been evaluated. */
export function finishProgressBars(): void {
  for (const bar of active) bar.finish();
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const BAR_WIDTH = 24;

/** One bar: feed it reports, it draws (throttled) and erases itself when the work is done. */
export class ProgressBar {
  readonly #label: string;
  readonly #stream: ProgressStream;
  readonly #delay: number;
  readonly #interval: number;
  readonly #started = Date.now();
  #last: ProgressReport | null = null;
  #drawnAt = 0;
  #visible = false;
  #finished = false;
  #frame = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #countdown: RateLimitCountdown;

  constructor(label: string, options: ProgressBarOptions = {}) {
    this.#label = label;
    this.#stream = options.stream ?? process.stderr;
    this.#delay = options.delay ?? 150;
    this.#interval = options.interval ?? 80;
    this.#countdown = new RateLimitCountdown(() => this.#draw(), Math.max(100, this.#interval));
    active.add(this);
  }

  /** Records a report; finishes the bar on the last one. */
  update(report: ProgressReport): void {
    if (this.#finished) return;
    this.#last = report;
    if (report.rateLimited) this.#countdown.pause(report.rateLimited.resumeInMs);
    if (isTransferReport(report) ? report.done >= report.total : report.done) {
      this.finish();
      return;
    }
    const now = Date.now();
    if (now - this.#started < this.#delay) {
      // Draw when the delay is over, even if no report comes by then.
      this.#timer ??= setTimeout(() => this.#draw(), this.#delay - (now - this.#started)).unref();
      return;
    }
    if (now - this.#drawnAt >= this.#interval) this.#draw();
  }

  /** Erases the bar (if it was drawn); later reports are ignored. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    active.delete(this);
    clearTimeout(this.#timer);
    this.#countdown.stop();
    if (this.#visible) this.#stream.write('\r\x1b[K');
    this.#visible = false;
  }

  /** The bar's text for the last report (no escapes), cut to `width`. */
  text(width: number): string {
    const report = this.#last;
    const seconds = ((Date.now() - this.#started) / 1000).toFixed(1);
    let gauge: string;
    if (report && isTransferReport(report)) {
      const ratio = report.total > 0 ? Math.min(1, report.done / report.total) : 0;
      const full = Math.round(ratio * BAR_WIDTH);
      gauge = `${'█'.repeat(full)}${'░'.repeat(BAR_WIDTH - full)}`;
    } else {
      gauge = SPINNER[this.#frame % SPINNER.length]!;
    }
    const body = `${gauge} ${progressCounts(report)} · ${seconds}s${this.#countdown.suffix()}`;
    return truncateToWidth(`${this.#label} ${body}`, Math.max(10, width - 1));
  }

  #draw(): void {
    this.#timer = undefined;
    if (this.#finished || !this.#stream.isTTY) return;
    this.#frame++;
    this.#drawnAt = Date.now();
    this.#visible = true;
    this.#stream.write(`\r\x1b[K${this.text(this.#stream.columns ?? 80)}`);
  }
}

/**
 * An `onProgress` callback that draws a bar labelled `label` on stderr, for any SDK call that
 * reports progress: `session.projects.save(id, files, { onProgress: withProgress('save') })`.
 */
export function withProgress(
  label = 'working',
  options: ProgressBarOptions = {},
): (report: ProgressReport) => void {
  const bar = new ProgressBar(label, options);
  return (report) => bar.update(report);
}
