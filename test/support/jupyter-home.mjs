// A throw-away Jupyter home (HOME, Jupyter's data, config and runtime folders, the XDG folders)
// under test/.tmp, so nothing is read from or written to the user's. Plain JavaScript so that the
// kernel tests (TypeScript, through vitest) and the kernel benchmark (node) share it.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TMP = fileURLToPath(new URL('../.tmp/kernel/', import.meta.url));

/** A fresh home in `test/.tmp/kernel/<name>`: emptied when made, left after (for a look), never piling up. */
export function jupyterHome(name) {
  const dir = join(TMP, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sub = (folder) => {
    const path = join(dir, folder);
    mkdirSync(path, { recursive: true });
    return path;
  };
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: sub('home'),
    JUPYTER_DATA_DIR: sub('data'),
    JUPYTER_CONFIG_DIR: sub('config'),
    JUPYTER_RUNTIME_DIR: sub('runtime'),
    XDG_CONFIG_HOME: sub('xdg-config'),
    XDG_DATA_HOME: sub('xdg-data'),
    XDG_STATE_HOME: sub('xdg-state'),
    XDG_CACHE_HOME: sub('xdg-cache'),
    // Debian's Jupyter runs on the system Python, whatever `python3` on PATH is.
    PYTHONNOUSERSITE: '1',
  };
  return { dir, env };
}
