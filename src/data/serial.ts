/**
 * One DuckDB connection runs one thing at a time: a load's transaction must not interleave with
 * the recorder's or a query. `Serial` runs tasks in the order they were asked for.
 */
export class Serial {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task asked for before it; answers its result. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
