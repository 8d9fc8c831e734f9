/**
 * Zip archives (`.sb3` files): fflate reads and writes the container, and node's own zlib does
 * the inflating, which is several times faster than JavaScript inflate on a cold start (the
 * sandbox unpacks its fixtures at every start). fflate is loaded on first use, so importing the
 * SDK stays cheap.
 */
import { createRequire } from 'node:module';
import { inflateRawSync } from 'node:zlib';
import type * as Fflate from 'fflate';

let fflate: typeof Fflate | undefined;
function load(): typeof Fflate {
  fflate ??= createRequire(import.meta.url)('fflate') as typeof Fflate;
  return fflate;
}

/** fflate's decoder slot for method 8 (deflate), filled by zlib. */
class NativeInflate implements Fflate.UnzipDecoder {
  static readonly compression = 8;
  ondata: Fflate.AsyncFlateStreamHandler = () => {};
  readonly #chunks: Uint8Array[] = [];
  push(data: Uint8Array, final: boolean): void {
    this.#chunks.push(data);
    if (!final) return;
    let out: Uint8Array;
    try {
      out = new Uint8Array(inflateRawSync(Buffer.concat(this.#chunks)));
    } catch (error) {
      const failure = Object.assign(new Error(`corrupt deflate data: ${(error as Error).message}`), {
        code: 1,
      });
      this.ondata(failure, new Uint8Array(), true);
      return;
    }
    this.ondata(null, out, true);
  }
}

/** Unpacks a zip held in memory into its files (folders are skipped). Throws on a broken archive. */
export function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  const { Unzip, UnzipPassThrough } = load();
  const files: Record<string, Uint8Array> = {};
  let failure: Error | undefined;
  const unzipper = new Unzip((file) => {
    if (file.name.endsWith('/')) return;
    const parts: Uint8Array[] = [];
    file.ondata = (error, data, final) => {
      if (error) failure ??= error;
      else parts.push(data);
      if (final && !error) files[file.name] = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    };
    file.start();
  });
  unzipper.register(UnzipPassThrough);
  unzipper.register(NativeInflate);
  unzipper.push(bytes, true);
  if (failure) throw failure;
  // The streaming reader reads local headers; an input with none is not an archive.
  if (Object.keys(files).length === 0 && !isEmptyZip(bytes)) throw new Error('not a zip archive');
  return files;
}

/** Packs files into a zip, deflating each one as Scratch does (SVG and WAV shrink well; PNG barely). */
export function zip(files: Record<string, Uint8Array>): Uint8Array {
  return load().zipSync(files, { level: 6, mem: 8 });
}

function isEmptyZip(bytes: Uint8Array): boolean {
  // An empty archive is only the end-of-central-directory record: "PK\x05\x06".
  return bytes.length >= 22 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 5 && bytes[3] === 6;
}
