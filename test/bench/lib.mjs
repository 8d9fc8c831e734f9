// Small helpers shared by the benchmarks.

/** Milliseconds taken by `fn` (one run). */
export async function time(fn) {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

/** Best of `runs` timings: the least disturbed run on a shared machine. */
export async function best(runs, fn) {
  let min = Number.POSITIVE_INFINITY;
  let result;
  for (let i = 0; i < runs; i++) {
    const t = await time(fn);
    if (t.ms < min) {
      min = t.ms;
      result = t.result;
    }
  }
  return { ms: min, result };
}

/** Prints one figure line and whether the ratio meets its target; returns that verdict. */
export function report(label, ratio, target, detail) {
  const ok = target === undefined || ratio >= target;
  const goal = target === undefined ? '' : ` (target >= ${target}: ${ok ? 'met' : 'MISSED'})`;
  console.log(`  ${label}: ratio ${ratio.toFixed(2)}${goal}${detail ? `  [${detail}]` : ''}`);
  return ok;
}

export const fmt = (ms) => `${ms.toFixed(0)} ms`;
