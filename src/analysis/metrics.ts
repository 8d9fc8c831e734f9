/**
 * Code metrics, per script and for the project: size (blocks, shadows left out), nesting (how
 * many C-blocks deep), and McCabe's cyclomatic complexity, which Aivaloglou and Hermans ("How Kids
 * Code and How We Know", ICER 2016) measured on Scratch scripts: 1 + the script's decision points.
 * Ours are the blocks that test or count (`if`, `if else`, `repeat`, `repeat until`, `wait until`);
 * `forever` decides nothing.
 */
import type { Procedures } from './procedures.js';
import type { ProjectModel } from './project-model.js';
import type { References } from './references.js';
import type { Script } from './scripts.js';

const DECISIONS = new Set([
  'control_if',
  'control_if_else',
  'control_repeat',
  'control_repeat_until',
  'control_wait_until',
  // TurboWarp's and older files' loops.
  'control_while',
  'control_for_each',
]);

/** The metrics of one script. */
export interface ScriptMetrics {
  target: string;
  /** Its top block's id and opcode. */
  top: string;
  opcode: string;
  /** True when it starts with a hat. */
  hat: boolean;
  blocks: number;
  nesting: number;
  complexity: number;
}

/** The project's metrics. */
export interface ProjectMetrics {
  scripts: readonly ScriptMetrics[];
  /** Blocks in scripts (shadows left out). */
  blocks: number;
  meanBlocksPerScript: number;
  maxBlocksPerScript: number;
  maxNesting: number;
  maxComplexity: number;
  meanComplexity: number;
  proceduresDefined: number;
  /** Custom blocks called at least once. */
  proceduresCalled: number;
  /** Calls of custom blocks. */
  procedureCalls: number;
  /** `broadcast` and `broadcast and wait` blocks, and `when I receive` hats. */
  broadcastsSent: number;
  broadcastsReceived: number;
}

/** The metrics of one script. */
export function scriptMetrics(script: Script): ScriptMetrics {
  let decisions = 0;
  for (const block of script.blocks) if (DECISIONS.has(block.opcode)) decisions++;
  return {
    target: script.target,
    top: script.top.id,
    opcode: script.top.opcode,
    hat: script.hat,
    blocks: script.blockCount,
    nesting: script.nesting,
    complexity: 1 + decisions,
  };
}

/** The project's metrics, from its model, procedures and references. */
export function projectMetrics(
  model: ProjectModel,
  procedures: Procedures,
  references: References,
): ProjectMetrics {
  const scripts = model.targets.flatMap((target) => target.scripts.map(scriptMetrics));
  const blocks = scripts.reduce((sum, script) => sum + script.blocks, 0);
  const complexity = scripts.reduce((sum, script) => sum + script.complexity, 0);
  return {
    scripts,
    blocks,
    meanBlocksPerScript: scripts.length ? round(blocks / scripts.length) : 0,
    maxBlocksPerScript: maxOf(scripts, (script) => script.blocks),
    maxNesting: maxOf(scripts, (script) => script.nesting),
    maxComplexity: maxOf(scripts, (script) => script.complexity),
    meanComplexity: scripts.length ? round(complexity / scripts.length) : 0,
    proceduresDefined: procedures.defined.length,
    proceduresCalled: procedures.defined.filter((procedure) => procedure.calls > 0).length,
    procedureCalls: procedures.defined.reduce((sum, procedure) => sum + procedure.calls, 0),
    broadcastsSent: references.broadcasts.reduce((sum, usage) => sum + usage.sent, 0),
    broadcastsReceived: references.broadcasts.reduce((sum, usage) => sum + usage.received, 0),
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The largest value, 0 for none (no spread: a project may have 100,000 scripts). */
function maxOf<T>(items: readonly T[], value: (item: T) => number): number {
  let max = 0;
  for (const item of items) max = Math.max(max, value(item));
  return max;
}
