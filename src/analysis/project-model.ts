/**
 * The block-level model of a project: typed, read-only views of its targets (the stage, then the
 * sprites), each with its blocks, scripts, blocks under no script, variables, lists, broadcasts,
 * comments, costumes and sounds; and the project's monitors and extensions.
 */
import { AnalysisError } from './analysis-error.js';
import { type AnalysisLimits, analysisLimits } from './analysis-limits.js';
import { type Block, isRecord, readBlocks } from './blocks.js';
import { type Script, walkScript } from './scripts.js';

/** A variable or list a target declares. */
export interface Declaration {
  id: string;
  name: string;
  /** Variables only: true for a cloud variable (`["☁ name", value, true]`). */
  cloud: boolean;
}

/** A comment; `blockId` null when it is attached to no block. */
export interface CommentView {
  id: string;
  blockId: string | null;
  text: string;
}

/** A costume or sound. */
export interface AssetView {
  name: string;
  md5ext: string;
}

/** The stage or a sprite. */
export interface TargetView {
  name: string;
  isStage: boolean;
  blocks: ReadonlyMap<string, Block>;
  scripts: readonly Script[];
  /** Blocks no script reaches (a stack whose parent is gone, a loose shadow is left out). */
  orphans: readonly Block[];
  variables: readonly Declaration[];
  lists: readonly Declaration[];
  broadcasts: readonly { id: string; name: string }[];
  comments: readonly CommentView[];
  costumes: readonly AssetView[];
  sounds: readonly AssetView[];
}

/** A monitor (a variable's, list's or reporter's readout on the stage). */
export interface MonitorView {
  id: string;
  opcode: string;
  mode: string;
  visible: boolean;
  spriteName: string | null;
}

/** A whole project. */
export interface ProjectModel {
  targets: readonly TargetView[];
  stage: TargetView | undefined;
  sprites: readonly TargetView[];
  monitors: readonly MonitorView[];
  extensions: readonly string[];
}

/**
 * Reads a project body into the model. AnalysisError (`code`) for a Scratch 2 body, a body that
 * is not a project, and for cycles, missing blocks and limits.
 */
export function readProjectModel(json: unknown, limits: AnalysisLimits = {}): ProjectModel {
  const { maxBlocks, maxDepth } = analysisLimits(limits);
  checkBody(json);
  let total = 0;
  const targets = json.targets.map((stored, index) => {
    if (!isRecord(stored)) throw new AnalysisError('bad-project', `target ${index} is not an object`);
    const name = typeof stored.name === 'string' ? stored.name : `#${index}`;
    if (isRecord(stored.blocks)) {
      // Counted before anything is read, so that a huge body costs no model.
      for (const _ in stored.blocks) {
        if (++total > maxBlocks) {
          throw new AnalysisError('too-many-blocks', `the project has more than ${maxBlocks} blocks`, name);
        }
      }
    }
    return readTarget(stored, name, maxDepth);
  });
  return {
    targets,
    stage: targets.find((target) => target.isStage),
    sprites: targets.filter((target) => !target.isStage),
    monitors: readMonitors(json.monitors),
    extensions: Array.isArray(json.extensions) ? json.extensions.filter((id) => typeof id === 'string') : [],
  };
}

/** Throws AnalysisError unless `json` is a Scratch 3 body. */
export function checkBody(json: unknown): asserts json is { targets: unknown[]; [key: string]: unknown } {
  if (isRecord(json) && !Array.isArray(json.targets) && ('objName' in json || 'children' in json)) {
    throw new AnalysisError(
      'scratch2',
      'this is a Scratch 2 project body (objName, children), not Scratch 3: open it in the Scratch 3 editor or TurboWarp and save it again',
    );
  }
  if (!isRecord(json) || !Array.isArray(json.targets)) {
    throw new AnalysisError('bad-project', 'a project body is an object with a targets array');
  }
}

function readTarget(stored: Record<string, unknown>, name: string, maxDepth: number): TargetView {
  const blocks = readBlocks(stored.blocks, name);
  const seen = new Set<string>();
  const scripts: Script[] = [];
  for (const block of blocks.values()) {
    if (block.topLevel) scripts.push(walkScript(name, block, blocks, seen, maxDepth));
  }
  const orphans: Block[] = [];
  // Every block a script reached is in `seen`: when all of them are, there is nothing to look for.
  if (seen.size < blocks.size) {
    for (const block of blocks.values()) if (!seen.has(block.id) && !block.shadow) orphans.push(block);
  }
  return {
    name,
    isStage: stored.isStage === true,
    blocks,
    scripts,
    orphans,
    variables: declarations(stored.variables, true),
    lists: declarations(stored.lists, false),
    broadcasts: isRecord(stored.broadcasts)
      ? Object.entries(stored.broadcasts).map(([id, text]) => ({ id, name: String(text) }))
      : [],
    comments: isRecord(stored.comments)
      ? Object.entries(stored.comments).map(([id, comment]) => {
          const entry = isRecord(comment) ? comment : {};
          return {
            id,
            blockId: typeof entry.blockId === 'string' ? entry.blockId : null,
            text: typeof entry.text === 'string' ? entry.text : '',
          };
        })
      : [],
    costumes: assets(stored.costumes),
    sounds: assets(stored.sounds),
  };
}

function declarations(stored: unknown, variables: boolean): Declaration[] {
  if (!isRecord(stored)) return [];
  return Object.entries(stored).map(([id, entry]) => {
    const fields = Array.isArray(entry) ? entry : [];
    return {
      id,
      name: String(fields[0] ?? ''),
      cloud: variables && fields.length === 3 && fields[2] === true,
    };
  });
}

function assets(stored: unknown): AssetView[] {
  if (!Array.isArray(stored)) return [];
  return stored.map((entry) => {
    const asset = isRecord(entry) ? entry : {};
    const md5ext =
      typeof asset.md5ext === 'string'
        ? asset.md5ext
        : `${String(asset.assetId)}.${String(asset.dataFormat)}`;
    return { name: typeof asset.name === 'string' ? asset.name : '', md5ext };
  });
}

function readMonitors(stored: unknown): MonitorView[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter(isRecord).map((monitor) => ({
    id: String(monitor.id ?? ''),
    opcode: String(monitor.opcode ?? ''),
    mode: String(monitor.mode ?? ''),
    visible: monitor.visible === true,
    spriteName: typeof monitor.spriteName === 'string' ? monitor.spriteName : null,
  }));
}
