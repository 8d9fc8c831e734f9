/**
 * A project's statistics, counted the way the Scratch Team's `scratch-analysis` (2.4.2,
 * `lib/sb3.js`) counts them, so that figures agree with theirs: scripts are top-level blocks,
 * blocks leave shadows out but count variable and list reporters stored as arrays, and a block
 * that sets or changes a cloud variable counts under its opcode with `_cloud` appended.
 */
import { isRecord } from './blocks.js';

/** The Scratch Team's statistics of a project. */
export interface ProjectSummary {
  scripts: number;
  blocks: number;
  uniqueBlocks: number;
  /** Targets but the first (the stage). */
  sprites: number;
  variables: number;
  cloudVariables: number;
  lists: number;
  comments: number;
  costumes: number;
  sounds: number;
  /** The extensions' ids (`pen`, `music`…), as the body lists them. */
  extensions: readonly string[];
  /** Opcode → blocks, in the order first met. */
  opcodes: Readonly<Record<string, number>>;
}

const SETTERS = new Set(['data_setvariableto', 'data_changevariableby']);

/** Counts a project body (already checked to have a targets array). */
export function summarize(json: { targets: readonly unknown[]; extensions?: unknown }): ProjectSummary {
  const targets = json.targets.filter(isRecord);
  const stageVariables = isRecord(targets[0]?.variables) ? targets[0].variables : {};
  const isCloud = (id: unknown) => {
    const entry =
      typeof id === 'string' && Object.hasOwn(stageVariables, id) ? stageVariables[id] : undefined;
    return Array.isArray(entry) && entry.length === 3 && Boolean(entry[2]);
  };
  const opcodes: Record<string, number> = Object.create(null);
  let scripts = 0;
  let blocks = 0;
  let variables = 0;
  let cloudVariables = 0;
  let lists = 0;
  let comments = 0;
  let costumes = 0;
  let sounds = 0;
  for (const target of targets) {
    for (const entry of Object.values(isRecord(target.variables) ? target.variables : {})) {
      variables++;
      if (Array.isArray(entry) && entry.length === 3 && entry[2]) cloudVariables++;
    }
    lists += count(target.lists);
    comments += count(target.comments);
    costumes += Array.isArray(target.costumes) ? target.costumes.length : 0;
    sounds += Array.isArray(target.sounds) ? target.sounds.length : 0;
    // for…in, not Object.values: no array of a target's blocks.
    const stored = isRecord(target.blocks) ? target.blocks : {};
    for (const id in stored) {
      const block = stored[id];
      if (isRecord(block) && block.topLevel) scripts++;
      let opcode = opcodeOf(block);
      if (SETTERS.has(opcode) && isRecord(block) && isRecord(block.fields)) {
        const field = block.fields.VARIABLE;
        if (Array.isArray(field) && isCloud(field[1])) opcode += '_cloud';
      }
      if (isRecord(block) && block.shadow) continue;
      blocks++;
      opcodes[opcode] = (opcodes[opcode] ?? 0) + 1;
    }
  }
  return {
    scripts,
    blocks,
    uniqueBlocks: Object.keys(opcodes).length,
    // As scratch-analysis counts them: a body with no targets has -1 sprites.
    sprites: json.targets.length - 1,
    variables,
    cloudVariables,
    lists,
    comments,
    costumes,
    sounds,
    extensions: Array.isArray(json.extensions) ? json.extensions.map(String) : [],
    opcodes: { ...opcodes },
  };
}

/** A block's opcode; a primitive array's from its type; `'undefined'` as scratch-analysis names the rest. */
function opcodeOf(block: unknown): string {
  if (isRecord(block) && typeof block.opcode === 'string') return block.opcode;
  if (Array.isArray(block) && block[0] === 12) return 'data_variable';
  if (Array.isArray(block) && block[0] === 13) return 'data_listcontents';
  return 'undefined';
}

function count(value: unknown): number {
  return isRecord(value) ? Object.keys(value).length : 0;
}
