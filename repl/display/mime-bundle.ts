/**
 * A terminal rendering of a MIME bundle (the display convention tslab and Deno's kernel share; the
 * presentation layer's `mimeBundleOf` reads it): the bundle's `text/plain`, or else a plain
 * rendering of what can be shown.
 */
import { inspect } from 'node:util';
import type { MimeBundle } from 'scratchlab/presentation';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** HTML as text: block ends become line breaks, cells are spaced, tags and styles dropped. */
function htmlToText(html: string): string {
  return html
    .replace(/<(style|script)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|tr|li|h[1-6]|caption|table)>/gi, '\n')
    .replace(/<\/t[dh]>/gi, '  ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[\da-f]+|\w+);/gi, (whole, name: string) => {
      if (name.startsWith('#x') || name.startsWith('#X'))
        return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A terminal rendering of a bundle. */
export function renderMimeBundle(bundle: MimeBundle, color: boolean): string {
  const text = (type: string) => (typeof bundle[type] === 'string' ? (bundle[type] as string) : null);
  const plain = text('text/plain') ?? text('text/markdown');
  if (plain !== null) return plain;
  const html = text('text/html');
  if (html !== null) return htmlToText(html);
  if ('application/json' in bundle) return inspect(bundle['application/json'], { colors: color, depth: 4 });
  const types = Object.keys(bundle);
  if (types.length === 0) return '';
  const size = (data: unknown) =>
    typeof data === 'string' ? ` (${data.length.toLocaleString('en-US')} characters)` : '';
  return types
    .map((type) => `[${type}${size(bundle[type])}: shown in a notebook, not in a terminal]`)
    .join('\n');
}
