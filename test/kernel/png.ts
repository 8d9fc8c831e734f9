/**
 * Just enough PNG decoding to look at a Chromium screenshot: 8-bit grey/RGB/RGBA, not interlaced
 * (what Chromium writes), with the five scanline filters undone.
 */
import { inflateSync } from 'node:zlib';

export interface Image {
  width: number;
  height: number;
  /** Samples per pixel: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. */
  channels: number;
  /** Unfiltered samples, row after row. */
  pixels: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

export function decodePng(file: Uint8Array): Image {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (!bytes.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colorType, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || CHANNELS[colorType!] === undefined) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${interlace}`);
      }
      channels = CHANNELS[colorType!]!;
    } else if (type === 'IDAT') {
      data.push(body);
    } else if (type === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[out + x - channels]! : 0;
      const b = y > 0 ? pixels[out - stride + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[out - stride + x - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`bad PNG filter ${filter}`);
      pixels[out + x] = (line[x]! + predictor) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** Pixels that are not (nearly) white, e.g. ink on a page. Transparent pixels count as white. */
export function inkedPixels(image: Image, threshold = 235): number {
  let count = 0;
  const { pixels, channels } = image;
  for (let i = 0; i < pixels.length; i += channels) {
    if (channels === 2 || channels === 4) {
      if (pixels[i + channels - 1]! < 16) continue;
    }
    const colour = channels >= 3 ? 3 : 1;
    for (let k = 0; k < colour; k++) {
      if (pixels[i + k]! < threshold) {
        count++;
        break;
      }
    }
  }
  return count;
}

/** Distinct colours (RGB) among the pixels, up to `limit`: a chart has several, a blank page one. */
export function distinctColours(image: Image, limit = 1000): number {
  const seen = new Set<number>();
  const { pixels, channels } = image;
  for (let i = 0; i < pixels.length && seen.size < limit; i += channels) {
    const r = pixels[i]!;
    const g = channels >= 3 ? pixels[i + 1]! : r;
    const b = channels >= 3 ? pixels[i + 2]! : r;
    seen.add((r << 16) | (g << 8) | b);
  }
  return seen.size;
}

/** Mean luminance (0–255) of the image: a dark theme's page is mostly dark. */
export function meanLuminance(image: Image): number {
  let sum = 0;
  const n = image.width * image.height;
  for (let i = 0; i < image.pixels.length; i += image.channels) {
    const r = image.pixels[i]!;
    const g = image.channels >= 3 ? image.pixels[i + 1]! : r;
    const b = image.channels >= 3 ? image.pixels[i + 2]! : r;
    sum += 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  return sum / n;
}
