/**
 * The shape of a Scratch 3 project body (`project.json`), as far as this library reads it.
 * Everything else is kept as-is through the index signatures.
 */

/** A costume or sound entry: names its file by `md5ext` (older files: `assetId` + `dataFormat`). */
export interface AssetReference {
  name?: string;
  assetId?: string;
  md5ext?: string;
  dataFormat?: string;
  [key: string]: unknown;
}

/** The stage or a sprite. */
export interface ProjectTarget {
  isStage?: boolean;
  name?: string;
  variables?: Record<string, unknown>;
  costumes?: AssetReference[];
  sounds?: AssetReference[];
  /** TurboWarp, in a sprite export: the sprite's custom fonts. */
  customFonts?: CustomFont[];
  [key: string]: unknown;
}

/**
 * A TurboWarp font: a system one names a family only; a custom one is an asset file named by
 * `md5ext` (`.ttf`, `.otf`, `.woff`, `.woff2`), stored in the `.sb3` like costumes and sounds.
 */
export interface CustomFont {
  system: boolean;
  family: string;
  fallback: string;
  md5ext?: string;
  [key: string]: unknown;
}

/** A project body. */
export interface ProjectJson {
  targets: ProjectTarget[];
  monitors?: unknown[];
  extensions?: string[];
  meta?: Record<string, unknown>;
  /** TurboWarp's fonts (top level of the body, next to `meta`). */
  customFonts?: CustomFont[];
  [key: string]: unknown;
}

/** A project with its asset files, keyed by `md5ext`. */
export interface ProjectFiles {
  json: ProjectJson;
  assets: Map<string, Uint8Array>;
}

/** True for an object that looks like a project body (has a `targets` array). */
export function isProjectJson(value: unknown): value is ProjectJson {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Array.isArray((value as { targets?: unknown }).targets)
  );
}
