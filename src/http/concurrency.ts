/**
 * Runs `task` over `items` with at most `limit` running at once; results keep the input order.
 * The first failure stops new tasks from starting, aborts the signal the others were given (so
 * their requests still waiting for the request budget never go out) and rejects.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number, signal: AbortSignal) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const stop = new AbortController();
  const taskSignal = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const worker = async () => {
    while (!failed && next < items.length) {
      signal?.throwIfAborted();
      const index = next++;
      try {
        results[index] = await task(items[index]!, index, taskSignal);
      } catch (error) {
        if (!failed) {
          failed = true;
          firstError = error;
          stop.abort(new DOMException('another task failed', 'AbortError'));
        }
        return;
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker);
  await Promise.all(workers);
  // The first failure is the one reported (the later ones are its consequence: aborted siblings).
  if (failed) throw firstError;
  return results;
}
