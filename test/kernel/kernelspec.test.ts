// `scratchlab kernel install`: the two kernelspecs, where they go, and that nothing secret is in them.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { installed, toolPath } from '../support/tools.js';
import { CLI, hasJupyter, installKernels, jupyterHome, ROOT } from './jupyter.js';
import { decodePng } from './png.js';

const run = promisify(execFile);

interface KernelJson {
  argv: string[];
  display_name: string;
  language: string;
  env?: unknown;
}

const readSpec = (dir: string): KernelJson => JSON.parse(readFileSync(join(dir, 'kernel.json'), 'utf8'));

describe('scratchlab kernel install', () => {
  it('writes both kernelspecs into the user data folder, with absolute paths and no secret', async () => {
    const home = jupyterHome('kernelspec');
    // Credentials in the environment must not end up in a kernelspec.
    home.env.SCRATCH_USERNAME = 'someone';
    home.env.SCRATCH_PASSWORD = 'hunter2-very-secret';
    const out = await installKernels(home, '--user');
    const kernels = join(home.env.JUPYTER_DATA_DIR!, 'kernels');
    expect(out).toContain(kernels);
    expect(readdirSync(kernels).sort()).toEqual(['scratchlab', 'scratchlab-sandbox']);

    const sandbox = readSpec(join(kernels, 'scratchlab-sandbox'));
    const site = readSpec(join(kernels, 'scratchlab'));
    expect(sandbox.display_name).toBe('scratchlab (sandbox)');
    expect(site.display_name).toBe('scratchlab');
    for (const spec of [sandbox, site]) {
      expect(spec.language).toBe('typescript');
      const [node, launcher, ...rest] = spec.argv;
      expect(node).toBe(process.execPath);
      expect(isAbsolute(launcher!)).toBe(true);
      expect(launcher).toBe(join(ROOT, 'dist', 'kernel', 'launch.js'));
      expect(existsSync(launcher!)).toBe(true);
      expect(rest.slice(0, 2)).toEqual(['--config-path', '{connection_file}']);
      expect(spec.env).toBeUndefined();
    }
    // Real PNG logos of the sizes their names give, drawn (not blank).
    for (const name of ['scratchlab', 'scratchlab-sandbox']) {
      for (const size of [32, 64]) {
        const image = decodePng(readFileSync(join(kernels, name, `logo-${size}x${size}.png`)));
        expect([image.width, image.height]).toEqual([size, size]);
        const distinct = new Set<string>();
        for (let i = 0; i < image.pixels.length; i += image.channels) {
          distinct.add(image.pixels.subarray(i, i + image.channels).join(','));
        }
        expect(distinct.size).toBeGreaterThan(3);
      }
    }
    expect(sandbox.argv.slice(4)).toEqual(['--sandbox']);
    expect(site.argv.slice(4)).toEqual([]);

    const written = [sandbox, site].map((s) => JSON.stringify(s)).join('\n');
    expect(written).not.toContain('hunter2-very-secret');
    expect(written).not.toContain('someone');
    expect(written).not.toMatch(/password|token|session/i);
    // Nothing was written into HOME.
    expect(readdirSync(home.env.HOME!)).toEqual([]);
  });

  it('installs under --prefix DIR/share/jupyter/kernels', async () => {
    const home = jupyterHome('kernelspec-prefix');
    const prefix = join(home.dir, 'venv');
    await installKernels(home, '--prefix', prefix);
    for (const name of ['scratchlab', 'scratchlab-sandbox']) {
      expect(existsSync(join(prefix, 'share', 'jupyter', 'kernels', name, 'kernel.json'))).toBe(true);
    }
    expect(existsSync(join(home.env.JUPYTER_DATA_DIR!, 'kernels'))).toBe(false);
  });

  it('refuses --user with --prefix, and explains itself', async () => {
    const home = jupyterHome('kernelspec-usage');
    await expect(installKernels(home, '--user', '--prefix', home.dir)).rejects.toThrow(
      /either --user or --prefix/,
    );
    const { stdout } = await run(process.execPath, [CLI, 'kernel', 'help'], { env: home.env });
    expect(stdout).toContain('scratchlab kernel install [--user | --prefix DIR]');
  });

  // `jupyter kernelspec` is jupyter-client's `jupyter-kernelspec` command (not its Python module).
  it.skipIf(!(hasJupyter && installed('jupyter-kernelspec')))('is what Jupyter lists', async () => {
    const home = jupyterHome('kernelspec-list');
    await installKernels(home);
    const { stdout } = await run(toolPath('jupyter'), ['kernelspec', 'list', '--json'], { env: home.env });
    const { kernelspecs } = JSON.parse(stdout) as {
      kernelspecs: Record<string, { resource_dir: string; spec: KernelJson }>;
    };
    expect(kernelspecs['scratchlab-sandbox']?.spec.display_name).toBe('scratchlab (sandbox)');
    // Jupyter's server serves logo-32x32.png / logo-64x64.png from the resource folder.
    expect(readdirSync(kernelspecs.scratchlab!.resource_dir)).toEqual(
      expect.arrayContaining(['logo-32x32.png', 'logo-64x64.png']),
    );
    expect(kernelspecs.scratchlab?.resource_dir).toBe(
      join(home.env.JUPYTER_DATA_DIR!, 'kernels', 'scratchlab'),
    );
  });
});
