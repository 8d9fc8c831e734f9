/**
 * Ctrl-C aborts the SDK call an input is waiting on, not just the wait. Each input runs with an
 * `AbortSignal` kept in async-local storage; in the REPL's process, every request of the SDK's
 * HTTP client, every page walk and every download made from that input's code takes that signal
 * unless the caller passed one. An aborted call rejects with the input's {@link InterruptedError},
 * so `const xs = await list.all()` binds nothing.
 *
 * Done on prototypes, once, like the progress bars (`auto-progress.ts`): sessions made at the
 * prompt are covered too. A library user never gets this; the REPL owns its process.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PagedList, Projects, WalkOptions } from 'scratchlab';
import { type DisplayContext, kDisplay } from '../display/display.js';

/** Why an input stopped: the user pressed Ctrl-C. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError';
  constructor(message = 'Interrupted by Ctrl-C: the call was aborted') {
    super(message);
  }

  /** One line, no stack: the stack would only show the REPL's own frames. */
  [kDisplay](_context: DisplayContext): string {
    return `${this.name}: ${this.message}`;
  }
}

const inputSignal = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` (an input) so that the SDK calls it starts take `signal`. */
export function withInputSignal<T>(signal: AbortSignal, work: () => T): T {
  return inputSignal.run(signal, work);
}

/** `signal` joined with the running input's (the input's alone when `signal` is absent). */
function joined(signal: AbortSignal | undefined): AbortSignal | undefined {
  const input = inputSignal.getStore();
  if (!input) return signal;
  return signal ? AbortSignal.any([signal, input]) : input;
}

const kInstalled = Symbol.for('scratchlab.repl.interruptible');

interface Marked {
  [kInstalled]?: true;
}

/** What the wrappers are installed on (the SDK's classes, and its HTTP client's prototype). */
interface InterruptTargets {
  PagedList: typeof PagedList;
  Projects: typeof Projects;
  /** `Object.getPrototypeOf(session.http)`: every request goes through its `request`. */
  http: { request(url: string, options?: { signal?: AbortSignal }): Promise<unknown> };
}

type Request = InterruptTargets['http']['request'];
type Walk = (this: PagedList<unknown>, options?: WalkOptions) => unknown;

/** Installs the wrappers (idempotent). */
export function installInterruptSignals({ PagedList, Projects, http }: InterruptTargets): void {
  const marked = http as typeof http & Marked;
  if (marked[kInstalled]) return;
  marked[kInstalled] = true;

  const request: Request = http.request;
  http.request = function (this: unknown, url, options = {}) {
    const signal = joined(options.signal);
    return request.call(this, url, signal ? { ...options, signal } : options);
  };

  // Walks also check the signal between pages, and a download between assets.
  const walks = PagedList.prototype as unknown as Record<'all' | 'pages', Walk>;
  for (const name of ['all', 'pages'] as const) {
    const walk = walks[name];
    walks[name] = function (this: PagedList<unknown>, options: WalkOptions = {}) {
      const signal = joined(options?.signal);
      return walk.call(this, signal ? { ...options, signal } : options);
    };
  }
  const download = Projects.prototype.download;
  Projects.prototype.download = function (this: Projects, id, options = {}) {
    const signal = joined(options?.signal);
    return download.call(this, id, signal ? { ...options, signal } : options);
  };
}
