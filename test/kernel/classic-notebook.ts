/**
 * A real notebook front end for the kernel tests: Debian's classic Notebook (`jupyter-notebook`,
 * python3-notebook) serving a folder, opened in headless Chromium through puppeteer-core. What a
 * test reads is what a person sees: each cell's rendered output area.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { installed, toolPath } from '../support/tools.js';
import type { JupyterHome } from './jupyter.js';

/** Whether the classic Notebook is installed (a failure under test/run.sh when not). */
export const hasClassicNotebook = installed('jupyter-notebook');

/** Longest wait for the server to answer after it starts. */
const SERVER_START_MS = 60_000;

/** A free loopback port (the OS picks it; the server binds it a moment later). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** What one code cell shows. */
export interface CellView {
  /** The output area's HTML, as rendered. */
  html: string;
  /** The output area's text, as rendered. */
  text: string;
  /** How many outputs the cell holds. */
  outputs: number;
  /** `In [n]`'s n, or `null` before the cell ran (`'*'` while it runs). */
  prompt: number | string | null;
}

/** Whether the page shows the kernel idle: its indicator, and no cell marked running. */
export interface IdleView {
  kernelIdle: boolean;
  runningCells: number;
}

/** The classic Notebook serving `dir`, with a page open on one notebook. */
export class ClassicNotebook {
  readonly #server: ChildProcess;
  readonly #browser: Browser;
  readonly page: Page;
  /** The server's log (stdout and stderr), for failures. */
  readonly log: string[];

  private constructor(server: ChildProcess, browser: Browser, page: Page, log: string[]) {
    this.#server = server;
    this.#browser = browser;
    this.page = page;
    this.log = log;
  }

  /** Starts `jupyter-notebook` on `dir` with the kernels of `home`, and opens `notebook` in Chromium. */
  static async open(home: JupyterHome, dir: string, notebook: string): Promise<ClassicNotebook> {
    mkdirSync(dir, { recursive: true });
    const port = await freePort();
    const token = randomBytes(16).toString('hex');
    const log: string[] = [];
    const server = spawn(
      toolPath('jupyter-notebook'),
      [
        '--no-browser',
        '--ip=127.0.0.1',
        `--port=${port}`,
        '--port-retries=0',
        `--NotebookApp.token=${token}`,
        '--allow-root',
        `--notebook-dir=${dir}`,
      ],
      { env: home.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const keep = (chunk: Buffer) => {
      log.push(chunk.toString());
      if (log.length > 2000) log.splice(0, 1000);
    };
    server.stdout?.on('data', keep);
    server.stderr?.on('data', keep);
    const base = `http://127.0.0.1:${port}`;
    let browser: Browser | undefined;
    try {
      await waitForServer(`${base}/api/status?token=${token}`, server, log);
      const { launch } = await import('puppeteer-core');
      browser = await launch({
        executablePath: toolPath('chromium'),
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--window-size=1200,1400'],
        env: home.env,
      });
      const page = await browser.newPage();
      await page.goto(`${base}/notebooks/${encodeURIComponent(notebook)}?token=${token}`);
      // Ready once the kernel has answered kernel_info (the Notebook then enables execution).
      await page.waitForFunction(
        () => {
          const kernel = (globalThis as unknown as PageGlobals).Jupyter?.notebook?.kernel;
          return kernel?.info_reply?.implementation !== undefined;
        },
        { timeout: 90_000 },
      );
      return new ClassicNotebook(server, browser, page, log);
    } catch (error) {
      await browser?.close().catch(() => {});
      server.kill('SIGTERM');
      throw new Error(`the classic Notebook did not open: ${String(error)}\n${log.join('')}`);
    }
  }

  /** The sources of the notebook's cells, in order (markdown ones too). */
  async sources(): Promise<string[]> {
    return this.page.evaluate(() =>
      (globalThis as unknown as PageGlobals).Jupyter.notebook.get_cells().map((cell) => cell.get_text()),
    );
  }

  /** Runs cells `indices` (counting every cell), in order, as selecting them and Shift-Enter does. */
  async run(indices: number[]): Promise<void> {
    await this.page.evaluate(
      (list) => (globalThis as unknown as PageGlobals).Jupyter.notebook.execute_cells(list),
      indices,
    );
  }

  /**
   * Waits until code cells `indices` have run (each has its `In [n]`) and the page shows no cell
   * running (at most `timeout` ms).
   */
  async waitUntilRan(indices: number[], timeout = 120_000): Promise<void> {
    await this.page.waitForFunction(
      (list) => {
        const { Jupyter, document } = globalThis as unknown as PageGlobals;
        const ran = list
          .map((i) => Jupyter.notebook.get_cell(i))
          .filter((cell) => cell.cell_type === 'code')
          .every((cell) => typeof cell.input_prompt_number === 'number');
        return ran && document.querySelectorAll('.cell.running').length === 0;
      },
      { timeout, polling: 100 },
      indices,
    );
  }

  /** What code cell `index` (counting every cell) shows now. */
  async cell(index: number): Promise<CellView> {
    return this.page.evaluate((i) => {
      const cell = (globalThis as unknown as PageGlobals).Jupyter.notebook.get_cell(i);
      const element = cell.output_area.element[0]!;
      return {
        html: element.innerHTML,
        text: element.textContent ?? '',
        outputs: cell.output_area.outputs.length,
        prompt: cell.input_prompt_number ?? null,
      };
    }, index);
  }

  /** Whether the page shows the kernel idle. */
  async idle(): Promise<IdleView> {
    return this.page.evaluate(() => ({
      kernelIdle:
        (globalThis as unknown as PageGlobals).document
          .querySelector('#kernel_indicator_icon')
          ?.classList.contains('kernel_idle_icon') ?? false,
      runningCells: (globalThis as unknown as PageGlobals).document.querySelectorAll('.cell.running').length,
    }));
  }

  /** Closes the page and the browser, then stops the server (which shuts its kernels down). */
  async close(): Promise<void> {
    await this.#browser.close().catch(() => {});
    if (this.#server.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.#server.once('exit', () => resolve()));
    this.#server.kill('SIGTERM');
    const timer = setTimeout(() => this.#server.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Polls `url` until the server answers 200 (bounded), or fails as the server exits. */
async function waitForServer(url: string, server: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + SERVER_START_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`jupyter-notebook exited with ${server.exitCode}`);
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`jupyter-notebook did not answer within ${SERVER_START_MS} ms:\n${log.join('')}`);
}

/**
 * The parts of the page the tests read (the test types have no DOM library): the classic Notebook's
 * `Jupyter` object and the document.
 */
interface PageGlobals {
  document: {
    querySelector(selector: string): { classList: { contains(name: string): boolean } } | null;
    querySelectorAll(selector: string): { length: number };
  };
  Jupyter: {
    notebook: {
      kernel?: { info_reply?: { implementation?: string } };
      execute_cells(indices: number[]): void;
      get_cells(): Array<{ cell_type: string; get_text(): string }>;
      get_cell(index: number): {
        cell_type: string;
        input_prompt_number?: number | string | null;
        output_area: {
          element: ArrayLike<{ innerHTML: string; textContent: string | null }>;
          outputs: unknown[];
        };
      };
    };
  };
}
