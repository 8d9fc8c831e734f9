import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/** The kinds of generated image the sandbox serves under `/images/<kind>/`. */
export type ImageKind = 'user' | 'project' | 'studio' | 'news' | 'classroom';

const PALETTE = ['#855cd6', '#4c97ff', '#ffab19', '#59c059', '#ff6680', '#40bf9f', '#cf63cf', '#ff8c1a'];

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A small SVG standing in for a thumbnail or avatar: a coloured card with a label. Colours come
 * from a hash of the kind and id, so one image always looks the same.
 */
/** The two colours of one image: always the same for one kind and id. */
function colours(kind: ImageKind, id: number): [background: string, accent: string] {
  const digest = createHash('md5').update(`${kind}:${id}`).digest();
  return [PALETTE[digest[0]! % PALETTE.length]!, PALETTE[(digest[1]! % (PALETTE.length - 1)) + 1]!];
}

export function placeholderSvg(
  kind: ImageKind,
  id: number,
  width: number,
  height: number,
  label: string,
): string {
  const [background, accent] = colours(kind, id);
  const text = escapeXml(label.slice(0, kind === 'user' ? 2 : 24));
  const fontSize = Math.max(8, Math.round(Math.min(width, height) * (kind === 'user' ? 0.45 : 0.12)));
  const shape =
    kind === 'user'
      ? `<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) * 0.42}" fill="${accent}" opacity="0.5"/>`
      : `<circle cx="${width * 0.8}" cy="${height * 0.25}" r="${Math.min(width, height) * 0.18}" fill="${accent}"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="${background}"/>${shape}` +
    `<text x="50%" y="55%" font-family="Helvetica, Arial, sans-serif" font-size="${fontSize}" fill="#fff" ` +
    `text-anchor="middle" dominant-baseline="middle">${text}</text></svg>`
  );
}

/** One PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A real PNG for the `.png` URLs the records carry (the platform's CDN serves PNGs there): the
 * background colour of {@link placeholderSvg} with a band of its accent, so a client that decodes
 * the bytes as PNG gets one. Made on request; nothing is rendered at start-up.
 */
export function placeholderPng(kind: ImageKind, id: number, width: number, height: number): Buffer {
  const [background, accent] = colours(kind, id).map((hex) => Buffer.from(hex.slice(1), 'hex'));
  const rowBytes = 1 + width * 3;
  // Each colour's row is laid out once. A row like the one above it is written with PNG's "Up"
  // filter (type 2): all zeros, which Buffer.alloc already holds and deflate packs at once, so
  // even a 2000×2000 image costs about three rows of work.
  const rowOf = (colour: Buffer) => {
    const row = Buffer.alloc(rowBytes);
    for (let x = 0; x < width; x++) colour.copy(row, 1 + x * 3);
    return row;
  };
  const rows = new Map<Buffer, Buffer>();
  const pixels = Buffer.alloc(rowBytes * height);
  let previous: Buffer | undefined;
  for (let y = 0; y < height; y++) {
    const colour = y >= height * 0.4 && y < height * 0.6 ? accent! : background!;
    const start = y * rowBytes;
    if (colour === previous) {
      pixels[start] = 2;
    } else {
      const row = rows.get(colour) ?? rowOf(colour);
      rows.set(colour, row);
      row.copy(pixels, start); // filter byte 0 (none), then the row's RGB triples
    }
    previous = colour;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter set, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels, { level: 1 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
