/**
 * `.sb3` files: a zip holding `project.json` and one file per asset, named by its `md5ext`.
 * Read the way the platform's own parser reads them (a `project.json` at the top or in one
 * top-level folder; macOS junk ignored), then checked so that the caller learns every problem.
 */
import { open, stat } from 'node:fs/promises';
import { writeFileAtomic } from '../atomic-write.js';
import { JsonDepthError, parseJson, stringifyJson } from '../records/json.js';
import { ArchiveError } from './archive-error.js';
import { checkProject, type ProjectProblem } from './project-check.js';
import { isProjectJson, type ProjectFiles, type ProjectJson } from './project-json.js';
import { readZip, type ZipLimits, zip, zipLimits } from './zip.js';

/** Options of {@link readSb3} and {@link loadSb3}: limits on what the archive may cost. */
export type ReadSb3Options = ZipLimits;

/** A project read from an `.sb3` file, with what is wrong with it. */
export interface Sb3Project extends ProjectFiles {
  /**
   * Problems that do not stop the project from loading: assets whose bytes do not match their
   * name, assets the body names but the file lacks, files that are not assets. Empty for a
   * sound project. `projects.save(id, project, { repair: true })` fixes what can be fixed.
   */
  problems: ProjectProblem[];
}

const SCRATCH2_HELP =
  'open it in the Scratch 3 editor (https://scratch.mit.edu/projects/editor/, File > Load from your computer) ' +
  "or TurboWarp and save it again as .sb3; the converter is scratch-vm's src/serialization/sb2.js";

/**
 * Reads an `.sb3` (zip bytes) into the project body, its assets and its problems. Throws
 * {@link ArchiveError} (a RangeError) when the file cannot be used, its `code` saying why.
 */
export function readSb3(bytes: Uint8Array, options: ReadSb3Options = {}): Sb3Project {
  const files = readArchive(bytes, options, isJunk);
  const folder = projectFolder(files);
  const json = readProjectJson(files.get(`${folder}project.json`)!);
  const assets = new Map<string, Uint8Array>();
  for (const [name, data] of files) {
    // Files outside the project's folder are not part of it.
    if (!name.startsWith(folder) || name === `${folder}project.json`) continue;
    assets.set(name.slice(folder.length), data);
  }
  const project = { json, assets };
  return { ...project, problems: checkProject(project) };
}

/**
 * Reads only the project body of an `.sb3` (zip bytes), as {@link readSb3} reads it: the assets
 * are counted against the limits but never inflated, so a small archive of huge assets (a zip
 * bomb) costs no memory to a reader that needs the body alone (an analysis).
 */
export function readSb3Json(bytes: Uint8Array, options: ReadSb3Options = {}): ProjectJson {
  // project.json and sprite.json are kept so that the same errors name what the archive is.
  const files = readArchive(bytes, options, (name) => isJunk(name) || !BODY_NAMES.test(name));
  return readProjectJson(files.get(`${projectFolder(files)}project.json`)!);
}

/** The entries that say what an archive is: a project's or a sprite's body, at the top or in one folder. */
const BODY_NAMES = /^([^/]+\/)?(project|sprite)\.json$/;

/** The archive's files but those `skip` names; bytes that are not a zip are an `.sb3`'s `not-zip`. */
function readArchive(
  bytes: Uint8Array,
  options: ReadSb3Options,
  skip: (name: string) => boolean,
): Map<string, Uint8Array> {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('readSb3 takes the bytes of an .sb3 file');
  if (startsWith(bytes, 'ScratchV0')) {
    throw new ArchiveError(
      'scratch2',
      `this is a Scratch 1.x project (.sb), not Scratch 3: ${SCRATCH2_HELP}`,
    );
  }
  try {
    return readZip(bytes, { ...options, skip });
  } catch (error) {
    if (error instanceof ArchiveError && error.code === 'not-zip') {
      throw new ArchiveError('not-zip', 'not an .sb3 file: the bytes are not a zip archive', undefined, {
        cause: error,
      });
    }
    throw error;
  }
}

/** Writes a project and its assets as `.sb3` zip bytes. Refuses unsafe names and too-deep bodies. */
export function writeSb3(project: ProjectFiles): Uint8Array {
  if (!project || !isProjectJson(project.json) || !(project.assets instanceof Map))
    throw new TypeError('writeSb3 takes { json, assets }');
  const files = new Map<string, Uint8Array>([
    ['project.json', new TextEncoder().encode(stringifyJson(project.json, undefined, 'project.json'))],
  ]);
  for (const [name, data] of project.assets) {
    // zip() refuses names that could escape a folder (`..`, absolute, backslashes).
    if (typeof name !== 'string' || name === 'project.json' || name.endsWith('/'))
      throw new RangeError(`asset name ${JSON.stringify(name)} cannot be written into an .sb3`);
    if (!(data instanceof Uint8Array)) throw new TypeError(`asset ${name} must be bytes (Uint8Array)`);
    files.set(name, data);
  }
  return zip(files);
}

/** Loads an `.sb3` file from disk (see {@link readSb3}); a file larger than the limits is not read. */
export async function loadSb3(path: string, options: ReadSb3Options = {}): Promise<Sb3Project> {
  if (typeof path !== 'string' || path === '') throw new TypeError('loadSb3 takes a file path');
  const limits = zipLimits(options);
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    // An archive is never much larger than its contents: headers cost well under a KiB an entry.
    const bound = limits.maxTotalBytes + limits.maxEntries * 1024;
    if (size > bound) {
      throw new ArchiveError(
        'limit',
        `${path} is ${size} bytes, more than an .sb3 within the limits can be (maxTotalBytes ${limits.maxTotalBytes})`,
      );
    }
    return readSb3(new Uint8Array(await handle.readFile()), options);
  } finally {
    await handle.close();
  }
}

/** Saves a project as an `.sb3` file on disk, whole or not at all (a fresh file renamed over it). */
export async function saveSb3(path: string, project: ProjectFiles): Promise<void> {
  if (typeof path !== 'string' || path === '') throw new TypeError('saveSb3 takes a file path');
  const bytes = writeSb3(project);
  // Whole or not at all: a crash or a full disk mid-write must not destroy the previous save.
  // An existing file keeps its permission bits, as writing over it in place did.
  const mode = await stat(path).then(
    (info) => info.mode & 0o777,
    () => undefined,
  );
  await writeFileAtomic(path, bytes, mode);
}

/** macOS leaves these in archives it makes; they are never part of a project. */
function isJunk(name: string): boolean {
  const parts = name.split('/');
  const base = parts[parts.length - 1] ?? '';
  return parts[0] === '__MACOSX' || base.startsWith('._') || base === '.DS_Store';
}

/** `''` for a `project.json` at the top, `'folder/'` for one in a single top-level folder. */
function projectFolder(files: Map<string, Uint8Array>): string {
  if (files.has('project.json')) return '';
  const nested = [...files.keys()].filter((name) => /^[^/]+\/project\.json$/.test(name));
  if (nested.length === 1) return nested[0]!.slice(0, -'project.json'.length);
  if (nested.length > 1) {
    throw new ArchiveError(
      'no-project-json',
      `not an .sb3 file: it holds several projects (${nested.join(', ')}), not one project.json`,
    );
  }
  if ([...files.keys()].some((name) => /^([^/]+\/)?sprite\.json$/.test(name))) {
    throw new ArchiveError(
      'sprite',
      'this is a sprite (.sprite3), not a project: it has sprite.json, no project.json',
    );
  }
  throw new ArchiveError('no-project-json', 'not an .sb3 file: it has no project.json');
}

function readProjectJson(body: Uint8Array) {
  let json: unknown;
  try {
    json = parseJson(new TextDecoder().decode(body));
  } catch (cause) {
    const why =
      cause instanceof JsonDepthError
        ? `nested deeper than ${cause.limit} levels`
        : `not valid JSON: ${(cause as Error).message}`;
    throw new ArchiveError(
      'bad-project-json',
      `the .sb3 file holds a project.json that is ${why}`,
      'project.json',
      {
        cause,
      },
    );
  }
  if (json !== null && typeof json === 'object' && ('objName' in json || 'children' in json)) {
    throw new ArchiveError('scratch2', `this is a Scratch 2 project (.sb2), not Scratch 3: ${SCRATCH2_HELP}`);
  }
  if (!isProjectJson(json)) {
    throw new ArchiveError(
      'bad-project-json',
      'the .sb3 file holds a project.json without a targets array',
      'project.json',
    );
  }
  return json;
}

function startsWith(bytes: Uint8Array, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (bytes[i] !== text.charCodeAt(i)) return false;
  return true;
}
