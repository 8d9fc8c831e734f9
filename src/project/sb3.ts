/**
 * `.sb3` files: a zip holding `project.json` and one file per asset, named by its `md5ext`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { isProjectJson, type ProjectFiles } from './project-json.js';
import { unzip, zip } from './zip.js';

/** Reads an `.sb3` (zip bytes) into the project body and its assets. */
export function readSb3(bytes: Uint8Array): ProjectFiles {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('readSb3 takes the bytes of an .sb3 file');
  let files: Record<string, Uint8Array>;
  try {
    files = unzip(bytes);
  } catch (cause) {
    throw new RangeError('not an .sb3 file: the bytes are not a zip archive', { cause });
  }
  const body = files['project.json'];
  if (!body) throw new RangeError('not an .sb3 file: it has no project.json');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch (cause) {
    throw new RangeError('the .sb3 file holds a project.json that is not valid JSON', { cause });
  }
  if (!isProjectJson(json))
    throw new RangeError('the .sb3 file holds a project.json without a targets array');
  const assets = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(files)) {
    if (name !== 'project.json' && !name.endsWith('/')) assets.set(name, data);
  }
  return { json, assets };
}

/** Writes a project and its assets as `.sb3` zip bytes. */
export function writeSb3(project: ProjectFiles): Uint8Array {
  if (!project || !isProjectJson(project.json)) throw new TypeError('writeSb3 takes { json, assets }');
  const files: Record<string, Uint8Array> = {
    'project.json': new TextEncoder().encode(JSON.stringify(project.json)),
  };
  for (const [name, data] of project.assets) files[name] = data;
  return zip(files);
}

/** Loads an `.sb3` file from disk. */
export async function loadSb3(path: string): Promise<ProjectFiles> {
  if (typeof path !== 'string' || path === '') throw new TypeError('loadSb3 takes a file path');
  return readSb3(new Uint8Array(await readFile(path)));
}

/** Saves a project as an `.sb3` file on disk. */
export async function saveSb3(path: string, project: ProjectFiles): Promise<void> {
  if (typeof path !== 'string' || path === '') throw new TypeError('saveSb3 takes a file path');
  await writeFile(path, writeSb3(project));
}
