/**
 * Running Debian's Jupyter against our kernels from tests: a throw-away Jupyter home (data, config
 * and runtime folders, HOME itself) so nothing is read from or written to the user's, the kernels
 * installed there with `scratchlab kernel install`, and nbconvert / Chromium wrappers.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { JupyterHome } from '../support/jupyter-home.mjs';
import { installed, toolPath } from '../support/tools.js';

export { type JupyterHome, jupyterHome } from '../support/jupyter-home.mjs';

const run = promisify(execFile);

export const ROOT = resolve(import.meta.dirname, '../..');
export const NOTEBOOKS = join(ROOT, 'notebooks');
export const CLI = join(ROOT, 'dist', 'cli.js');

/** Whether the Debian tools the kernel tests drive are installed (a failure under test/run.sh when not). */
export const hasJupyter = installed('jupyter', 'jupyter-nbconvert', 'python3');
export const hasChromium = installed('chromium');

/** `scratchlab kernel install` into the home's data folder. */
export async function installKernels(home: JupyterHome, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [CLI, 'kernel', 'install', ...args], { env: home.env });
  return stdout;
}

/** Result of executing a notebook. */
export interface Executed {
  /** Path of the executed copy. */
  path: string;
  notebook: Notebook;
  /** nbconvert's own log. */
  log: string;
  ms: number;
}

export interface Output {
  output_type: 'stream' | 'display_data' | 'execute_result' | 'error';
  name?: 'stdout' | 'stderr';
  text?: string | string[];
  data?: Record<string, unknown>;
  transient?: unknown;
}

export interface Cell {
  cell_type: 'code' | 'markdown' | 'raw';
  source: string | string[];
  outputs?: Output[];
  metadata: Record<string, unknown>;
}

export interface Notebook {
  cells: Cell[];
  metadata: { kernelspec?: { name: string; display_name: string; language?: string } } & Record<
    string,
    unknown
  >;
  nbformat: number;
  nbformat_minor: number;
}

export const text = (x: string | string[] | undefined): string => (Array.isArray(x) ? x.join('') : (x ?? ''));

/** A notebook from cell sources, for the kernel named `kernel`. */
export function makeNotebook(cells: string[], kernel = 'scratchlab-sandbox'): Notebook {
  return {
    cells: cells.map((source, i) => ({
      cell_type: 'code',
      id: `cell-${i}`,
      execution_count: null,
      source,
      outputs: [],
      metadata: {},
    })),
    metadata: {
      kernelspec: { name: kernel, display_name: kernel, language: 'typescript' },
    },
    nbformat: 4,
    nbformat_minor: 5,
  } as Notebook;
}

export function writeNotebook(path: string, notebook: Notebook): void {
  writeFileSync(path, `${JSON.stringify(notebook, null, 1)}\n`);
}

/**
 * `jupyter nbconvert --to notebook --execute`; the kernel starts in the notebook's folder.
 * Rejects (with nbconvert's log) when a cell fails, unless `allowErrors`.
 */
export async function executeNotebook(
  home: JupyterHome,
  input: string,
  options: { kernel?: string; allowErrors?: boolean; timeout?: number } = {},
): Promise<Executed> {
  const outDir = join(home.dir, 'executed');
  mkdirSync(outDir, { recursive: true });
  const name = input
    .split('/')
    .pop()!
    .replace(/\.ipynb$/, '');
  const args = [
    'nbconvert',
    '--to',
    'notebook',
    '--execute',
    input,
    '--output-dir',
    outDir,
    '--output',
    `${name}.ipynb`,
    `--ExecutePreprocessor.timeout=${options.timeout ?? 120}`,
  ];
  if (options.kernel) args.push(`--ExecutePreprocessor.kernel_name=${options.kernel}`);
  if (options.allowErrors) args.push('--allow-errors');
  const start = performance.now();
  try {
    const { stderr } = await run(toolPath('jupyter'), args, { env: home.env, maxBuffer: 64 << 20 });
    const path = join(outDir, `${name}.ipynb`);
    return {
      path,
      notebook: JSON.parse(readFileSync(path, 'utf8')) as Notebook,
      log: stderr,
      ms: performance.now() - start,
    };
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`nbconvert --execute ${input} failed:\n${e.stderr ?? e.message}`);
  }
}

/** The nbconvert config that keeps charts in HTML exports: `clean_html` would empty every `<svg>`. */
export function htmlConfig(home: JupyterHome): string {
  const path = join(home.dir, 'html_export.py');
  writeFileSync(path, 'c.HTMLExporter.filters = {"clean_html": lambda s: s}\n');
  return path;
}

/** `jupyter nbconvert --to html` in the `light` (default) or `dark` theme; answers the HTML file's path. */
export async function exportHtml(
  home: JupyterHome,
  notebook: string,
  theme: 'light' | 'dark' = 'light',
): Promise<string> {
  const outDir = join(home.dir, 'html');
  mkdirSync(outDir, { recursive: true });
  const name = notebook
    .split('/')
    .pop()!
    .replace(/\.ipynb$/, '')
    .concat(theme === 'dark' ? '-dark' : '');
  await run(
    toolPath('jupyter'),
    [
      'nbconvert',
      '--to',
      'html',
      '--config',
      htmlConfig(home),
      `--HTMLExporter.theme=${theme}`,
      notebook,
      '--output-dir',
      outDir,
      '--output',
      name,
    ],
    { env: home.env, maxBuffer: 64 << 20 },
  );
  return join(outDir, `${name}.html`);
}

/** A headless Chromium screenshot of a local file; answers the PNG's path. */
export async function screenshot(home: JupyterHome, file: string, size = '1200,2400'): Promise<string> {
  const png = file.replace(/\.html$/, '.png');
  const profile = mkdtempSync(join(home.dir, 'chromium-'));
  await run(
    toolPath('chromium'),
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      `--window-size=${size}`,
      '--hide-scrollbars',
      `--screenshot=${png}`,
      `file://${file}`,
    ],
    { env: home.env, timeout: 60_000 },
  );
  return png;
}

/**
 * A cell of a `batch` that throws `new Error(message)` once drive.py has sent the whole batch and
 * made the batch's `release` file (waiting at most 30 s for it), after the lines of `before`: the
 * requests sent with it are queued behind it when it fails, however slow the machine.
 */
export function failOnceReleased(file: string, message: string, before = ''): string {
  return `${before}const { existsSync } = await import('node:fs');
for (let i = 0; i < 6000 && !existsSync(${JSON.stringify(file)}); i++) await new Promise((r) => setTimeout(r, 5));
throw new Error(${JSON.stringify(message)})`;
}

/** A request for test/kernel/drive.py. */
export type DriveRequest =
  | { execute: string; silent?: boolean; store_history?: boolean }
  | { interrupt_after_reply: string }
  | { after_reply: [string, string] }
  | { inspect: string; cursor?: number }
  | { complete: string; cursor?: number }
  | { kernel_info: true }
  | { history: Record<string, unknown> }
  | { comm_info: string | null }
  | { comm: 'comm_open' | 'comm_msg' | 'comm_close'; content: Record<string, unknown> }
  | { batch: string[]; stop_on_error?: boolean; release?: string }
  | { restart: true }
  | { shutdown_after_reply: string }
  | { shutdown: true }
  | { shutdown_during: string };

/** One iopub message of a request. */
export interface IopubMessage {
  type: string;
  content: Record<string, unknown>;
  /** The type of the request it answers (recorded after a shutdown request only). */
  parent?: string;
}

/** What drive.py answers per request: the shell reply and the request's iopub messages up to idle. */
export interface DriveResult {
  reply: Record<string, unknown> | null;
  iopub: IopubMessage[];
  error?: string;
  /**
   * After `{ shutdown: true }` or `{ shutdown_during }` (or `{ restart: true }`, about the old process): whether the kernel
   * process ended by itself, and its exit code.
   */
  exited?: boolean;
  exit_code?: number | null;
  /** After `{ shutdown_after_reply }`: the reply of the cell executed before the shutdown. */
  execute_reply?: Record<string, unknown>;
}

/**
 * Starts `kernel` in `cwd` through jupyter_client (test/kernel/drive.py) and sends `requests` one
 * after the other, as a front end does; every wait is bounded by `timeout` seconds. The kernel's
 * stdout and stderr (its log) go to the file `log` when given.
 */
export async function drive(
  home: JupyterHome,
  kernel: string,
  cwd: string,
  requests: DriveRequest[],
  timeout = 60,
  log?: string,
): Promise<DriveResult[]> {
  mkdirSync(cwd, { recursive: true });
  const job = JSON.stringify({ kernel, cwd, requests, timeout, log });
  const child = execFile(toolPath('python3'), [join(import.meta.dirname, 'drive.py')], {
    env: home.env,
    maxBuffer: 256 << 20,
  });
  child.stdin?.end(job);
  const out: string[] = [];
  const err: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`drive.py exited with ${code}:\n${err.join('')}`);
  return (JSON.parse(out.join('')) as { results: DriveResult[] }).results;
}
