/** The counts of the "My Stuff" page (WIRE.md §12.4), read from its `span[data-content]` elements. */
import { findElement, parseHtml, textOf, UnreadablePageError } from './html.js';
import type { MyStuffCounts } from './my-stuff-records.js';

/**
 * The shared, unshared and studio counts of the page (thousands separators allowed).
 * @throws UnreadablePageError naming the count the page lacks
 */
export function parseMyStuffCounts(html: string): MyStuffCounts {
  const document = parseHtml(html);
  const count = (name: string): number => {
    const span = findElement(document, { tag: 'span', attribute: ['data-content', name] });
    const digits = span ? textOf(span).replace(/,/g, '') : '';
    if (!/^\d{1,9}$/.test(digits)) throw new UnreadablePageError(`number in span[data-content=${name}]`);
    return Number(digits);
  };
  return {
    shared: count('shared-count'),
    unshared: count('unshared-count'),
    studios: count('gallery-count'),
  };
}
