/**
 * What a displayed list knows about the list it came from: where its window starts, whether the
 * list may go on past it, and whose list it is. The SDK's record lists carry it under a global
 * symbol, so the presentation layer reads it without importing the SDK (and any array could).
 */
import { formatCount } from './format-count.js';

/** Where a window of a longer list sits. */
export interface ListWindow {
  /** Rows of the list before this window. */
  readonly offset: number;
  /** Whether the list may go on past this window (the window came back full). */
  readonly more: boolean;
  /** Rows in the whole list, when known (the platform's lists give no total). */
  readonly total?: number;
  /** Whose list it is, when it is one user's own (rows then name no author). */
  readonly owner?: string;
}

/** The property under which a list carries its {@link ListWindow}. */
export const kListWindow: unique symbol = Symbol.for('scratchlab.listWindow');

/** The window a list carries, if any. */
export function listWindowOf(value: unknown): ListWindow | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const window = (value as { [kListWindow]?: unknown })[kListWindow];
  return typeof window === 'object' && window !== null ? (window as ListWindow) : undefined;
}

/**
 * The line under a window that may not be the whole list, e.g. `first 40 of 2,144 — .all()
 * fetches all`, or `first 40 — .all() fetches all` when the total is unknown; `null` when the
 * window is the whole list. `shown` rows of the window's `rows` are displayed.
 */
export function windowNote(window: ListWindow | undefined, rows: number, shown: number): string | null {
  if (!window?.more || rows === 0) return null;
  const of = window.total === undefined ? '' : ` of ${formatCount(window.total)}`;
  const span =
    window.offset === 0
      ? `first ${formatCount(rows)}${of}`
      : `rows ${formatCount(window.offset + 1)}–${formatCount(window.offset + rows)}${of}`;
  const lead = shown < rows ? `${formatCount(shown)} shown of the ${span}` : span;
  return `${lead} — .all() fetches all`;
}
