// `exit` and `quit` as IPython reads them: the word alone (called or not, `;`), comments allowed
// around it; through a real kernel (jupyter_client, test/kernel/drive.py) the cell is answered
// with the `ask_exit` payload, and any other use of the word runs as code.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exitCommand } from '../../kernel/protocol/exit-cell.js';
import { tslabTypeScript } from '../../kernel/tslab.js';
import {
  type DriveResult,
  drive,
  hasJupyter,
  installKernels,
  type JupyterHome,
  jupyterHome,
} from './jupyter.js';

describe('exitCommand', () => {
  const ts = tslabTypeScript();

  it.each([
    ['exit', 'exit'],
    ['  quit  ', 'quit'],
    ['exit // comment', 'exit'],
    ['quit()  // bye', 'quit'],
    ['exit;  /* x */', 'exit'],
    ['/* first */ exit ( ) ; // last', 'exit'],
    ['// why\nquit', 'quit'],
  ])('%j is the command', (source, command) => {
    expect(exitCommand(ts, source)).toBe(command);
  });

  it.each([
    "'exit'",
    "'exit' // exit",
    'exit2',
    'exit(1)',
    'exit()()',
    'exit;;',
    'exit /* never closed',
    'const x = exit // comment',
    "console.log('exit()')",
    '',
    '// exit',
    `exit ${'/* padding */'.repeat(400)}`,
  ])('%j is code', (source) => {
    expect(exitCommand(ts, source)).toBeUndefined();
  });
});

describe.skipIf(!hasJupyter)('exit cells in a kernel', () => {
  let home: JupyterHome;

  beforeAll(async () => {
    home = jupyterHome('exit-cell');
    await installKernels(home);
  });

  const payload = (result: DriveResult | undefined) => result?.reply?.payload;
  const value = (result: DriveResult | undefined) =>
    result?.iopub.find((m) => m.type === 'execute_result')?.content.data;

  it('asks the front end to end on the word with comments; the word in code, or declared, runs', {
    timeout: 120_000,
  }, async () => {
    const results = await drive(home, 'scratchlab', join(home.dir, 'notebooks'), [
      { execute: 'exit // comment' },
      { execute: 'quit()  // bye' },
      { execute: 'exit;  /* x */' },
      { execute: "'exit' // a string" },
      { execute: 'const exit2 = 2;\nexit2 // not the word' },
      { execute: 'const exit = 3' },
      { execute: 'exit // declared above' },
    ]);
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();
    const asked = [{ source: 'ask_exit', keepkernel: false }];
    for (const result of results.slice(0, 3)) {
      expect(result.reply).toMatchObject({ status: 'ok', payload: asked });
      expect(value(result)).toBeUndefined();
    }
    const [, , , text, exit2, , declared] = results;
    expect(payload(text)).toEqual([]);
    expect(value(text)).toEqual({ 'text/plain': "'exit'" });
    expect(payload(exit2)).toEqual([]);
    expect(value(exit2)).toEqual({ 'text/plain': '2' });
    expect(payload(declared)).toEqual([]);
    expect(value(declared)).toEqual({ 'text/plain': '3' });
  });
});
