import { readFile } from 'node:fs/promises';
import { checkAsset } from '../project/assets.js';
import { unzip } from '../project/zip.js';

/** The real Scratch 3 projects shipped in `./fixtures/` (provenance in `./fixtures/SOURCE.md`). */
export const FIXTURE_NAMES = ['cloud_variables_simple', 'monitored_variables'] as const;
export type FixtureName = (typeof FIXTURE_NAMES)[number];

/** An unpacked `.sb3`: its project.json as text (unchanged) and its assets by `md5ext`. */
interface Fixture {
  name: FixtureName;
  projectJson: string;
  assets: Map<string, Uint8Array>;
}

/**
 * Loads one fixture. The path is relative to this module, which works from `src/` (tests) and
 * from `dist/` (the build copies the folder). Every other file must be an asset named as the
 * client names them (`checkAsset`: lowercase md5 of its bytes, a dot, a short extension).
 */
export async function loadFixture(name: FixtureName): Promise<Fixture> {
  const zip = await readFile(new URL(`./fixtures/${name}.sb3`, import.meta.url));
  const files = unzip(new Uint8Array(zip.buffer, zip.byteOffset, zip.byteLength));
  const projectFile = files['project.json'];
  if (!projectFile) throw new Error(`fixture ${name}.sb3 has no project.json`);
  const assets = new Map<string, Uint8Array>();
  for (const [file, data] of Object.entries(files)) {
    if (file === 'project.json') continue;
    try {
      checkAsset(file, data);
    } catch (err) {
      throw new Error(`fixture ${name}.sb3: ${(err as Error).message}`, { cause: err });
    }
    assets.set(file, data);
  }
  return { name, projectJson: new TextDecoder().decode(projectFile), assets };
}
