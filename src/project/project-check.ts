/**
 * What is wrong with a project's files, short of being unreadable: assets whose bytes do not
 * match their name, assets the body names but the files lack, files that are not assets. And
 * the repair for what can be repaired.
 */
import { assetUses, isAssetName, md5ext, md5Hex } from './assets.js';
import type { ProjectFiles, ProjectJson } from './project-json.js';

/** One thing wrong with a project's files. `message` says it in a sentence. */
export type ProjectProblem =
  | {
      /** The asset's bytes do not hash to the md5 in its name (`repairProject` renames it). */
      kind: 'md5-mismatch';
      name: string;
      /** The name its bytes call for. */
      actualName: string;
      message: string;
    }
  | {
      /** The body names this asset but the files lack it. */
      kind: 'missing-asset';
      name: string;
      /** Who names it: targets (`Stage`, sprites) or `customFonts`. */
      usedBy: string[];
      message: string;
    }
  | {
      /** A file whose name is not an asset name (`md5.ext`); `repairProject` leaves it out. */
      kind: 'not-an-asset';
      name: string;
      message: string;
    };

/** Every problem of a project's files, in a stable order: by file, then by missing reference. */
export function checkProject(files: ProjectFiles): ProjectProblem[] {
  const problems: ProjectProblem[] = [];
  for (const [name, bytes] of files.assets) {
    if (!isAssetName(name)) {
      problems.push({
        kind: 'not-an-asset',
        name,
        message: `file ${JSON.stringify(name)} is not an md5ext asset name (md5 of its bytes, a dot, an extension)`,
      });
      continue;
    }
    const actual = md5Hex(bytes);
    if (!name.startsWith(actual)) {
      const actualName = `${actual}${name.slice(name.indexOf('.'))}`;
      problems.push({
        kind: 'md5-mismatch',
        name,
        actualName,
        message: `asset ${name} does not match its bytes: they are ${actualName}`,
      });
    }
  }
  const missing = new Map<string, string[]>();
  for (const use of assetUses(files.json)) {
    if (files.assets.has(use.name)) continue;
    const owners = missing.get(use.name) ?? [];
    if (!owners.includes(use.owner)) owners.push(use.owner);
    missing.set(use.name, owners);
  }
  for (const [name, usedBy] of missing) {
    problems.push({
      kind: 'missing-asset',
      name,
      usedBy,
      message: `asset ${name} (used by ${usedBy.join(', ')}) is missing from the files`,
    });
  }
  return problems;
}

/** What {@link repairProject} did. */
export interface RepairedProject extends ProjectFiles {
  /** Old name → new name of every asset renamed to the md5 of its bytes. */
  renamed: Map<string, string>;
  /** Files left out because they are not assets. */
  dropped: string[];
}

/**
 * Renames every asset whose bytes do not match its name to its real `md5ext` and rewrites the
 * body's references to it (costumes, sounds, custom fonts); leaves out files that are not
 * assets. Missing assets cannot be repaired and stay as they are. The input is not changed.
 */
export function repairProject(files: ProjectFiles): RepairedProject {
  const renamed = new Map<string, string>();
  const dropped: string[] = [];
  const assets = new Map<string, Uint8Array>();
  for (const [name, bytes] of files.assets) {
    if (!isAssetName(name)) {
      dropped.push(name);
      continue;
    }
    const actual = md5ext(bytes, name.slice(name.indexOf('.') + 1));
    if (actual !== name) renamed.set(name, actual);
    assets.set(actual, bytes);
  }
  if (renamed.size === 0) return { json: files.json, assets, renamed, dropped };
  const json = structuredClone(files.json) as ProjectJson;
  for (const { name, entry } of assetUses(json)) {
    const next = renamed.get(name);
    if (next === undefined) continue;
    if (typeof entry.md5ext === 'string') entry.md5ext = next;
    if (typeof entry.assetId === 'string') entry.assetId = next.slice(0, next.indexOf('.'));
  }
  return { json, assets, renamed, dropped };
}
