/**
 * Turns every form a caller may hand to `projects.save` into `{ json, assets }`:
 * a Map or object or array of `[fileName, content]` pairs (with `project.json` among them),
 * `{ json, assets }` (what `download` and `readSb3` give), a bare project body, or `.sb3` bytes.
 */
import { JsonDepthError, parseJson } from '../records/json.js';
import { isProjectJson, type ProjectFiles, type ProjectJson } from './project-json.js';
import { readSb3 } from './sb3.js';

/** File contents: bytes, or for `project.json` also a string or an object. */
export type FileContent = Uint8Array | ArrayBuffer | string | ProjectJson;

/** Every accepted form of a project to save. */
export type ProjectInput =
  | ProjectFiles
  | { json: ProjectJson | string; assets?: AssetsInput }
  | ProjectJson
  | Map<string, FileContent>
  | Record<string, FileContent>
  | readonly (readonly [string, FileContent])[]
  | Uint8Array;

/** Assets as a Map, an object or pairs, keyed by `md5ext`. */
export type AssetsInput =
  | Map<string, Uint8Array | ArrayBuffer>
  | Record<string, Uint8Array | ArrayBuffer>
  | readonly (readonly [string, Uint8Array | ArrayBuffer])[];

/** Normalizes a project input. Throws TypeError naming what is wrong; validates nothing about md5s. */
export function toProjectFiles(input: ProjectInput): ProjectFiles {
  if (input instanceof Uint8Array) return readSb3(input);
  if (input instanceof Map || Array.isArray(input)) return fromFiles(entries(input));
  if (input === null || typeof input !== 'object') {
    throw new TypeError(
      'project must be a Map, an object, an array of [name, content] pairs, { json, assets } or .sb3 bytes',
    );
  }
  if (isProjectJson(input)) return { json: input, assets: new Map() };
  if ('json' in input) {
    const { json, assets } = input as { json: unknown; assets?: AssetsInput };
    return { json: toJson(json), assets: assets === undefined ? new Map() : toAssets(assets) };
  }
  return fromFiles(Object.entries(input as Record<string, FileContent>));
}

function entries(
  input: Map<string, FileContent> | readonly (readonly [string, FileContent])[],
): [string, FileContent][] {
  if (input instanceof Map) return [...input.entries()];
  return input.map((pair, index) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
      throw new TypeError(`project file ${index} must be a [name, content] pair`);
    }
    return [pair[0], pair[1]] as [string, FileContent];
  });
}

function fromFiles(files: [string, FileContent][]): ProjectFiles {
  let json: ProjectJson | undefined;
  const assets = new Map<string, Uint8Array>();
  for (const [name, content] of files) {
    if (name === 'project.json') json = toJson(content);
    else assets.set(name, toBytes(content, name));
  }
  if (!json) throw new TypeError('the project files have no project.json');
  return { json, assets };
}

function toAssets(input: AssetsInput): Map<string, Uint8Array> {
  const pairs =
    input instanceof Map ? [...input.entries()] : Array.isArray(input) ? input : Object.entries(input);
  const assets = new Map<string, Uint8Array>();
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2)
      throw new TypeError('assets must be [md5ext, bytes] pairs');
    const [name, content] = pair as [string, Uint8Array | ArrayBuffer];
    assets.set(name, toBytes(content, name));
  }
  return assets;
}

function toJson(content: unknown): ProjectJson {
  let value = content;
  if (content instanceof Uint8Array || content instanceof ArrayBuffer) {
    value = new TextDecoder().decode(content);
  }
  if (typeof value === 'string') {
    try {
      value = parseJson(value);
    } catch (cause) {
      if (cause instanceof JsonDepthError) throw new JsonDepthError(cause.limit, 'project.json');
      throw new TypeError('project.json is not valid JSON', { cause });
    }
  }
  if (!isProjectJson(value)) throw new TypeError('project.json must be an object with a targets array');
  return value;
}

function toBytes(content: unknown, name: string): Uint8Array {
  if (content instanceof Uint8Array) return content;
  if (content instanceof ArrayBuffer) return new Uint8Array(content);
  throw new TypeError(`asset ${name} must be bytes (Uint8Array, Buffer or ArrayBuffer)`);
}
