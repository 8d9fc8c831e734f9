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

/** One place where a project body names an asset file. */
export interface AssetUse {
  /** The asset's file name (`md5ext`). */
  name: string;
  /** Where: a target's name (`Stage`, a sprite) or `customFonts`. */
  owner: string;
  /** The costume, sound or font entry itself (rewritten when an asset is renamed). */
  entry: Record<string, unknown>;
}

/**
 * Every place the body names an asset: costumes and sounds of every target, and TurboWarp's
 * custom fonts (`customFonts[].md5ext` at the top level, or on a target in a sprite export).
 */
export function assetUses(json: ProjectJson): AssetUse[] {
  const uses: AssetUse[] = [];
  const add = (entry: unknown, owner: string) => {
    if (entry === null || typeof entry !== 'object') return;
    const item = entry as Record<string, unknown>;
    const name =
      typeof item.md5ext === 'string'
        ? item.md5ext
        : typeof item.assetId === 'string' && typeof item.dataFormat === 'string'
          ? `${item.assetId}.${item.dataFormat}`
          : undefined;
    if (name) uses.push({ name, owner, entry: item });
  };
  const fonts = (list: unknown) => {
    if (!Array.isArray(list)) return;
    // System fonts name no file; only custom ones carry an md5ext.
    for (const font of list) if (font && typeof font === 'object' && !font.system) add(font, 'customFonts');
  };
  for (const [index, target] of json.targets.entries()) {
    if (target === null || typeof target !== 'object') continue;
    const owner = typeof target.name === 'string' ? target.name : `target ${index}`;
    for (const list of [target.costumes, target.sounds]) {
      if (Array.isArray(list)) for (const entry of list) add(entry, owner);
    }
    fonts(target.customFonts);
  }
  fonts(json.customFonts);
  return uses;
}

/** The distinct asset files a project names (costumes, sounds, custom fonts), in order of first use. */
export function projectAssetNames(json: ProjectJson): string[] {
  return [...new Set(assetUses(json).map((reference) => reference.name))];
}
