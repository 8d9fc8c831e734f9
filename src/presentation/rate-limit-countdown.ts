/**
 * The countdown a progress display shows while the service makes a call wait ("rate-limited,
 * resuming in 2.1 s"). No reports come during such a pause, so the countdown redraws its display
 * itself until the pause is over. Shared by the REPL's bar and the kernel's output.
 */
import { rateLimitMessage } from '../http/request-budget.js';

export class RateLimitCountdown {
  readonly #redraw: () => void;
  readonly #every: number;
  /** When the pause ends (`Date.now()` clock); 0 when none is on. */
  #resumeAt = 0;
  #ticker: NodeJS.Timeout | undefined;

  /**
   * @param redraw draws the display (it reads {@link suffix})
   * @param every milliseconds between two redraws during a pause
   */
  constructor(redraw: () => void, every: number) {
    if (typeof redraw !== 'function') throw new TypeError('redraw must be a function');
    if (!Number.isFinite(every) || every <= 0) throw new RangeError(`every must be above 0 ms, got ${every}`);
    this.#redraw = redraw;
    this.#every = every;
  }

  /** A pause of `resumeInMs` began: redraws now, then every few moments until it is over. */
  pause(resumeInMs: number): void {
    this.#resumeAt = Math.max(this.#resumeAt, Date.now() + resumeInMs);
    this.#redraw();
    clearInterval(this.#ticker);
    this.#ticker = setInterval(() => {
      this.#redraw();
      if (Date.now() >= this.#resumeAt) clearInterval(this.#ticker);
    }, this.#every).unref();
  }

  /** ` · rate-limited, resuming in 2.1 s` while a pause is on, else the empty string. */
  suffix(): string {
    const waitMs = this.#resumeAt - Date.now();
    return waitMs > 0 ? ` · ${rateLimitMessage(waitMs)}` : '';
  }

  /** Ends the countdown (the display is done): no more redraws, no suffix. */
  stop(): void {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    this.#resumeAt = 0;
  }
}
