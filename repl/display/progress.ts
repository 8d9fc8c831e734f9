/**
 * A progress bar on stderr for long operations: asset transfers (a known total, a bar) and page
 * walks (no total, a spinner and counts). It appears only after a short delay, so quick calls
 * print nothing, and it erases itself when done, leaving the line to the result. While the
 * service makes the work wait (a 429), it counts down: "rate-limited, resuming in 2.1 s".
 */
import {
  isTransferReport,
  ProgressPacer,
  type ProgressReport,
  progressCounts,
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
  readonly #pacer: ProgressPacer;
  #last: ProgressReport | null = null;
  #visible = false;
  #finished = false;
  #frame = 0;

  constructor(label: string, options: ProgressBarOptions = {}) {
    this.#label = label;
    this.#stream = options.stream ?? process.stderr;
    const interval = options.interval ?? 80;
    this.#pacer = new ProgressPacer(() => this.#draw(), {
      delay: options.delay ?? 150,
      interval,
      countdownEvery: Math.max(100, interval),
    });
    active.add(this);
  }

  /** Records a report; finishes the bar on the last one. */
  update(report: ProgressReport): void {
    if (this.#finished) return;
    this.#last = report;
    if (isTransferReport(report) ? report.done >= report.total : report.done) {
      this.finish();
      return;
    }
    this.#pacer.report(report);
  }

  /** Erases the bar (if it was drawn); later reports are ignored. */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    active.delete(this);
    this.#pacer.stop();
    if (this.#visible) this.#stream.write('\r\x1b[K');
    this.#visible = false;
  }

  /** The bar's text for the last report (no escapes), cut to `width`. */
  text(width: number): string {
    const report = this.#last;
    let gauge: string;
    if (report && isTransferReport(report)) {
      const ratio = report.total > 0 ? Math.min(1, report.done / report.total) : 0;
      const full = Math.round(ratio * BAR_WIDTH);
      gauge = `${'█'.repeat(full)}${'░'.repeat(BAR_WIDTH - full)}`;
    } else {
      gauge = SPINNER[this.#frame % SPINNER.length]!;
    }
    const body = `${gauge} ${progressCounts(report)} · ${this.#pacer.seconds()}s${this.#pacer.suffix()}`;
    return truncateToWidth(`${this.#label} ${body}`, Math.max(10, width - 1));
  }

  #draw(): void {
    if (this.#finished || !this.#stream.isTTY) return;
    this.#frame++;
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
