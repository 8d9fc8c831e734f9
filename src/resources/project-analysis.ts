/**
 * Analysing many projects: a few at a time, each through the session's request budget, with
 * progress after each, in the order asked.
 */
import type { AnalysisLimits } from '../analysis/analysis-limits.js';
import type { ProjectAnalysis } from '../analysis/analyze-project.js';
import { mapConcurrent } from '../http/concurrency.js';
import { assertInteger, assertObject } from '../records/validate.js';

/** A project's analysis with its id. */
export interface AnalyzedProject extends ProjectAnalysis {
  id: number;
}

/** Options of `projects.analyze`. */
export interface AnalyzeOptions {
  /** Bounds of the walk (see `analyzeProject`). */
  limits?: AnalysisLimits;
  signal?: AbortSignal;
}

/** Progress of `projects.analyzeAll`. */
export interface AnalyzeProgress {
  /** Projects finished (analysed or failed). */
  done: number;
  total: number;
  /** The project just finished. */
  id: number | string;
  /** Set when it failed (with `skipErrors`). */
  error?: Error;
}

/** Options of `projects.analyzeAll`. */
export interface AnalyzeAllOptions extends AnalyzeOptions {
  /** Projects downloaded at once (1-16, default 4): the request budget paces them all. */
  concurrency?: number;
  onProgress?: (progress: AnalyzeProgress) => void;
  /** Leave out a project that fails (unshared, gone, Scratch 2…) instead of stopping. */
  skipErrors?: boolean;
}

const DEFAULT_CONCURRENCY = 4;

/** Runs `analyze` over `ids` as {@link AnalyzeAllOptions} say. */
export async function analyzeEach(
  analyze: (id: number | string, signal: AbortSignal) => Promise<AnalyzedProject>,
  ids: readonly (number | string)[],
  options: AnalyzeAllOptions,
): Promise<AnalyzedProject[]> {
  if (!Array.isArray(ids)) throw new TypeError('analyzeAll takes an array of project ids');
  assertObject(options, 'options');
  const concurrency =
    options.concurrency === undefined
      ? DEFAULT_CONCURRENCY
      : assertInteger(options.concurrency, 'concurrency', 1, 16);
  const { onProgress, skipErrors = false } = options;
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new TypeError('onProgress must be a function');
  let done = 0;
  const results = await mapConcurrent(
    ids,
    concurrency,
    async (id, _index, signal) => {
      try {
        const analysis = await analyze(id, signal);
        onProgress?.({ done: ++done, total: ids.length, id });
        return analysis;
      } catch (error) {
        if (!skipErrors || signal.aborted) throw error;
        onProgress?.({ done: ++done, total: ids.length, id, error: error as Error });
        return null;
      }
    },
    options.signal,
  );
  return results.filter((result): result is AnalyzedProject => result !== null);
}
