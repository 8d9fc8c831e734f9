/**
 * Analyses as flat rows for `store.load` and dataframes: one row per project (its statistics, CT
 * score, metrics and how many of each smell), and tables of their own for the opcodes, the
 * scripts and the smells, each row carrying its project's id. Column names are snake_case, so
 * that SQL reads them unquoted.
 */
import type { ProjectAnalysis } from './analyze-project.js';
import { CT_DIMENSIONS } from './mastery.js';
import type { ScriptMetrics } from './metrics.js';
import { categoryOf } from './opcodes.js';
import type { ProjectSmells } from './smells.js';

/** One project's row. */
export interface AnalysisRow {
  id: number | null;
  scripts: number;
  blocks: number;
  unique_blocks: number;
  sprites: number;
  variables: number;
  cloud_variables: number;
  lists: number;
  comments: number;
  costumes: number;
  sounds: number;
  extensions: string[];
  ct_abstraction: number;
  ct_parallelism: number;
  ct_logic: number;
  ct_synchronization: number;
  ct_flow_control: number;
  ct_user_interactivity: number;
  ct_data_representation: number;
  ct_total: number;
  ct_level: string;
  mean_blocks_per_script: number;
  max_blocks_per_script: number;
  max_nesting: number;
  max_complexity: number;
  mean_complexity: number;
  procedures_defined: number;
  procedures_called: number;
  broadcasts_sent: number;
  broadcasts_received: number;
  dead_code: number;
  unused_variables: number;
  unused_lists: number;
  unused_procedures: number;
  duplicated_scripts: number;
  default_sprite_names: number;
  default_backdrop_names: number;
  messages_never_sent: number;
  messages_never_received: number;
}

/** How many blocks of one opcode a project has (as `summary.opcodes` counts). */
export interface OpcodeRow {
  project_id: number | null;
  opcode: string;
  category: string;
  count: number;
}

/** One script's metrics, with its project's id. */
export type ScriptRow = { project_id: number | null } & ScriptMetrics;

/** One smell at one place. */
export interface SmellRow {
  project_id: number | null;
  smell: string;
  target: string;
  site: string;
  name: string;
  blocks: number;
}

/** The rows of many analyses, a list per table. */
export interface AnalysisTables {
  projects: AnalysisRow[];
  opcodes: OpcodeRow[];
  scripts: ScriptRow[];
  smells: SmellRow[];
}

const SNAKE: Record<string, string> = {
  flowControl: 'flow_control',
  userInteractivity: 'user_interactivity',
  dataRepresentation: 'data_representation',
};
const snake = (name: string) => SNAKE[name] ?? name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Flattens analyses (with their `id` when they have one, as `projects.analyze` gives). */
export function analysisRows(analyses: readonly (ProjectAnalysis & { id?: number })[]): AnalysisTables {
  if (!Array.isArray(analyses)) throw new TypeError('analysisRows takes an array of analyses');
  const tables: AnalysisTables = { projects: [], opcodes: [], scripts: [], smells: [] };
  for (const analysis of analyses) {
    if (!analysis || typeof analysis !== 'object' || !analysis.summary || !analysis.ct) {
      throw new TypeError('analysisRows takes analyses (what analyzeProject and projects.analyze give)');
    }
    const id = typeof analysis.id === 'number' ? analysis.id : null;
    const { summary, ct, metrics, smells } = analysis;
    const row: Record<string, unknown> = {
      id,
      scripts: summary.scripts,
      blocks: summary.blocks,
      unique_blocks: summary.uniqueBlocks,
      sprites: summary.sprites,
      variables: summary.variables,
      cloud_variables: summary.cloudVariables,
      lists: summary.lists,
      comments: summary.comments,
      costumes: summary.costumes,
      sounds: summary.sounds,
      extensions: [...summary.extensions],
    };
    for (const dimension of CT_DIMENSIONS) row[`ct_${snake(dimension)}`] = ct[dimension];
    Object.assign(row, {
      ct_total: ct.total,
      ct_level: ct.level,
      mean_blocks_per_script: metrics.meanBlocksPerScript,
      max_blocks_per_script: metrics.maxBlocksPerScript,
      max_nesting: metrics.maxNesting,
      max_complexity: metrics.maxComplexity,
      mean_complexity: metrics.meanComplexity,
      procedures_defined: metrics.proceduresDefined,
      procedures_called: metrics.proceduresCalled,
      broadcasts_sent: metrics.broadcastsSent,
      broadcasts_received: metrics.broadcastsReceived,
    });
    for (const [smell, sites] of Object.entries(smells) as [
      keyof ProjectSmells,
      ProjectSmells[keyof ProjectSmells],
    ][]) {
      row[snake(smell)] = sites.length;
      for (const site of sites) {
        tables.smells.push({
          project_id: id,
          smell,
          target: site.target,
          site: site.id,
          name: site.name,
          blocks: site.blocks,
        });
      }
    }
    tables.projects.push(row as unknown as AnalysisRow);
    for (const [opcode, count] of Object.entries(summary.opcodes as Record<string, number>)) {
      tables.opcodes.push({ project_id: id, opcode, category: categoryOf(opcode), count });
    }
    for (const script of metrics.scripts) tables.scripts.push({ project_id: id, ...script });
  }
  return tables;
}
