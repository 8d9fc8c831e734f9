/**
 * The Scratch Team's own VM (`scratch-vm` from npm, the version scratch-gui 5.3.0 ships with), run
 * in Node as an oracle for project bodies: what it loads and how it reads them, not our reading of
 * the format. Typed here as far as the tests read it (the package has no types).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { AssetReference, ProjectJson } from '../../src/index.js';

interface VmVariable {
  id: string;
  name: string;
  type: string;
  isCloud: boolean;
}

interface VmTarget {
  isOriginal: boolean;
  isStage: boolean;
  getName(): string;
  variables: Record<string, VmVariable>;
  blocks: { getScripts(): string[] };
  getCostumes(): VmAsset[];
  getSounds(): VmAsset[];
}

/** A costume or sound as the VM keeps it: `md5` is its `md5ext`; `asset` what storage loaded. */
interface VmAsset {
  name: string;
  md5: string;
  asset?: { data: Uint8Array };
}

interface VirtualMachine {
  loadProject(input: string | Uint8Array | object): Promise<void>;
  attachStorage(storage: unknown): void;
  runtime: { targets: VmTarget[] };
}

interface Storage {
  AssetType: Record<'ImageVector' | 'ImageBitmap' | 'Sound', unknown>;
  addWebStore(types: unknown[], url: (asset: { assetId: string; dataFormat: string }) => string): void;
}

const require = createRequire(import.meta.url);
const VM = require('scratch-vm') as new () => VirtualMachine;
const { ScratchStorage } = require('scratch-storage') as { ScratchStorage: new () => Storage };
// The VM warns for every costume it cannot draw and sound it cannot play (no renderer or audio
// engine in Node): hundreds of lines that say nothing about the body. Its own logger, silenced.
(createRequire(require.resolve('scratch-vm'))('minilog') as { disable(): void }).disable();

/**
 * One project's targets as a reader sees them: name, stage or not, every variable, list and
 * message by id (`name`, its kind, cloud or not), the ids of the top-level scripts, and the costume
 * and sound names, in order.
 */
export interface TargetView {
  name: string;
  isStage: boolean;
  variables: Record<string, string>;
  scripts: string[];
  /** `name md5ext` of each costume, in order. */
  costumes: string[];
  /** `name md5ext` of each sound, in order. */
  sounds: string[];
}

/**
 * `name md5ext` of a costume or sound the VM holds; `name md5ext≠md5` when storage loaded bytes
 * whose md5 is not the one the body names (so a view of such a project never equals the body's).
 */
function vmAsset(a: VmAsset): string {
  const data = a.asset?.data;
  if (data === undefined) return `${a.name} ${a.md5}`;
  const md5 = createHash('md5').update(data).digest('hex');
  return a.md5.startsWith(`${md5}.`) ? `${a.name} ${a.md5}` : `${a.name} ${a.md5}≠${md5}`;
}

/** The VM's own view of what it loaded (the original targets, not clones). */
function vmView(vm: VirtualMachine): TargetView[] {
  return vm.runtime.targets
    .filter((t) => t.isOriginal)
    .map((t) => ({
      name: t.getName(),
      isStage: t.isStage,
      variables: Object.fromEntries(
        Object.values(t.variables).map((v) => [
          v.id,
          `${v.type || 'scalar'}:${v.name}${v.isCloud ? ':cloud' : ''}`,
        ]),
      ),
      scripts: [...t.blocks.getScripts()].sort(),
      costumes: t.getCostumes().map(vmAsset),
      sounds: t.getSounds().map(vmAsset),
    }));
}

type Entries = Record<string, unknown> | undefined;

function bodyAsset(a: AssetReference): string {
  return `${a.name} ${a.md5ext ?? `${a.assetId}.${a.dataFormat}`}`;
}

/** The same view of a body as the SDK reads it (`projects.getJson`, `readSb3`). */
export function bodyView(json: ProjectJson): TargetView[] {
  // In the body's order, as the VM keeps them in `runtime.targets` (it draws them by layer).
  return json.targets.map((t) => {
    const variables: Record<string, string> = {};
    for (const [id, v] of Object.entries((t.variables as Entries) ?? {})) {
      const [name, , cloud] = v as [string, unknown, boolean?];
      variables[id] = `scalar:${name}${cloud === true ? ':cloud' : ''}`;
    }
    for (const [id, v] of Object.entries((t.lists as Entries) ?? {}))
      variables[id] = `list:${(v as [string])[0]}`;
    for (const [id, name] of Object.entries((t.broadcasts as Entries) ?? {}))
      variables[id] = `broadcast_msg:${name}`;
    const blocks = (t.blocks as Entries) ?? {};
    // A top-level block is an object with `topLevel`, or a loose reporter stored as an array.
    const scripts = Object.keys(blocks).filter((id) => {
      const block = blocks[id];
      return Array.isArray(block) || (block as { topLevel?: boolean }).topLevel === true;
    });
    return {
      name: String(t.name),
      isStage: t.isStage === true,
      variables,
      scripts: scripts.sort(),
      costumes: (t.costumes ?? []).map(bodyAsset),
      sounds: (t.sounds ?? []).map(bodyAsset),
    };
  });
}

/**
 * Loads a body or an `.sb3` (bytes) into a fresh VM and answers its view of the targets. Rejects
 * as the VM does for a body it refuses. With `assets` (an asset host's base URL, as the web
 * client's `assetHost`), the VM's own storage module fetches every costume and sound the body
 * names from `{assets}/internalapi/asset/<md5ext>/get/`; bytes that are not the md5 their name
 * says show in the view (`vmAsset`). A file it cannot fetch at all sends the VM to its fallback
 * costume, which needs a renderer: in Node that is an uncaught TypeError (`createSVGSkin`), so the
 * test run fails, not quietly. An `.sb3` brings its own files.
 */
export async function loadInVm(input: string | Uint8Array, assets?: string): Promise<TargetView[]> {
  const vm = new VM();
  if (assets !== undefined) {
    const storage = new ScratchStorage();
    const { ImageVector, ImageBitmap, Sound } = storage.AssetType;
    storage.addWebStore(
      [ImageVector, ImageBitmap, Sound],
      (asset) => `${assets}/internalapi/asset/${asset.assetId}.${asset.dataFormat}/get/`,
    );
    vm.attachStorage(storage);
  }
  await vm.loadProject(typeof input === 'string' ? input : Buffer.from(input));
  return vmView(vm);
}
