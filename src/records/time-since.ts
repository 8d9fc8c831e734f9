/**
 * The site's relative times ("2 days, 3 hours ago"): Django's `timesince`, which the site's pages
 * print (WIRE.md §11.2). One table for the sandbox that writes them and the client that reads them.
 */
import { normalizeSpace } from './html.js';

const MINUTE = 60_000;

/** The units, largest first; as in Django, a month is 30 days and a year 365. */
const TIME_SINCE_UNITS: readonly (readonly [unit: string, ms: number])[] = [
  ['year', 365 * 1440 * MINUTE],
  ['month', 30 * 1440 * MINUTE],
  ['week', 7 * 1440 * MINUTE],
  ['day', 1440 * MINUTE],
  ['hour', 60 * MINUTE],
  ['minute', MINUTE],
];

const unitMs = new Map<string, number>(TIME_SINCE_UNITS);

/**
 * `2\u00a0days, 3\u00a0hours ago` for an age in milliseconds, as Django writes it: the largest
 * unit, then the next smaller one when it is not zero, joined by no-break spaces; under a minute
 * (or a time in the future) `0\u00a0minutes ago`.
 */
export function formatTimeSince(ms: number): string {
  const elapsed = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  const plural = (n: number, unit: string) => `${n}\u00a0${unit}${n === 1 ? '' : 's'}`;
  const i = TIME_SINCE_UNITS.findIndex(([, size]) => elapsed >= size);
  if (i < 0) return `${plural(0, 'minute')} ago`;
  const [unit, size] = TIME_SINCE_UNITS[i]!;
  const count = Math.floor(elapsed / size);
  const next = TIME_SINCE_UNITS[i + 1];
  const rest = next ? Math.floor((elapsed - count * size) / next[1]) : 0;
  return rest > 0 ? `${plural(count, unit)}, ${plural(rest, next![0])} ago` : `${plural(count, unit)} ago`;
}

/**
 * Milliseconds of a relative time such as `2 days, 3 hours ago` or `1 minute ago` (any spaces,
 * U+00A0 included); `null` when the text names no known unit.
 */
export function parseTimeSince(text: string): number | null {
  const words = normalizeSpace(text).replace(/,/g, ' ').split(' ');
  let total = 0;
  let found = false;
  for (let i = 0; i + 1 < words.length; i++) {
    const count = Number(words[i]);
    const size = unitMs.get(words[i + 1]!.toLowerCase().replace(/s$/, ''));
    if (!Number.isInteger(count) || size === undefined) continue;
    total += count * size;
    found = true;
    i++;
  }
  return found ? total : null;
}
