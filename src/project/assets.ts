/**
 * Asset naming: every costume and sound is stored under `md5ext`, the md5 of its bytes in hex,
 * a dot and its extension (WIRE.md §4).
 */
import { createHash } from 'node:crypto';
import type { ProjectJson } from './project-json.js';

const MD5EXT = /^([0-9a-f]{32})\.([a-z0-9]{1,5})$/;

/** The md5 of some bytes, in lowercase hex. */
export function md5Hex(bytes: Uint8Array): string {
  return createHash('md5').update(bytes).digest('hex');
}

/** The `md5ext` name for bytes with an extension (`png`, `.svg`, …). */
export function md5ext(bytes: Uint8Array, extension: string): string {
  const ext = extension.replace(/^\./, '').toLowerCase();
  if (!/^[a-z0-9]{1,5}$/.test(ext))
    throw new RangeError(`not an asset extension: ${JSON.stringify(extension)}`);
  return `${md5Hex(bytes)}.${ext}`;
}

/** True when `name` has the form of an asset name (32 lowercase hex digits, dot, short extension). */
export function isAssetName(name: string): boolean {
  return MD5EXT.test(name);
}

/**
 * Checks an asset's name and bytes; the error says which asset is wrong and why.
 * Used before any upload, so a bad asset means nothing is written.
 */
export function checkAsset(name: string, bytes: unknown): asserts bytes is Uint8Array {
  if (typeof name !== 'string' || !MD5EXT.test(name)) {
    throw new RangeError(
      `asset name ${JSON.stringify(name)} is not an md5ext (32 hex digits, a dot and an extension)`,
    );
  }
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`asset ${name} must be bytes (Uint8Array or Buffer)`);
  }
  const actual = md5Hex(bytes);
  if (!name.startsWith(actual)) {
    throw new RangeError(`asset ${name} does not match its bytes: their md5 is ${actual}`);
  }
}

/** The distinct asset files a project names, in the order they first appear. */
export function projectAssetNames(json: ProjectJson): string[] {
  const names = new Set<string>();
  for (const target of json.targets) {
    for (const entry of [...(target.costumes ?? []), ...(target.sounds ?? [])]) {
      const name =
        typeof entry.md5ext === 'string'
          ? entry.md5ext
          : typeof entry.assetId === 'string' && typeof entry.dataFormat === 'string'
            ? `${entry.assetId}.${entry.dataFormat}`
            : undefined;
      if (name) names.add(name);
    }
  }
  return [...names];
}
