/** The columns of project analyses (`analyzeProject`, `projects.analyze`): size, CT score, complexity, smells. */
import { countColumn } from './cells.js';
import type { Column } from './column.js';
import type { RecordOfKind } from './detect.js';

type Analysis = RecordOfKind['projectAnalysis'];

const smellCount = (analysis: Analysis) =>
  Object.values(analysis.smells).reduce((sum, sites) => sum + (Array.isArray(sites) ? sites.length : 0), 0);

/** A project analysis as a row. */
export const ANALYSIS_COLUMNS: ReadonlyArray<Column<Analysis>> = [
  {
    key: 'id',
    header: 'id',
    align: 'right',
    priority: 100,
    dropIfUniform: true,
    get: (a) => (typeof a.id === 'number' ? a.id : null),
    href: (a) => (typeof a.id === 'number' ? `/projects/${a.id}/` : null),
  },
  countColumn('sprites', 60, (a) => a.summary.sprites),
  countColumn('scripts', 80, (a) => a.summary.scripts),
  countColumn('blocks', 90, (a) => a.summary.blocks),
  countColumn('unique', 50, (a) => a.summary.uniqueBlocks),
  countColumn('CT', 95, (a) => a.ct.total),
  { key: 'level', header: 'level', priority: 85, get: (a) => a.ct.level },
  countColumn('complexity', 40, (a) => a.metrics.maxComplexity),
  countColumn('nesting', 30, (a) => a.metrics.maxNesting),
  countColumn('smells', 70, smellCount),
];
