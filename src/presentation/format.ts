/**
 * Locale-independent formatting of cell values, so tables read the same on every machine and in
 * tests. Times are shown in UTC for the same reason (headers say so where it matters).
 */

export { formatCount } from '../rows/format-count.js';

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})/;

/** The `YYYY-MM-DD` part of an ISO-8601 string (or the string unchanged if it is not one). */
export function formatDate(iso: string | null): string | null {
  if (iso === null) return null;
  const m = ISO_DATE.exec(iso);
  return m ? m[1]! : iso;
}

/** Milliseconds since the epoch as `YYYY-MM-DD HH:MM:SS` in UTC. */
export function formatTimestamp(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** A duration in milliseconds as e.g. `2d 3h`, `4m 5s`, `12s`. */
export function formatDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return h > 0 ? `${d}d ${h}h` : `${d}d`;
  if (h > 0) return m > 0 ? `${h}h ${m}m` : `${h}h`;
  if (m > 0) return sec > 0 ? `${m}m ${sec}s` : `${m}m`;
  return `${sec}s`;
}

// C0/C1 controls (including ESC, so no record can smuggle terminal escapes) and line breaks.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Put text on one line: control characters and line breaks become single spaces. */
export function oneLine(text: string): string {
  return text.replace(CONTROL, ' ').trim();
}

const UNITS: ReadonlyArray<readonly [number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** The unit a number of this size is written in: `[1000, 'k']` for 7,900. */
function unitOf(magnitude: number): readonly [number, string] {
  return UNITS.find(([size]) => magnitude >= size) ?? [1, ''];
}

const trimZeros = (text: string): string => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/** A short number for chart labels: `7900` -> `"7.9k"`, `1234567` -> `"1.23M"`, `0.5` -> `"0.5"`. */
export function formatCompact(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (n !== 0 && Math.abs(n) < 0.001) return n.toExponential(2);
  const [size, suffix] = unitOf(Math.abs(n));
  const scaled = n / size;
  const decimals = Math.max(0, 4 - Math.floor(Math.log10(Math.abs(scaled) || 1)) - 1);
  return trimZeros(scaled.toFixed(Math.min(decimals, 2))) + suffix;
}

/**
 * Labels for an axis from `min` to `max` with `steps` intervals, all in one style: the same unit
 * and the same number of decimals (`59.07k`, `59.13k`, `59.20k`), so labels line up and no two
 * read alike; zero is `0`.
 */
export function compactAxisFormat(min: number, max: number, steps: number): (n: number) => string {
  const magnitude = Math.max(Math.abs(min), Math.abs(max));
  const [size, suffix] = unitOf(magnitude);
  const step = Math.abs(max - min) / Math.max(1, steps) / size;
  // Rows fall between round numbers: labels are exact to half a row, and scaled ones (`14.2k`,
  // not `14k`) keep 3 significant digits.
  const digits = Math.floor(Math.log10(magnitude / size || 1)) + 1;
  const scaled = size > 1 ? 3 - digits : 0;
  let decimals = Math.max(scaled, step > 0 ? Math.ceil(-Math.log10(step / 2)) : 0, 0);
  if (step === 0 && Number.isInteger(min / size)) decimals = 0; // a constant: just its value
  decimals = Math.min(decimals, 3);
  return (n) => {
    if (n === 0) return '0';
    const text = (n / size).toFixed(decimals);
    return (/^-0(\.0*)?$/.test(text) ? text.slice(1) : text) + suffix;
  };
}
