/**
 * `display(value, options?)`, the kernel's global (as in IPython, tslab and Deno): shows a value
 * as a new output of the calling cell and answers a handle whose `update(value)` replaces that
 * output in place (a `display_id` and `update_display_data`), from this cell or a later one.
 *
 * Objects with a `[Symbol.for('Jupyter.display')]()` method (charts from `plot`, for one) show
 * from their own MIME bundle, records and any array of objects as tables, anything else as text.
 */
import type { Display, DisplayOptions } from 'scratchlab/presentation';
import { isThenable } from '../execution/thenable.js';
import { currentWriter, type MimeBundle } from '../tslab.js';
import { newDisplayId, resultBundle, sendDisplay, updateDisplay } from './display.js';
import type { HelperContext } from './helpers.js';

/** The bundle `display` sends for `value` (awaited first if it is a promise or a paged list). */
export async function displayBundle(
  value: unknown,
  options: DisplayOptions,
  siteUrl: string | undefined,
): Promise<MimeBundle> {
  const resolved: unknown = isThenable(value) ? await value : value;
  return resultBundle(resolved, { siteUrl, rows: options.rows, kind: options.kind, anyValue: true });
}

/** Creates `display`. */
export function createDisplay(context: HelperContext): Display {
  return (value, options = {}) => {
    const id = newDisplayId();
    // Bound now: the output belongs to the calling cell even if it is sent after an await.
    const writer = currentWriter() ?? undefined;
    let last: Promise<void> = context.pending.track(
      (async () =>
        sendDisplay(await displayBundle(value, options, context.siteUrl()), { writer, displayId: id }))(),
    );
    return {
      id,
      update(next, nextOptions = options) {
        // In order: an update never overtakes the output it replaces.
        last = context.pending.track(
          last.then(
            async () => updateDisplay(await displayBundle(next, nextOptions, context.siteUrl()), id),
            async () => updateDisplay(await displayBundle(next, nextOptions, context.siteUrl()), id),
          ),
        );
        return last;
      },
    };
  };
}
