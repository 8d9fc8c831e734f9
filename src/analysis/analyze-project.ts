/**
 * `analyzeProject`: what a project is made of, in one call. The Scratch Team's statistics, Dr.
 * Scratch's computational-thinking score, code metrics and smells, from project JSON, `.sb3` bytes
 * or what `readSb3` returns.
 */
import type { ProjectJson } from '../project/project-json.js';
import { readSb3Json } from '../project/sb3.js';
import { JsonDepthError, parseJson } from '../records/json.js';
import { AnalysisError } from './analysis-error.js';
import type { AnalysisLimits } from './analysis-limits.js';
import { isRecord } from './blocks.js';
import { type MasteryScore, scoreMastery } from './mastery.js';
import { type ProjectMetrics, projectMetrics } from './metrics.js';
import { findProcedures } from './procedures.js';
import { checkBody, type ProjectModel, readProjectModel } from './project-model.js';
import { findReferences } from './references.js';
import { findSmells, type ProjectSmells } from './smells.js';
import { type ProjectSummary, summarize } from './summary.js';

/** What `analyzeProject` takes: a body (object or JSON text), `.sb3` bytes, or `{ json }`. */
export type AnalysisInput = ProjectJson | string | Uint8Array | ArrayBuffer | { json: ProjectJson };

/** The analysis of one project. */
export interface ProjectAnalysis {
  /** The Scratch Team's statistics (as `scratch-analysis` counts them). */
  summary: ProjectSummary;
  /** Dr. Scratch's computational-thinking score. */
  ct: MasteryScore;
  metrics: ProjectMetrics;
  smells: ProjectSmells;
  /** The block-level model it was computed from. */
  model: ProjectModel;
}

/**
 * Analyses a project. Throws AnalysisError (`code`) for a Scratch 2 body, a body that is not a
 * project, a cycle, a missing block or a limit passed; `ArchiveError` (from `readSb3`) for bytes
 * that are not an `.sb3` (`scratch2` for `.sb2` and `.sb` files, `no-project-json`…).
 */
export function analyzeProject(input: AnalysisInput, limits: AnalysisLimits = {}): ProjectAnalysis {
  const json = bodyOf(input);
  checkBody(json);
  const model = readProjectModel(json, limits);
  const procedures = findProcedures(model);
  const references = findReferences(model);
  return {
    summary: summarize(json),
    ct: scoreMastery(json),
    metrics: projectMetrics(model, procedures, references),
    smells: findSmells(model, procedures, references),
    model,
  };
}

function bodyOf(input: AnalysisInput): unknown {
  // Only project.json is inflated: the assets of a hostile archive would cost memory for nothing.
  if (input instanceof ArrayBuffer) return readSb3Json(new Uint8Array(input));
  if (input instanceof Uint8Array) return readSb3Json(input);
  if (typeof input === 'string') {
    try {
      return parseJson(input);
    } catch (cause) {
      const why =
        cause instanceof JsonDepthError ? `nests deeper than ${cause.limit} levels` : 'is not valid JSON';
      throw new AnalysisError('bad-project', `the project body ${why}`);
    }
  }
  if (!isRecord(input)) throw new TypeError('analyzeProject takes project JSON, .sb3 bytes or { json }');
  const record: Record<string, unknown> = input;
  return !Array.isArray(record.targets) && 'json' in record ? record.json : record;
}
