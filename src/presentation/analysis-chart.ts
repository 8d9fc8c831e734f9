/**
 * Charts of project analyses: one project's blocks by category (the palette's groups), and across
 * projects how many reach each of Dr. Scratch's levels.
 */
import type { ProjectAnalysis } from '../analysis/analyze-project.js';
import { categoryOf } from '../analysis/opcodes.js';
import { type Bar, barChart } from './bar-chart.js';
import type { Chart } from './chart.js';

const LEVELS = ['basic', 'developing', 'proficiency'] as const;

/** One project's blocks by category, the largest first. */
export function analysisChart(analysis: ProjectAnalysis, options: { title?: string } = {}): Chart {
  const byCategory = new Map<string, number>();
  for (const [opcode, count] of Object.entries(analysis.summary.opcodes as Record<string, number>)) {
    const category = categoryOf(opcode);
    byCategory.set(category, (byCategory.get(category) ?? 0) + count);
  }
  const bars: Bar[] = [...byCategory].map(([label, value]) => ({ label, series: 'blocks', value }));
  return barChart(bars, { title: options.title ?? 'Blocks by category', maxRows: 30 });
}

/** Across projects: how many are at each of Dr. Scratch's CT levels, every level shown in order. */
export function analysesChart(analyses: readonly ProjectAnalysis[], options: { title?: string } = {}): Chart {
  const bars: Bar[] = LEVELS.map((level) => ({
    label: level,
    series: 'projects',
    value: analyses.filter((analysis) => analysis.ct.level === level).length,
  }));
  return barChart(bars, { title: options.title ?? 'Projects by CT level (Dr. Scratch)', order: 'given' });
}
