/**
 * Two parts of the Jupyter protocol's `execute_request` that tslab's handler leaves out:
 *
 * - A failed cell's reply carries `ename` and `evalue`. tslab replies with a bare
 *   `status: 'error'`, so `nbconvert --execute` reported a failing cell as `<Error>: ` with no
 *   reason; now it says e.g. `ApiError: GET … → 404: NotFound`.
 * - `stop_on_error: false` is honoured. After a failure tslab aborts every request arriving in the
 *   next 200 ms, which is right for "run all" but not when the client asked to go on (nbconvert's
 *   `--allow-errors` sends the next cell at once, and it was skipped).
 *
 * tslab's handler takes each request in `handleExecute` (which builds the reply and, on failure,
 * resets its queue) and runs it from its queue in `handleExecuteImpl`: both are wrapped here, keyed
 * by the request object, so nothing can mix up two cells.
 */
import type { CellFailure } from './cell-output.js';

interface ExecuteRequest {
  stop_on_error?: boolean;
}
type Reply = { status: string } & Record<string, unknown>;

interface HandlerInternals {
  handleExecute(request: ExecuteRequest, ...rest: unknown[]): Promise<Reply>;
  handleExecuteImpl(request: ExecuteRequest, ...rest: unknown[]): Promise<unknown>;
  execQueue?: { reset?(delay?: number): void };
}

/** Wraps tslab's `JupyterHandlerImpl` instance; `takeFailure` answers what the last cell printed as its failure. */
export function completeExecuteProtocol(handler: object, takeFailure: () => CellFailure | null): void {
  const internals = handler as Partial<HandlerInternals>;
  if (typeof internals.handleExecuteImpl !== 'function' || typeof internals.handleExecute !== 'function') {
    return; // not the tslab this was written for: keep its behaviour
  }
  const run = internals.handleExecuteImpl.bind(handler);
  const reply = internals.handleExecute.bind(handler);
  const failures = new WeakMap<ExecuteRequest, CellFailure>();

  // The request being answered, while its reply is built (replies are built one at a time: a
  // reply is built right after its cell, before the queue starts the next one).
  let answering: ExecuteRequest | null = null;
  const queue = internals.execQueue;
  if (queue && typeof queue.reset === 'function') {
    const reset = queue.reset.bind(queue);
    // tslab cancels the requests queued after a failure until `reset` clears the queue, 200 ms
    // later; a request that asked not to stop on errors clears it at once.
    queue.reset = (delay?: number) => reset(answering?.stop_on_error === false ? undefined : delay);
  }

  internals.handleExecuteImpl = async (request, ...rest) => {
    takeFailure(); // forget anything printed between cells
    try {
      return await run(request, ...rest);
    } catch (thrown) {
      const failure = takeFailure();
      if (failure) failures.set(request, failure);
      answering = request;
      throw thrown;
    }
  };
  internals.handleExecute = async (request, ...rest) => {
    const answer = await reply(request, ...rest);
    if (answering === request) answering = null;
    const failure = failures.get(request);
    if (answer.status === 'error' && failure) {
      answer.ename = failure.ename;
      answer.evalue = failure.evalue;
      answer.traceback = [];
    }
    return answer;
  };
}
