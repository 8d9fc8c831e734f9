// The presentation layer over a 100,000-entry cloud log (the timings the tests used to print, and
// the two hostile inputs they used to time): the first renderSvg call (loading vega and vega-lite),
// the chart's spec and its SVG, the terminal chart, the summary and the aggregate, each against
// one JSON.stringify of the same entries in the same run (a linear pass over them: a ratio above 1
// is faster than that). Then svg() of 60 comments and the history's glob of 12 stars over 100,000
// characters, which a backtracking pattern took hours over: their time for an input twice as long
// (about twice: a ratio near 1). No targets: figures to watch.
import { globMatcher } from '../../dist/kernel/protocol/history.js';
import {
  aggregateLogs,
  logsChartSpec,
  renderLogsChart,
  renderSvg,
  summarizeLogs,
  svg,
} from '../../dist/presentation/index.js';
import { bigLog } from '../support/big-log.mjs';
import { best, fmt, report, time } from './lib.mjs';

export default async function presentationBench() {
  const entries = bigLog(100_000);
  const cold = await time(() => renderSvg(logsChartSpec(entries.slice(0, 100))));
  console.log(`  first renderSvg call (loading vega and vega-lite): ${fmt(cold.ms)}`);
  const baseline = await best(5, () => JSON.stringify(entries).length);
  console.log(`  baseline, JSON.stringify of the entries: ${fmt(baseline.ms)}`);
  const spec = await best(3, () => logsChartSpec(entries));
  const chart = await best(3, () => renderSvg(spec.result));
  const steps = [
    ['logsChartSpec', spec],
    [`renderSvg (${Math.round(chart.result.length / 1024)} KiB)`, chart],
    [
      'renderLogsChart (terminal, 100 × 30)',
      await best(3, () => renderLogsChart(entries, { width: 100, height: 30 })),
    ],
    ['summarizeLogs', await best(3, () => summarizeLogs(entries))],
    ['aggregateLogs', await best(3, () => aggregateLogs(entries))],
  ];
  for (const [label, run] of steps) report(`${label}: ${fmt(run.ms)}`, baseline.ms / run.ms);

  // Linear in their input: twice the input, twice the time (a ratio near 1; a pattern that
  // backtracks falls far below it).
  const refuse = (n) => () => {
    try {
      svg('<!---->'.repeat(n));
    } catch {}
  };
  const refused = [await best(20, refuse(600)), await best(20, refuse(1200))];
  report(
    `svg() of 600 and 1,200 comments refused: ${refused.map((r) => r.ms.toFixed(2)).join(' and ')} ms`,
    (2 * refused[0].ms) / refused[1].ms,
  );
  const match = (n) => () => globMatcher(`${'*a'.repeat(12)}b`)('a'.repeat(n));
  const globs = [await best(3, match(100_000)), await best(3, match(200_000))];
  report(
    `glob of 12 stars over 100,000 and 200,000 characters: ${globs.map((r) => fmt(r.ms)).join(' and ')}`,
    (2 * globs[0].ms) / globs[1].ms,
  );
  return true;
}
