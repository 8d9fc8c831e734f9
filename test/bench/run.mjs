// Runs every benchmark in this folder (or those named on the command line), one after another,
// against the built package in dist/. Each prints its figures and ratios against a baseline
// measured in the same run.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const { default: bench } = await import(new URL(file, import.meta.url).href);
  try {
    const ok = await bench();
    if (ok === false) failed++;
  } catch (error) {
    failed++;
    console.error(`  failed: ${error?.stack ?? error}`);
  }
}
console.log(`\n${files.length} benchmarks, ${failed} below target or failed`);
process.exitCode = failed ? 1 : 0;
