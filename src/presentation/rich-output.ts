/**
 * `md`, `html` and `svg` tagged templates and `image(bytes or file)`, as Deno's kernel gives them:
 * each answers a value that shows itself as its own MIME type in Jupyter (as a cell's result, or
 * through `display`) and as plain text in the REPL, which cannot draw HTML or images.
 *
 * Interpolated values are inserted as text (`String(value)`), unescaped, as in Deno: the template
 * is the author's own markup.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { JUPYTER_DISPLAY, REPL_DISPLAY } from '../rows/saved-file.js';
import { formatCount } from './format.js';

/** Longest text of `md`, `html` or `svg`, in characters. */
export const MAX_RICH_TEXT = 10 << 20;
/** Largest image `image` shows, in bytes (its base64 travels in one Jupyter message). */
export const MAX_IMAGE_BYTES = 10 << 20;

/** A value with a MIME type of its own: what `md`, `html`, `svg` and `image` answer. */
export class RichOutput {
  /** The MIME type Jupyter shows it as, e.g. `text/markdown`, `image/png`. */
  readonly mime: string;
  /** The data for that MIME type: text, or base64 for binary images. */
  readonly data: string;
  /** What a terminal shows. */
  readonly text: string;

  constructor(mime: string, data: string, text: string) {
    this.mime = mime;
    this.data = data;
    this.text = text;
  }

  toString(): string {
    return this.text;
  }

  [REPL_DISPLAY](): string {
    return this.text;
  }

  [JUPYTER_DISPLAY](): Record<string, string> {
    return { [this.mime]: this.data, 'text/plain': this.text };
  }
}

/** A tagged template, or a function of one string: `md\`# ${title}\`` or `md(text)`. */
export type RichTemplate = (text: TemplateStringsArray | string, ...values: unknown[]) => RichOutput;

function joined(name: string, text: TemplateStringsArray | string, values: unknown[]): string {
  let result: string;
  if (typeof text === 'string') {
    if (values.length > 0) throw new TypeError(`${name}(text) takes one string`);
    result = text;
  } else if (Array.isArray(text) && text.every((part) => typeof part === 'string')) {
    result = text.reduce((all, part, i) => all + String(values[i - 1]) + part);
  } else {
    throw new TypeError(`${name} is a tagged template (${name}\`…\`) or takes a string`);
  }
  if (result.length > MAX_RICH_TEXT) {
    throw new RangeError(
      `${name}: ${formatCount(result.length)} characters, more than ${formatCount(MAX_RICH_TEXT)}`,
    );
  }
  return result;
}

/** Markdown: `text/markdown` in Jupyter, the source in the REPL. */
export const md: RichTemplate = (text, ...values) => {
  const source = joined('md', text, values);
  return new RichOutput('text/markdown', source, source);
};

/** HTML: `text/html` in Jupyter, the source in the REPL. */
export const html: RichTemplate = (text, ...values) => {
  const source = joined('html', text, values);
  return new RichOutput('text/html', source, source);
};

/** An SVG drawing: `image/svg+xml` in Jupyter, a one-line note in the REPL. */
export const svg: RichTemplate = (text, ...values) => {
  const source = joined('svg', text, values).trim();
  if (!startsWithSvg(source)) {
    throw new TypeError('svg: the text must be an <svg> element');
  }
  return new RichOutput('image/svg+xml', source, `[SVG image, ${formatCount(source.length)} characters]`);
};

/**
 * Whether the text is an `<svg>` element, after an optional XML declaration and comments. Read
 * step by step: a regular expression of repeated lazy comments backtracks exponentially over
 * text of many `<!---->` that is not SVG.
 */
function startsWithSvg(source: string): boolean {
  let rest = source;
  const declaration = /^<\?xml[^>]*>/.exec(rest);
  if (declaration) rest = rest.slice(declaration[0].length).trimStart();
  while (rest.startsWith('<!--')) {
    const end = rest.indexOf('-->', 4);
    if (end === -1) return false;
    rest = rest.slice(end + 3).trimStart();
  }
  return /^<svg[\s/>]/.test(rest);
}

/**
 * The bytes of an image file, at most {@link MAX_IMAGE_BYTES}: read from one open file (a file that
 * grows meanwhile is cut, not read whole), and only a regular file (not `/dev/zero`, a pipe or a
 * folder, which would never end or not read).
 */
function readImageFile(path: string): Uint8Array {
  let fd: number;
  try {
    // Without blocking: opening a pipe for reading would wait for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new TypeError(`image: cannot read ${path} (${(error as Error).message})`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new TypeError(`image: ${path} is not a file`);
    if (info.size > MAX_IMAGE_BYTES) {
      throw new RangeError(
        `image: ${path} is ${formatCount(info.size)} bytes, more than ${formatCount(MAX_IMAGE_BYTES)}`,
      );
    }
    const buffer = Buffer.alloc(info.size);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** Image formats `image` recognizes by their first bytes. */
const SIGNATURES: readonly { mime: string; name: string; test: (b: Uint8Array) => boolean }[] = [
  {
    mime: 'image/png',
    name: 'PNG',
    test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { mime: 'image/jpeg', name: 'JPEG', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', name: 'GIF', test: (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]) },
  {
    mime: 'image/webp',
    name: 'WebP',
    test: (b) =>
      startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
  },
];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

/**
 * An image from its bytes or a file: PNG, JPEG, GIF or WebP (known by their first bytes), or SVG
 * text. Shown as the image in Jupyter, as a one-line note in the REPL. At most
 * {@link MAX_IMAGE_BYTES}.
 */
export function image(source: Uint8Array | ArrayBuffer | string): RichOutput {
  let bytes: Uint8Array;
  let from = '';
  if (typeof source === 'string') {
    if (source === '') throw new TypeError('image: the file name is empty');
    bytes = readImageFile(source);
    from = ` from ${source}`;
  } else if (source instanceof Uint8Array) {
    bytes = source;
  } else if (source instanceof ArrayBuffer) {
    bytes = new Uint8Array(source);
  } else {
    throw new TypeError('image takes bytes (a Uint8Array or Buffer) or a file name');
  }
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new RangeError(
      `image: ${formatCount(bytes.length)} bytes, more than ${formatCount(MAX_IMAGE_BYTES)}`,
    );
  }
  const kind = SIGNATURES.find((signature) => signature.test(bytes));
  if (!kind) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
    try {
      return svg(text);
    } catch {
      throw new TypeError('image: not a PNG, JPEG, GIF, WebP or SVG image');
    }
  }
  const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64');
  return new RichOutput(kind.mime, base64, `[${kind.name} image, ${formatCount(bytes.length)} bytes${from}]`);
}
