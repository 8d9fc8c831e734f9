/**
 * Fitting text into terminal columns. Widths come from `string-width`, so emoji and CJK (two
 * columns each) and combining marks (zero) are counted the way terminals draw them.
 */
import stringWidth from 'string-width';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Printable ASCII only: one column per character, no need for `string-width` (most cells are). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** How many terminal columns `text` takes (ANSI escapes count as zero). */
export function textWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/**
 * `text` cut to at most `width` columns, ending in `…` when anything was cut. Cuts between
 * graphemes, so an emoji or accented letter is never split.
 */
export function truncateToWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (textWidth(text) <= width) return text;
  const room = width - 1; // one column for the ellipsis
  let out = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = stringWidth(segment);
    if (used + w > room) break;
    out += segment;
    used += w;
  }
  return out + '…';
}

/** `text` padded with spaces to exactly `width` columns (cut first if it is wider). */
export function padToWidth(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = truncateToWidth(text, width);
  const gap = ' '.repeat(Math.max(0, width - textWidth(cut)));
  return align === 'right' ? gap + cut : cut + gap;
}
