// A test file's own Jupyter home with the kernels installed, and its cells run as a notebook there.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll } from 'vitest';
import {
  type Cell,
  executeNotebook,
  installKernels,
  jupyterHome,
  makeNotebook,
  writeNotebook,
} from './jupyter.js';

/** Runs `cells` as notebook `name` in the file's Jupyter home; answers the executed cells. */
export type NotebookRunner = (name: string, cells: string[]) => Promise<Cell[]>;

/** Makes a Jupyter home named `home` (kernels installed) before the file's tests. */
export function useNotebookRunner(home: string): NotebookRunner {
  let ready: Promise<{ home: ReturnType<typeof jupyterHome>; folder: string }> | undefined;
  beforeAll(async () => {
    const made = jupyterHome(home);
    // Notebooks sit inside the npm project: tslab finds @types/node from the kernel's folder.
    const folder = join(made.dir, 'notebooks');
    mkdirSync(folder, { recursive: true });
    ready = installKernels(made).then(() => ({ home: made, folder }));
    await ready;
  });
  return async (name, cells) => {
    if (ready === undefined)
      throw new Error('the Jupyter home is made in beforeAll: run notebooks inside a test');
    const { home: made, folder } = await ready;
    const path = join(folder, `${name}.ipynb`);
    writeNotebook(path, makeNotebook(cells));
    const { notebook } = await executeNotebook(made, path);
    return notebook.cells;
  };
}
