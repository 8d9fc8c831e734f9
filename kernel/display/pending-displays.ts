/**
 * Displays still being prepared when a cell's code returns. `show(x)` and `plot(x)` work
 * asynchronously (awaiting a paged list, rendering SVG); a display sent after its cell has finished
 * is lost, so the kernel waits for every pending display before it reports the cell done, whether
 * or not the cell awaited it.
 */
export class PendingDisplays {
  readonly #pending = new Set<Promise<unknown>>();
  readonly #ours = new WeakSet<object>();
  readonly #reported = new WeakSet<object>();

  /** Registers `work`; the cell ends only once it has settled. Returns `work` itself. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#ours.add(work);
    this.#pending.add(work);
    // Observed here, so an un-awaited failure is reported by settle(), not as an unhandled rejection.
    work.then(
      () => this.#pending.delete(work),
      () => this.#pending.delete(work),
    );
    return work;
  }

  /** Whether `value` is a promise from {@link track} (a cell's value that prints nothing itself). */
  isTracked(value: unknown): boolean {
    return typeof value === 'object' && value !== null && this.#ours.has(value);
  }

  /** Notes that `error` has been printed (by the cell's own error output), so settle() skips it. */
  markReported(error: unknown): void {
    if (typeof error === 'object' && error !== null) this.#reported.add(error);
  }

  /**
   * Waits until nothing is pending (work may start more work), then reports each failure nobody
   * printed yet. Answers whether all of it succeeded.
   */
  async settle(report: (error: unknown) => void): Promise<boolean> {
    let ok = true;
    while (this.#pending.size > 0) {
      const results = await Promise.allSettled([...this.#pending]);
      for (const result of results) {
        if (result.status === 'fulfilled') continue;
        ok = false;
        const error: unknown = result.reason;
        const key = typeof error === 'object' && error !== null ? error : null;
        if (key && this.#reported.has(key)) continue;
        if (key) this.#reported.add(key);
        report(error);
      }
    }
    return ok;
  }
}
