/**
 * Progress without asking, for the front ends that own their process (the REPL, the kernel):
 * `projects.download(...)`, `list.all()` and `projects.remixTree(...)` report to the front end's
 * display (a bar, an updating output) unless the caller passes an `onProgress` of their own.
 * The caller's always wins, alone: given to the call or to the list (`followers(u, { onProgress })`),
 * it gets every report and the front end shows nothing. The reports include the service's pauses
 * ("rate-limited, resuming in 2.1 s").
 *
 * A call made of many walks (a remix tree reads one list per project) shows one display for the
 * whole call: its walks, run inside it, report only their pauses to it, never displays of their own.
 *
 * Done by wrapping the methods on their prototypes, once per process: a per-session wrapper
 * would miss sessions made later (`new Session(...)`, `.login`). A library user never gets this;
 * only a front end that calls {@link installAutoProgress}.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { PagedList, type PageProgress, type WalkOptions } from '../http/paging.js';
import { Projects, type TransferOptions, type TransferProgress } from '../resources/projects.js';
import type { RemixTreeOptions } from '../resources/remix-tree.js';

/** What an `onProgress` callback of the SDK receives. */
export type ProgressReport = TransferProgress | PageProgress;

/** Where a front end shows one call's progress. */
export interface ProgressSink {
  /** A report of the call. */
  update(report: ProgressReport): void;
  /** The call ended (however it ended): the display goes or shows its last state. */
  finish(): void;
}

const kInstalled = Symbol.for('scratchlab.autoProgress');

interface Marked {
  [kInstalled]?: true;
}

/** The display of the call running now (a remix tree), and its last report. */
interface Enclosing {
  sink: ProgressSink;
  last: PageProgress;
}

/** The enclosing call of the code running now: its walks report to its display. */
const enclosing = new AsyncLocalStorage<Enclosing>();

/** The enclosing call of a caller who gave their own `onProgress`: its walks show nothing. */
const SILENT: Enclosing = {
  sink: { update: () => undefined, finish: () => undefined },
  last: { items: 0, pages: 0, done: false },
};

/** Runs `call` with a sink fed by its progress reports; the sink is finished however the call ends. */
async function withSink<T>(
  sink: ProgressSink,
  call: (onProgress: (report: ProgressReport) => void) => Promise<T>,
): Promise<T> {
  try {
    return await call((report) => sink.update(report));
  } finally {
    sink.finish();
  }
}

/**
 * Makes every `projects.download`, `list.all()` and `projects.remixTree` of this process report
 * to `open(label)`'s sink when the caller gives no `onProgress`. Once per process: later calls
 * change nothing.
 */
export function installAutoProgress(open: (label: string) => ProgressSink): void {
  const projects = Projects.prototype as Projects & Marked;
  if (projects[kInstalled]) return;
  projects[kInstalled] = true;

  const download = projects.download;
  projects.download = function (this: Projects, id, options: TransferOptions = {}) {
    if (options?.onProgress) return download.call(this, id, options);
    return withSink(open(`download ${id}`), (onProgress) =>
      download.call(this, id, { ...options, onProgress }),
    );
  };

  const remixTree = projects.remixTree;
  projects.remixTree = function (this: Projects, id, options: RemixTreeOptions = {}) {
    // The caller's own onProgress alone: the tree's walks show nothing either.
    if (options?.onProgress) return enclosing.run(SILENT, () => remixTree.call(this, id, options));
    const outer: Enclosing = { sink: open(`remix tree ${id}`), last: { items: 0, pages: 0, done: false } };
    return withSink(outer.sink, () =>
      enclosing.run(outer, () =>
        remixTree.call(this, id, {
          ...options,
          // Projects as rows, requests as pages: the words every walk's display uses.
          onProgress: ({ nodes, requests, done }) => {
            outer.last = { items: nodes, pages: requests, done };
            outer.sink.update(outer.last);
          },
        }),
      ),
    );
  };

  const all = PagedList.prototype.all;
  PagedList.prototype.all = function (this: PagedList<unknown>, options: WalkOptions = {}) {
    if (options?.onProgress || this.reportsProgress) return all.call(this, options);
    const outer = enclosing.getStore();
    if (outer !== undefined) {
      // A walk of a larger call: only the service's pauses show, on the call's display.
      return all.call(this, {
        ...options,
        onProgress: ({ rateLimited }) => {
          if (rateLimited) outer.sink.update({ ...outer.last, rateLimited });
        },
      });
    }
    return withSink(open('all pages'), (onProgress) => all.call(this, { ...options, onProgress }));
  } as typeof all;
}
