/**
 * `plot(data)`: cloud log entries, projects, activity rows, a remix tree or a Vega-Lite spec as a {@link Chart}, drawn in the
 * terminal when it is an input's value (each variable's value over time, activity per user), and
 * kept with `.save('chart.png' | '.svg' | '.html' | '.json')`. The chart itself is the shared
 * presentation layer's, the same one notebooks get.
 */
import { type Chart, chartOf, type PlotData } from 'scratchlab/presentation';
import { awaitedByRepl } from './display.js';

/** Options of `plot`. */
interface PlotOptions {
  /** Lines the terminal drawing may take (default: the terminal's height less 4, at most 30). */
  height?: number;
  /** Most variables plotted (default 3 in the terminal, 10 in saved files). */
  maxVariables?: number;
  /** Most users listed (default 5 in the terminal, 15 in saved files). */
  topUsers?: number;
  /** Title of the chart. */
  title?: string;
  /** For projects: the numbers drawn, one panel each (default views and loves). */
  metrics?: readonly ('views' | 'loves' | 'favorites' | 'remixes')[];
}

/** What `plot` draws: cloud log entries, projects, messages or activity rows, a remix tree, or a Vega-Lite spec. */
type PlotInput = PlotData;

function chart(data: unknown, options: PlotOptions): Chart {
  const { height, maxVariables, topUsers, title, metrics } = options;
  return chartOf(data, {
    title,
    metrics,
    maxVariables,
    topUsers,
    terminalHeight: height,
    terminalVariables: maxVariables,
    terminalUsers: topUsers,
  });
}

/**
 * Draws `data`. Given a list still to read (`cloud.logs()`), answers a promise the REPL awaits.
 * The chart's `save(file)` answers a promise the REPL awaits too.
 */
export function plot(data: PlotInput, options?: PlotOptions): Chart;
export function plot(data: PromiseLike<PlotInput>, options?: PlotOptions): Promise<Chart>;
export function plot(
  data: PlotInput | PromiseLike<PlotInput>,
  options: PlotOptions = {},
): Chart | Promise<Chart> {
  if (data !== null && typeof data === 'object' && 'then' in data && typeof data.then === 'function') {
    return awaitedByRepl(Promise.resolve(data).then((resolved) => withAwaitedSave(chart(resolved, options))));
  }
  return withAwaitedSave(chart(data, options));
}

/** `save` answers a promise the REPL awaits when it is an input's value (`plot(x).save(f)`). */
function withAwaitedSave(made: Chart): Chart {
  const save = made.save.bind(made);
  Object.defineProperty(made, 'save', {
    value: (file: string) => awaitedByRepl(save(file)),
    enumerable: false,
  });
  return made;
}
