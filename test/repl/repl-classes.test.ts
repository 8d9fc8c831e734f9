/**
 * Classes and backpack items in `scratchlab repl --sandbox` (WIRE.md §12.2-12.3): a real child
 * process in a pseudo-terminal prints them as tables.
 */
import { describe, expect, it } from 'vitest';
import { useSandboxRepl } from './sandbox-repl.js';

const repl = useSandboxRepl();

describe('classes and the backpack in the REPL', () => {
  it('prints a class as a table', async () => {
    const out = await repl().run('await session.classrooms.get(sandbox.samples.classroom)');
    const [header, , row] = out.split('\n');
    expect(header).toMatch(/id\s+title\s+educator/);
    expect(row).toMatch(/^\d+\s+Grade 6 Coding Club\s+demo_educator/);
  });

  it('prints the backpack as a table', async () => {
    const out = await repl().run('session.backpack.list({ limit: 4 })');
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/name\s+type/);
    expect(lines.slice(2, 6).map((line) => line.split(/\s{2,}/)[1])).toEqual([
      'script',
      'costume',
      'sound',
      'sprite',
    ]);
  });
});
