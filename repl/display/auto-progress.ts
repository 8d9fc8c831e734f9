/**
 * Progress bars without asking: in the REPL process, `projects.download(...)` and `list.all()`
 * draw a bar on stderr unless the caller passes an `onProgress` of their own (the presentation
 * layer's {@link installAutoProgress} wraps them; the bar is this folder's).
 */
import { installAutoProgress as install } from 'scratchlab/presentation';
import { ProgressBar } from './progress.js';

/** Installs the wrappers (idempotent). */
export function installAutoProgress(): void {
  install((label) => new ProgressBar(label));
}
