// The kernel's progress outputs under Jupyter (nbconvert drives the installed sandbox kernel): a
// caller's onProgress given to a list wins alone (the cell shows no progress output of its own),
// and a remix tree shows one progress output for the whole tree. A session with a budget of 2
// requests a second makes every walk last past the output's first-show delay, so an output that
// should not be there would be.
import { describe, expect, it } from 'vitest';
import { type Cell, hasJupyter, text } from './jupyter.js';
import { useNotebookRunner } from './notebook-runner.js';

const displays = (cell: Cell) => (cell.outputs ?? []).filter((o) => o.output_type === 'display_data');
const result = (cell: Cell) =>
  text((cell.outputs ?? []).find((o) => o.output_type === 'execute_result')!.data!['text/plain'] as string);

describe.skipIf(!hasJupyter)('progress in the kernel', () => {
  const run = useNotebookRunner('kernel-progress');

  it('leaves a list’s own onProgress alone, and shows a remix tree once', { timeout: 120_000 }, async () => {
    const cells = [
      /* 0 */ [
        'const slow = new Session({ hosts: sandbox.hosts, rateLimit: { perSecond: 2, burst: 1 } });',
        'const seen: number[] = [];',
        'const some = await slow.users.followers(sandbox.samples.popularUser, { limit: 160, onProgress: (p) => seen.push(p.items) }).all();',
        '[some.length, seen.length, seen.at(-1)]',
      ].join('\n'),
      /* 1 */ [
        'const tree = await slow.projects.remixTree(sandbox.samples.remixedProject);',
        'tree.children.length > 0',
      ].join('\n'),
    ];
    const [walk, tree] = await run('progress', cells);

    expect(result(walk!)).toBe('[ 160, 4, 160 ]');
    expect(displays(walk!)).toEqual([]);

    expect(result(tree!)).toBe('true');
    const shown = displays(tree!).map((o) => text(o.data!['text/plain'] as string));
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/^remix tree \d+: \d+ rows · \d+ pages · [\d.]+ s \(done\)$/);
  });
});
