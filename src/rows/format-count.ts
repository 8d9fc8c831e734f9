/**
 * Counts written for people, locale-independent so text reads the same on every machine and in
 * tests. It lives beneath the rows (not in the presentation layer) because list windows and saved
 * files word their counts too.
 */

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** `1234567` -> `"1,234,567"`. */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? grouped.format(n) : String(n);
}
