/**
 * The chart of a live query's latest answer (`live({ sql })` in the REPL and notebooks): drawn as
 * `plot()` draws rows, with a line saying how many rows, as of when, and why the latest query
 * failed if it did (the last answer stays drawn). An answer `plot()` cannot draw, or none yet,
 * shows as a note instead of failing the live display.
 */
import { Chart } from './chart.js';
import { chartOf } from './plot.js';
import { VEGA_LITE_SCHEMA } from './vega-lite-spec.js';

/** Options of {@link liveQueryChart}. */
export interface LiveQueryChartOptions {
  /** The chart's title (default: `label`). */
  title?: string;
  /** What is queried, in a few words. */
  label: string;
  /** Why the latest query failed, or null. */
  error?: string | null;
  /** The time of the answer (default now). */
  now?: number;
}

/** A chart that only says `text`. */
function noteChart(title: string, text: string): Chart {
  return new Chart(
    {
      $schema: VEGA_LITE_SCHEMA,
      title,
      data: { values: [{ text }] },
      mark: { type: 'text', fontSize: 14 },
      encoding: { text: { field: 'text', type: 'nominal' } },
      width: 400,
      height: 60,
    },
    { summary: `${title}\n${text}` },
  );
}

/** The chart of a live query's rows (see the file's comment). */
export function liveQueryChart(
  rows: readonly Record<string, unknown>[],
  options: LiveQueryChartOptions,
): Chart {
  const title = options.title ?? options.label;
  let chart: Chart;
  if (rows.length === 0) {
    chart = noteChart(title, 'no rows yet');
  } else {
    try {
      chart = chartOf(rows, { title });
    } catch (error) {
      chart = noteChart(title, error instanceof Error ? error.message : String(error));
    }
  }
  const at = new Date(options.now ?? Date.now()).toISOString().slice(11, 19);
  const note = `${rows.length} ${rows.length === 1 ? 'row' : 'rows'} at ${at} UTC${options.error ? ` · the latest query failed: ${options.error}` : ''}`;
  return new Chart(chart.spec, {
    grammar: chart.grammar,
    summary: `${chart.summary}\n${note}`,
    terminal: (context) =>
      `${chart.render({ ...context, height: Math.max(4, context.height - 1) })}\n${note}`,
  });
}
