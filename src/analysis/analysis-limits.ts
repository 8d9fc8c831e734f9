/** How much of a project one analysis may walk: every walk of the model is bounded by these. */
export interface AnalysisLimits {
  /** Blocks in the whole project (every target), primitives stored as arrays included. */
  maxBlocks?: number;
  /** Inputs nested in inputs (a reporter in a reporter, a stack in a C-block's mouth), per script. */
  maxDepth?: number;
}

/**
 * The defaults: far above real projects (the largest on the site hold some 100,000 blocks; the
 * editor's own limit is the 5 MB body), low enough that a hostile body costs bounded memory.
 */
export const DEFAULT_ANALYSIS_LIMITS: Readonly<Required<AnalysisLimits>> = Object.freeze({
  maxBlocks: 1_000_000,
  maxDepth: 2_000,
});

/** The limits with defaults filled in; RangeError for a limit that is not a positive integer. */
export function analysisLimits(limits: AnalysisLimits = {}): Required<AnalysisLimits> {
  const merged = { ...DEFAULT_ANALYSIS_LIMITS, ...limits };
  for (const [name, value] of Object.entries(merged)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new RangeError(`analysis limit ${name} must be a positive integer, not ${String(value)}`);
    }
  }
  return merged;
}
