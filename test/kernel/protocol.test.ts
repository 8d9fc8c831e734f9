// The kernel as a Jupyter front end sees it, message by message, through jupyter_client
// (test/kernel/drive.py): counts, results, errors and their frames, displays and their updates,
// kernel_info, Shift-Tab help, and a long session of 1,000 cells.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DriveResult,
  drive,
  failOnceReleased,
  hasJupyter,
  type IopubMessage,
  installKernels,
  type JupyterHome,
  jupyterHome,
} from './jupyter.js';

const types = (result: DriveResult) => result.iopub.map((m) => m.type);
const first = (result: DriveResult, type: string): IopubMessage['content'] => {
  const found = result.iopub.find((m) => m.type === type);
  if (!found) throw new Error(`no ${type} in ${JSON.stringify(result.iopub)}`);
  return found.content;
};

describe.skipIf(!hasJupyter)('the Jupyter protocol', () => {
  let home: JupyterHome;
  let folder: string;

  beforeAll(async () => {
    home = jupyterHome('protocol');
    folder = join(home.dir, 'notebooks');
    await installKernels(home);
  });

  it('answers like IPython: inputs, results with counts, errors with cell lines, displays', {
    timeout: 120_000,
  }, async () => {
    const results = await drive(home, 'scratchlab-sandbox', folder, [
      /* 0 */ { kernel_info: true },
      /* 1 */ { execute: '1 + 1' },
      /* 2 */ { execute: "console.log('hi'); 'str'" },
      /* 3 */ { execute: 'const x: number = 1;' },
      /* 4 */ { execute: "function f(n: number) {\n  throw new Error('boom ' + n);\n}\nconst q = 1;\nf(q)" },
      /* 5 */ { execute: "const wrong: number = 'text';" },
      /* 6 */ { execute: 'Promise.resolve(42)' },
      /* 7 */ { execute: "Promise.reject(new RangeError('nope'))" },
      /* 8 */ { execute: "const h = display([{ a: 1, b: 'x' }]);\nh.update('replaced');\nh.id" },
      /* 9 */ {
        execute: "({ [Symbol.for('Jupyter.display')]() { return { 'text/html': '<b>own</b>' }; } })",
      },
      /* 10 */ { execute: 'await session.projects.get(1)' },
      /* 11 */ { execute: 'session.users.get' },
      /* 12 */ { inspect: 'session.users.get', cursor: 15 },
      /* 13 */ { execute: 'await h.update(40 + 2); session.username' },
      /* 14 */ { execute: "process.stderr.write('to stderr\\n'); undefined" },
      /* 15 */ { kernel_info: true },
    ]);
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();

    // kernel_info: the TypeScript that compiles cells, and who is logged in.
    const info = results[0]!.reply!;
    const tsVersion = (await import('@tslab/typescript-for-tslab')).version;
    expect((info.language_info as { version: string }).version).toBe(tsVersion);
    expect(info.implementation).toBe('scratchlab');
    // At start, before any cell names the session, it is still being started.
    expect(info.banner).toMatch(/session: starting|logged in as demo_scratcher/);
    expect(results[15]!.reply!.banner).toMatch(/logged in as demo_scratcher on the embedded sandbox/);

    // A value: execute_input then execute_result, both with the count; no stdout.
    expect(types(results[1]!)).toEqual(['status', 'execute_input', 'execute_result', 'status']);
    expect(first(results[1]!, 'execute_input')).toEqual({ code: '1 + 1', execution_count: 1 });
    expect(first(results[1]!, 'execute_result')).toEqual({
      execution_count: 1,
      data: { 'text/plain': '2' },
      metadata: {},
    });
    expect(results[1]!.reply).toMatchObject({ status: 'ok', execution_count: 1 });
    expect(types(results[2]!)).toEqual(['status', 'execute_input', 'stream', 'execute_result', 'status']);
    expect(first(results[2]!, 'stream')).toEqual({ name: 'stdout', text: 'hi\n' });
    expect(first(results[2]!, 'execute_result').data).toEqual({ 'text/plain': "'str'" });
    // A declaration has no value: no result.
    expect(types(results[3]!)).toEqual(['status', 'execute_input', 'status']);

    // A runtime error: frames at the cell's own lines, nothing of the kernel's.
    const boom = first(results[4]!, 'error') as { ename: string; evalue: string; traceback: string[] };
    expect(boom.ename).toBe('Error');
    expect(boom.evalue).toBe('boom 1');
    expect(boom.traceback[0]).toMatch(/^Cell In\[4\], line 2 in f\n/);
    expect(boom.traceback[0]).toContain("----> 2   throw new Error('boom ' + n);");
    expect(boom.traceback[1]).toMatch(/^Cell In\[4\], line 5\n/);
    expect(boom.traceback.at(-1)).toBe('Error: boom 1');
    expect(JSON.stringify(boom)).not.toMatch(/evalmachine|tslab|dist\/kernel|node:internal/);
    expect(results[4]!.reply).toMatchObject({
      status: 'error',
      ename: 'Error',
      evalue: 'boom 1',
      execution_count: 4,
    });
    expect(results[4]!.reply!.traceback).toEqual(boom.traceback);
    expect(types(results[4]!)).not.toContain('stream'); // stderr carries only what the code wrote

    // A type error does not stop the cell (types are stripped to run it, as in the REPL): its
    // check warns on stderr at the cell line and column, after the reply and before `idle`.
    expect(types(results[5]!)).toEqual(['status', 'execute_input', 'stream', 'status']);
    expect(results[5]!.reply).toMatchObject({ status: 'ok', execution_count: 5 });
    expect(first(results[5]!, 'stream')).toEqual({
      name: 'stderr',
      text:
        "Cell In[5], line 1, column 7: warning TS2322: Type 'string' is not assignable to type 'number'.\n" +
        "    const wrong: number = 'text';\n" +
        '          ^\n',
    });

    // Un-awaited promises: the resolved value shows, a rejection fails the cell.
    expect(first(results[6]!, 'execute_result').data).toEqual({ 'text/plain': '42' });
    expect(first(results[7]!, 'error')).toMatchObject({ ename: 'RangeError', evalue: 'nope' });
    expect(results[7]!.reply).toMatchObject({ status: 'error', ename: 'RangeError' });

    // display(): a display with an id, then its update, then the cell's value.
    expect(types(results[8]!)).toEqual([
      'status',
      'execute_input',
      'display_data',
      'update_display_data',
      'execute_result',
      'status',
    ]);
    const shown = first(results[8]!, 'display_data') as {
      data: Record<string, string>;
      transient: { display_id: string };
    };
    const id = (first(results[8]!, 'execute_result').data as Record<string, string>)['text/plain']!.replace(
      /'/g,
      '',
    );
    expect(shown.transient.display_id).toBe(id);
    expect(shown.data['text/html']).toContain('<table');
    expect(shown.data['text/plain']).toMatch(/a\s+b/);
    expect(first(results[8]!, 'update_display_data')).toEqual({
      data: { 'text/plain': 'replaced' },
      metadata: {},
      transient: { display_id: id },
    });
    // An update from a later cell travels with that cell, to the same id.
    expect(first(results[13]!, 'update_display_data')).toMatchObject({
      data: { 'text/plain': '42' },
      transient: { display_id: id },
    });

    // The Jupyter display protocol, with a text twin added.
    const own = first(results[9]!, 'execute_result').data as Record<string, string>;
    expect(own['text/html']).toBe('<b>own</b>');
    expect(typeof own['text/plain']).toBe('string');

    // An SDK error: one line.
    expect(first(results[10]!, 'error')).toMatchObject({
      ename: 'ApiError',
      traceback: [
        expect.stringMatching(/^ApiError: GET http:\/\/127\.0\.0\.1:\d+\/api\/projects\/1 → 404: NotFound$/),
      ],
    });

    // Shift-Tab help: TSDoc with {@link X} as X.
    const help = results[12]!.reply!;
    expect(help.found).toBe(true);
    const helpText = (help.data as Record<string, string>)['text/plain']!;
    expect(helpText).toMatch(/^\(method\) Users\.get\(username: string\)/);
    expect(helpText).not.toMatch(/\{@link|\n(ApiError)\n/);
    expect(helpText).toContain('ApiError');

    // What the user's code writes to stderr is a stderr stream.
    expect(first(results[14]!, 'stream')).toEqual({ name: 'stderr', text: 'to stderr\n' });
  });

  it('answers comms as a kernel without comm targets: no comms, and a comm_open closed at once', {
    timeout: 120_000,
  }, async () => {
    const results = await drive(home, 'scratchlab-sandbox', folder, [
      /* 0 */ { comm_info: null },
      /* 1 */ { comm_info: 'jupyter.widget' },
      /* 2 */ {
        comm: 'comm_open',
        content: { comm_id: 'c-1', target_name: 'jupyter.widget', data: { state: {} } },
      },
      /* 3 */ { comm: 'comm_msg', content: { comm_id: 'c-1', data: { method: 'update' } } },
      /* 4 */ { comm: 'comm_close', content: { comm_id: 'c-1', data: {} } },
      /* 5 */ { execute: '1 + 1' },
    ]);
    for (const [i, result] of results.entries()) expect(result.error, `request ${i}`).toBeUndefined();
    expect(results[0]!.reply).toEqual({ status: 'ok', comms: {} });
    expect(results[1]!.reply).toEqual({ status: 'ok', comms: {} });
    expect(types(results[0]!)).toEqual(['status', 'status']);
    // The comm the front end opened is closed by the kernel, in reply to the comm_open.
    expect(types(results[2]!)).toEqual(['status', 'comm_close', 'status']);
    expect(first(results[2]!, 'comm_close')).toEqual({ comm_id: 'c-1', data: {} });
    // Messages to a comm that does not exist are ignored, as ipykernel does; the kernel goes on.
    expect(types(results[3]!)).toEqual(['status', 'status']);
    expect(types(results[4]!)).toEqual(['status', 'status']);
    expect(first(results[5]!, 'execute_result')).toMatchObject({ data: { 'text/plain': '2' } });
  });

  it('aborts the requests queued behind a failure, unless they asked not to stop', {
    timeout: 120_000,
  }, async () => {
    const release = join(home.dir, 'batch-sent');
    const results = await drive(home, 'scratchlab-sandbox', folder, [
      // The failing cell fails once the requests sent with it are sent (drive.py makes the file then).
      { batch: [failOnceReleased(release, 'first'), '1', '2'], release },
      { batch: ["throw new Error('again')", '3'], stop_on_error: false },
      { execute: '4' },
    ]);
    expect(results.map((r) => r.reply?.status)).toEqual(['error', 'aborted', 'aborted', 'error', 'ok', 'ok']);
    expect(results[0]!.reply).toMatchObject({ ename: 'Error', evalue: 'first', execution_count: 1 });
    // Aborted requests run nothing and publish no input.
    expect(types(results[1]!)).toEqual(['status', 'status']);
    expect(first(results[4]!, 'execute_result')).toMatchObject({
      execution_count: 3,
      data: { 'text/plain': '3' },
    });
    expect(first(results[5]!, 'execute_result')).toMatchObject({
      execution_count: 4,
      data: { 'text/plain': '4' },
    });
  });

  it('delivers every message of 1,000 cells in a row (tslab lost stdout and idle from about the 130th)', {
    timeout: 600_000,
  }, async () => {
    const n = 1000;
    const requests = Array.from({ length: n }, (_, i) => ({ execute: `console.log(${i}); ${i}` }));
    const results = await drive(home, 'scratchlab-sandbox', folder, requests, 30);
    expect(results).toHaveLength(n);
    for (const [i, result] of results.entries()) {
      expect(result.error, `cell ${i + 1}`).toBeUndefined();
      expect(result.iopub, `cell ${i + 1}`).toEqual([
        { type: 'status', content: { execution_state: 'busy' } },
        { type: 'execute_input', content: { code: `console.log(${i}); ${i}`, execution_count: i + 1 } },
        { type: 'stream', content: { name: 'stdout', text: `${i}\n` } },
        {
          type: 'execute_result',
          content: { execution_count: i + 1, data: { 'text/plain': String(i) }, metadata: {} },
        },
        { type: 'status', content: { execution_state: 'idle' } },
      ]);
      expect(result.reply, `cell ${i + 1}`).toMatchObject({ status: 'ok', execution_count: i + 1 });
    }
  });
});
