/**
 * The two kernelspecs: `scratchlab-sandbox` ("scratchlab (sandbox)") starts the embedded sandbox
 * and logs in its demo account; `scratchlab` targets the real site, resuming the REPL's saved
 * session or logging in from `SCRATCH_USERNAME` / `SCRATCH_PASSWORD` in the kernel's environment.
 *
 * A kernelspec is a folder holding `kernel.json` (Jupyter's format) and the logos (./logo.ts). They are written here rather
 * than with `tslab install` or `jupyter kernelspec install`, which need IPython. Nothing secret goes
 * into them: the argv names node, the launcher and a flag, and there is no `env`.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { logoFiles } from './logo.js';

type Env = Record<string, string | undefined>;

/** Jupyter's `kernel.json`. */
interface KernelJson {
  argv: string[];
  display_name: string;
  language: string;
  interrupt_mode: 'signal';
  metadata: Record<string, string>;
}

/** One kernelspec: its folder name and its `kernel.json`. */
interface Kernelspec {
  name: string;
  json: KernelJson;
}

/** Where to install: the user's Jupyter data folder (default) or `<prefix>/share/jupyter`. */
interface InstallTarget {
  prefix?: string;
  env?: Env;
}

/** The launcher Jupyter starts (`dist/kernel/launch.js`, one folder up once built). */
function launcherPath(): string {
  return fileURLToPath(new URL('../launch.js', import.meta.url));
}

/** The user's Jupyter data folder, as jupyter_core computes it. */
function userDataDir(env: Env = process.env): string {
  if (env.JUPYTER_DATA_DIR) return env.JUPYTER_DATA_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Jupyter');
  if (process.platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'jupyter');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'jupyter');
}

/** The `kernels` folder of an install target. */
export function kernelsDir(target: InstallTarget = {}): string {
  if (target.prefix !== undefined) return join(target.prefix, 'share', 'jupyter', 'kernels');
  return join(userDataDir(target.env), 'kernels');
}

/** The two kernelspecs, with absolute paths of `node` and of the launcher. */
function kernelspecs(node: string = process.execPath, launcher: string = launcherPath()): Kernelspec[] {
  const spec = (name: string, displayName: string, extra: string[], target: string): Kernelspec => ({
    name,
    json: {
      argv: [node, launcher, '--config-path', '{connection_file}', ...extra],
      display_name: displayName,
      language: 'typescript',
      interrupt_mode: 'signal',
      metadata: { scratchlab_target: target },
    },
  });
  return [
    spec('scratchlab-sandbox', 'scratchlab (sandbox)', ['--sandbox'], 'sandbox'),
    spec('scratchlab', 'scratchlab', [], 'site'),
  ];
}

/** Writes both kernelspecs under `kernelsDir(target)`; answers the folders written. */
export async function installKernelspecs(target: InstallTarget = {}): Promise<string[]> {
  const dir = kernelsDir(target);
  const written: string[] = [];
  const logos = logoFiles();
  for (const { name, json } of kernelspecs()) {
    const folder = join(dir, name);
    await mkdir(folder, { recursive: true });
    for (const [file, data] of logos) await writeAtomically(join(folder, file), data);
    await writeAtomically(join(folder, 'kernel.json'), `${JSON.stringify(json, null, 2)}\n`);
    written.push(folder);
  }
  return written;
}

/** Writes a whole file or nothing, so a front end listing kernels never reads half of one. */
async function writeAtomically(file: string, data: string | Buffer): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, data);
  await rename(temporary, file);
}
