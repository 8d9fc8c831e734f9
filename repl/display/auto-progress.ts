/**
 * Progress bars without asking: in the REPL process, `projects.download(...)` and `list.all()`
 * draw a bar on stderr unless the caller passes an `onProgress` of their own.
 *
 * Done by wrapping the two methods on their prototypes, once, in the REPL's process only (the
 * REPL owns its process; a library user never gets this). A per-session wrapper would miss
 * sessions made at the prompt (`new Session(...)`, `.login`); the prototypes cover them all.
 */
import { PagedList, Projects, type TransferOptions, type WalkOptions } from 'scratchlab';
import { ProgressBar, type ProgressReport } from './progress.js';

const kInstalled = Symbol.for('scratchlab.repl.autoProgress');

type Download = Projects['download'];
type All = PagedList<unknown>['all'];

interface Marked {
  [kInstalled]?: true;
}

/** Runs `call` with a bar fed by its progress reports; the bar is erased however the call ends. */
async function withBar<T>(
  label: string,
  call: (onProgress: (report: ProgressReport) => void) => Promise<T>,
): Promise<T> {
  const bar = new ProgressBar(label);
  try {
    return await call((report) => bar.update(report));
  } finally {
    bar.finish();
  }
}

/** Installs the wrappers (idempotent). */
export function installAutoProgress(): void {
  const projects = Projects.prototype as Projects & Marked;
  if (projects[kInstalled]) return;
  projects[kInstalled] = true;

  const download: Download = projects.download;
  projects.download = function (this: Projects, id, options: TransferOptions = {}) {
    if (options?.onProgress) return download.call(this, id, options);
    return withBar(`download ${id}`, (onProgress) => download.call(this, id, { ...options, onProgress }));
  };

  const all: All = PagedList.prototype.all;
  PagedList.prototype.all = function (this: PagedList<unknown>, options: WalkOptions = {}) {
    if (options?.onProgress) return all.call(this, options);
    return withBar('all pages', (onProgress) => all.call(this, { ...options, onProgress }));
  } as All;
}
