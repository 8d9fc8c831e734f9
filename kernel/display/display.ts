/**
 * Display bundles: one Jupyter output carrying several MIME types, so that each front end (and
 * nbconvert's static HTML) picks the richest one it can show.
 *
 * - records: `text/html` (a table) + `text/plain` (the same table in text);
 * - charts: Vega-Lite JSON + `image/svg+xml` rendered in Node + `text/plain` (a summary). nbconvert
 *   drops Vega-Lite-only outputs, and a static viewer cannot run Vega, hence the SVG;
 * - live charts: the same bundle, sent once with a `display_id` and then updated in place.
 */
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import {
  Chart,
  JUPYTER_DISPLAY,
  jupyterDisplayOf,
  type RecordKind,
  recordKind,
  redactForView,
  renderHtmlTable,
  renderPlainTable,
  type TextTable,
  toTable,
  toValueTable,
  type VegaLiteSpec,
} from 'scratchlab/presentation';
import { currentWriter, type MimeBundle, type WriteDisplayData } from '../tslab.js';

/** Options of {@link tableBundle}. */
export interface TableBundleOptions {
  /** Site base URL: names and titles link to their pages. */
  siteUrl?: string;
  /** Most rows shown (default: the presentation layer's, 40). */
  rows?: number;
  /** The records' kind, when their shape alone does not tell (e.g. an empty array). */
  kind?: RecordKind;
  /** Also lay out other arrays of objects (or one object), a column per key, as `console.table` does. */
  anyValue?: boolean;
}

function bundleOf(table: TextTable, siteUrl: string | undefined): MimeBundle {
  return { 'text/html': renderHtmlTable(table, { siteUrl }), 'text/plain': renderPlainTable(table) };
}

/**
 * An HTML table with a plain-text twin of platform records, or with `anyValue` of any array of
 * objects; `null` for anything else.
 */
export function tableBundle(value: unknown, options: TableBundleOptions = {}): MimeBundle | null {
  const maxRows = options.rows;
  const kind = options.kind ?? recordKind(value);
  if (kind !== null) {
    const table = toTable(value, { kind, maxRows });
    return {
      'text/html': renderHtmlTable(table, { siteUrl: options.siteUrl }),
      'text/plain': renderPlainTable(table),
    };
  }
  if (!options.anyValue) return null;
  const table = toValueTable(value, { maxRows });
  return table ? bundleOf(table, options.siteUrl) : null;
}

/**
 * Any value as text, as Node's REPL prints it, secrets redacted as in the REPL (the SDK's objects
 * by their own `inspect`, plain objects by {@link redactForView}); a string as itself unless
 * `quoteStrings` (a cell's value shows quoted, as in IPython).
 */
export function textBundle(value: unknown, quoteStrings = false): MimeBundle {
  if (typeof value === 'string' && !quoteStrings) return { 'text/plain': value };
  return { 'text/plain': inspect(redactForView(value), { depth: 4 }) };
}

/** Options of {@link resultBundle}. */
export interface ResultBundleOptions extends TableBundleOptions {
  /** Show a string value quoted (a cell's value), not as its text (`display('text')`). */
  quoteStrings?: boolean;
}

/** The bundle of a value with a `[Symbol.for('Jupyter.display')]()` method, or `null`. */
async function ownBundle(value: unknown): Promise<MimeBundle | null> {
  const method = jupyterDisplayOf(value);
  if (!method) return null;
  const bundle: unknown = await method();
  if (typeof bundle !== 'object' || bundle === null || Array.isArray(bundle)) {
    throw new TypeError(
      '[Symbol.for("Jupyter.display")]() must return a MIME bundle: { "text/plain": …, … }',
    );
  }
  const data = { ...(bundle as MimeBundle) };
  // Every output carries a text twin, for consoles and for nbconvert's text exports.
  if (!('text/plain' in data)) data['text/plain'] = inspect(redactForView(value), { depth: 2 });
  return data;
}

/**
 * What a value shows as: its own bundle (the Jupyter display protocol), a table for records (for
 * any array of objects with `anyValue`), else text.
 */
export async function resultBundle(value: unknown, options: ResultBundleOptions = {}): Promise<MimeBundle> {
  return (await ownBundle(value)) ?? tableBundle(value, options) ?? textBundle(value, options.quoteStrings);
}

/** A chart: its Vega-Lite spec, the same chart as SVG, and `summary` as the text fallback. */
export async function chartBundle(spec: VegaLiteSpec, summary: string): Promise<MimeBundle> {
  return (await new Chart(spec, { summary }).ready())[JUPYTER_DISPLAY]();
}

/**
 * Sends `bundle` as a new output of the cell that owns `writer` (default: the cell running now).
 * With `displayId`, the output can later be replaced by {@link updateDisplay}.
 */
export function sendDisplay(
  bundle: MimeBundle,
  options: { writer?: WriteDisplayData; displayId?: string } = {},
): void {
  const writer = options.writer ?? currentWriter();
  if (!writer) throw new Error('no notebook cell is running: nothing to display to');
  writer(
    { data: bundle, metadata: {}, transient: options.displayId ? { display_id: options.displayId } : {} },
    false,
  );
}

/**
 * Replaces the output sent with `displayId`, wherever it is. The message goes out with the cell
 * running now: a front end only listens while some cell runs (TOOLCHAIN.md), and matches the
 * update to the earlier output by its id.
 */
export function updateDisplay(bundle: MimeBundle, displayId: string): void {
  const writer = currentWriter();
  if (!writer) return;
  writer({ data: bundle, metadata: {}, transient: { display_id: displayId } }, true);
}

/** A fresh id for an updatable display. */
export function newDisplayId(): string {
  return `scratchlab-${randomBytes(8).toString('hex')}`;
}
