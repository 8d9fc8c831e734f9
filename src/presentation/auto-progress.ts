/**
 * Progress without asking, for the front ends that own their process (the REPL, the kernel):
 * `projects.download(...)` and `list.all()` report to the front end's display (a bar, an updating
 * output) unless the caller passes an `onProgress` of their own. The reports include the
 * service's pauses ("rate-limited, resuming in 2.1 s").
 *
 * Done by wrapping the two methods on their prototypes, once per process: a per-session wrapper
 * would miss sessions made later (`new Session(...)`, `.login`). A library user never gets this;
 * only a front end that calls {@link installAutoProgress}.
 */
import { PagedList, type PageProgress, type WalkOptions } from '../http/paging.js';
import { Projects, type TransferOptions, type TransferProgress } from '../resources/projects.js';

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
 * Makes every `projects.download` and `list.all()` of this process report to `open(label)`'s sink
 * when no `onProgress` is given. Once per process: later calls change nothing.
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

  const all = PagedList.prototype.all;
  PagedList.prototype.all = function (this: PagedList<unknown>, options: WalkOptions = {}) {
    if (options?.onProgress) return all.call(this, options);
    return withSink(open('all pages'), (onProgress) => all.call(this, { ...options, onProgress }));
  } as typeof all;
}
