/**
 * Zip archives (`.sb3` files). Reading is done here from the archive's central directory, so
 * that every entry's name, method and sizes are checked against the limits before a single
 * byte is inflated; node's own zlib then inflates each entry with its declared size as a hard
 * cap (a header can lie), and its CRC is checked. Writing uses fflate, loaded on first use so
 * importing the SDK stays cheap.
 */
import { createRequire } from 'node:module';
import { crc32, inflateRawSync } from 'node:zlib';
import type * as Fflate from 'fflate';
import { ArchiveError } from './archive-error.js';

/** Bounds on what reading an archive may cost. */
export interface ZipLimits {
  /** Entries in the archive, folders and skipped entries included (default 10 000). */
  maxEntries?: number;
  /** Uncompressed bytes of one entry (default 32 MiB). */
  maxEntryBytes?: number;
  /** Uncompressed bytes of all entries together (default 512 MiB). */
  maxTotalBytes?: number;
}

/**
 * The default limits. Scratch itself takes assets up to 10 MB and project bodies up to 5 MB;
 * files made with other editors (TurboWarp) go beyond that, so the bounds are roomier, but
 * still far below what would hurt a process.
 */
export const DEFAULT_ZIP_LIMITS: Readonly<Required<ZipLimits>> = Object.freeze({
  maxEntries: 10_000,
  maxEntryBytes: 32 * 1024 * 1024,
  maxTotalBytes: 512 * 1024 * 1024,
});

/** Options of {@link readZip}. */
interface ReadZipOptions extends ZipLimits {
  /** Entries for which this answers true are neither inflated nor returned (still counted). */
  skip?: (name: string) => boolean;
}

/** One entry as the central directory describes it. */
interface Entry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;
const METHOD_NAMES: Readonly<Record<number, string>> = {
  1: 'shrink',
  6: 'implode',
  9: 'deflate64',
  12: 'bzip2',
  14: 'LZMA',
  93: 'Zstandard',
  95: 'xz',
  98: 'PPMd',
  99: 'AES encryption',
};

/** Resolves limits over the defaults, refusing nonsense (a caller mistake, so RangeError). */
export function zipLimits(limits: ZipLimits = {}): Required<ZipLimits> {
  const out = { ...DEFAULT_ZIP_LIMITS };
  for (const key of ['maxEntries', 'maxEntryBytes', 'maxTotalBytes'] as const) {
    const value = limits[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`${key} must be a positive integer, not ${String(value)}`);
    out[key] = value;
  }
  return out;
}

/**
 * Unpacks a zip held in memory into its files, in archive order, keyed by their full names
 * (folders are left out). Throws {@link ArchiveError} for anything it cannot read safely: see
 * its codes.
 */
export function readZip(bytes: Uint8Array, options: ReadZipOptions = {}): Map<string, Uint8Array> {
  const limits = zipLimits(options);
  const entries = centralDirectory(bytes, limits);
  // Everything the headers promise is checked before anything is inflated.
  let total = 0;
  const seen = new Set<string>();
  for (const entry of entries) {
    checkName(entry.name);
    if (seen.has(entry.name))
      throw new ArchiveError('duplicate-entry', `the archive holds ${quote(entry.name)} twice`, entry.name);
    seen.add(entry.name);
    if (entry.flags & 1)
      throw new ArchiveError('unsupported', `entry ${quote(entry.name)} is encrypted`, entry.name);
    if (entry.method !== STORED && entry.method !== DEFLATE) {
      const method = METHOD_NAMES[entry.method] ?? `method ${entry.method}`;
      throw new ArchiveError(
        'unsupported-compression',
        `entry ${quote(entry.name)} is compressed with ${method} (compression method ${entry.method}); ` +
          'only stored and deflate entries are supported: re-save the file with a zip tool that uses deflate',
        entry.name,
      );
    }
    if (entry.size > limits.maxEntryBytes) throw entryTooBig(entry.name, entry.size, limits.maxEntryBytes);
    total += entry.size;
    if (total > limits.maxTotalBytes) throw totalTooBig(limits.maxTotalBytes, `${total} or more`);
  }

  const files = new Map<string, Uint8Array>();
  for (const entry of entries) {
    if (entry.name.endsWith('/') || options.skip?.(entry.name)) continue;
    files.set(entry.name, inflateEntry(bytes, entry));
  }
  return files;
}

/**
 * {@link readZip} as a plain object. It has a null prototype, so an entry named `__proto__` is
 * kept as data like any other.
 */
export function unzip(bytes: Uint8Array, options: ReadZipOptions = {}): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = Object.create(null);
  for (const [name, data] of readZip(bytes, options)) files[name] = data;
  return files;
}

/** Packs files into a zip, deflating each one as Scratch does (SVG and WAV shrink well; PNG barely). */
export function zip(files: Map<string, Uint8Array> | Record<string, Uint8Array>): Uint8Array {
  const input: Record<string, Uint8Array> = Object.create(null);
  for (const [name, data] of files instanceof Map ? files : Object.entries(files)) {
    checkName(name);
    input[name] = data;
  }
  return load().zipSync(input, { level: 6, mem: 8 });
}

let fflate: typeof Fflate | undefined;
function load(): typeof Fflate {
  fflate ??= createRequire(import.meta.url)('fflate') as typeof Fflate;
  return fflate;
}

/** Refuses names that would escape a folder if the archive were extracted, or differ by system. */
function checkName(name: string): void {
  const why = name.includes('\\')
    ? 'a backslash'
    : name.includes('\0')
      ? 'a NUL character'
      : name.startsWith('/')
        ? 'an absolute path'
        : /^[a-zA-Z]:/.test(name)
          ? 'a drive letter'
          : name.split('/').includes('..')
            ? 'a ".." segment'
            : name === ''
              ? 'an empty name'
              : undefined;
  if (why) throw new ArchiveError('unsafe-name', `entry name ${quote(name)} is refused: it has ${why}`, name);
}

function centralDirectory(bytes: Uint8Array, limits: Required<ZipLimits>): Entry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndRecord(view);
  if (eocd < 0) {
    if (bytes.length >= 4 && view.getUint32(0, true) === LOCAL) {
      throw new ArchiveError(
        'truncated',
        'the archive is cut short: it starts like a zip but its central directory (the list of entries at the end) is missing',
      );
    }
    throw new ArchiveError('not-zip', 'the bytes are not a zip archive');
  }
  const count = view.getUint16(eocd + 10, true);
  const size = view.getUint32(eocd + 12, true);
  const offset = view.getUint32(eocd + 16, true);
  if (view.getUint16(eocd + 4, true) !== 0 || view.getUint16(eocd + 6, true) !== 0)
    throw new ArchiveError('unsupported', 'multi-part zip archives are not supported');
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff)
    throw new ArchiveError('unsupported', 'zip64 archives are not supported');
  if (count > limits.maxEntries) {
    throw new ArchiveError(
      'limit',
      `the archive has ${count} entries, more than the limit of ${limits.maxEntries} (maxEntries)`,
    );
  }
  if (offset + size > eocd) {
    throw new ArchiveError(
      'truncated',
      'the archive is cut short or damaged: its central directory lies outside the file',
    );
  }
  const entries: Entry[] = [];
  let at = offset;
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > offset + size || view.getUint32(at, true) !== CENTRAL)
      throw new ArchiveError('corrupt', `the archive's central directory is damaged at entry ${i + 1}`);
    const nameLength = view.getUint16(at + 28, true);
    const next = at + 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (next > offset + size)
      throw new ArchiveError('corrupt', `the archive's central directory is damaged at entry ${i + 1}`);
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at = next;
  }
  return entries;
}

/**
 * The offset of the end-of-central-directory record, searched from the end past any comment.
 * Like JSZip (which the platform's parser uses), bytes after the record are tolerated.
 */
function findEndRecord(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (view.getUint32(at, true) === EOCD && at + 22 + view.getUint16(at + 20, true) <= view.byteLength)
      return at;
  }
  return -1;
}

function inflateEntry(bytes: Uint8Array, entry: Entry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { name } = entry;
  const at = entry.localOffset;
  if (at + 30 > bytes.length)
    throw new ArchiveError('truncated', `the archive is cut short: entry ${quote(name)} is missing`, name);
  if (view.getUint32(at, true) !== LOCAL)
    throw new ArchiveError(
      'corrupt',
      `entry ${quote(name)} has no local header where the directory says`,
      name,
    );
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length)
    throw new ArchiveError('truncated', `the archive is cut short: entry ${quote(name)} is incomplete`, name);
  const raw = bytes.subarray(start, end);
  let data: Uint8Array;
  if (entry.method === STORED) {
    data = raw.slice();
  } else {
    try {
      // The declared size is a hard cap: inflating stops as soon as the output passes it.
      const out = inflateRawSync(raw, { maxOutputLength: Math.max(1, entry.size) });
      data = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ArchiveError(
          'limit',
          `entry ${quote(name)} inflates past the ${entry.size} bytes its header declares; the archive is refused`,
          name,
          { cause: error },
        );
      }
      throw new ArchiveError(
        'corrupt',
        `entry ${quote(name)} does not inflate: ${(error as Error).message}`,
        name,
        {
          cause: error,
        },
      );
    }
  }
  if (data.length !== entry.size) {
    throw new ArchiveError(
      'corrupt',
      `entry ${quote(name)} holds ${data.length} bytes where its header declares ${entry.size}`,
      name,
    );
  }
  if (crc32(data) >>> 0 !== entry.crc)
    throw new ArchiveError('corrupt', `entry ${quote(name)} fails its CRC check (damaged data)`, name);
  return data;
}

function entryTooBig(name: string, size: number, limit: number): ArchiveError {
  return new ArchiveError(
    'limit',
    `entry ${quote(name)} is ${size} bytes uncompressed, more than the limit of ${limit} (maxEntryBytes)`,
    name,
  );
}

function totalTooBig(limit: number, total: string): ArchiveError {
  return new ArchiveError(
    'limit',
    `the archive holds ${total} bytes uncompressed, more than the limit of ${limit} (maxTotalBytes)`,
  );
}

function quote(name: string): string {
  return JSON.stringify(name);
}
