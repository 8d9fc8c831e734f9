// The package where users install it, from `npm pack` output (the current build): into a project
// (notebooks in the project and in a sub-folder), globally (a private prefix; notebooks in a
// folder of no npm project), and from a checkout. Each time `scratchlab kernel install`, then
// nbconvert executes a notebook on the installed kernel. npm's cache and prefix are private
// (test/.tmp/install); installing the tarball's dependencies needs the npm registry.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI,
  executeNotebook,
  hasJupyter,
  type JupyterHome,
  jupyterHome,
  makeNotebook,
  ROOT,
  writeNotebook,
} from '../kernel/jupyter.js';

const run = promisify(execFile);
const WORK = join(ROOT, 'test', '.tmp', 'install');
/** Longest an npm command may take (installs fetch from the registry). */
const NPM_TIMEOUT = 240_000;

/** A notebook that needs the package at run time (subpaths too) and its types. */
const CELLS = [
  'const me: User = await session.users.get(session.username!);\nme.username',
  "import { startSandbox } from 'scratchlab/sandbox';\ntypeof startSandbox",
  'const b: Buffer = Buffer.from(sandbox.url); b.length > 0',
];

function results(notebook: {
  cells: { outputs?: { output_type: string; data?: Record<string, unknown> }[] }[];
}) {
  return notebook.cells.map((cell) => {
    const result = cell.outputs?.find((o) => o.output_type === 'execute_result');
    const data = result?.data?.['text/plain'];
    return Array.isArray(data) ? data.join('') : data;
  });
}

describe.skipIf(!hasJupyter)('installed from the packed tarball', () => {
  let tarball: string;
  /** npm's global config file (registry, CA file): `--prefix` would otherwise move it too. */
  let globalConfig: string;
  const passed = Object.fromEntries(
    [
      'NODE_EXTRA_CA_CERTS',
      'SSL_CERT_FILE',
      'HTTPS_PROXY',
      'HTTP_PROXY',
      'NO_PROXY',
      'https_proxy',
      'http_proxy',
      'no_proxy',
    ]
      .filter((name) => process.env[name] !== undefined)
      .map((name) => [name, process.env[name]!]),
  );
  const npmEnv = (home: JupyterHome) => ({
    ...home.env,
    ...passed,
    npm_config_globalconfig: globalConfig,
    npm_config_cache: join(WORK, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  });
  const outside: string[] = [];

  beforeAll(async () => {
    rmSync(join(WORK, 'projects'), { recursive: true, force: true });
    mkdirSync(join(WORK, 'projects'), { recursive: true });
    globalConfig = (await run('npm', ['config', 'get', 'globalconfig'])).stdout.trim();
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', WORK], {
      cwd: ROOT,
      timeout: NPM_TIMEOUT,
    });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    tarball = join(WORK, packed!.filename);
    // What users download: the build, not the sources or the tests.
    expect(packed!.files.some((f) => f.path.startsWith('kernel/') || f.path.startsWith('test/'))).toBe(false);
    expect(packed!.files.map((f) => f.path)).toContain('dist/kernel/launch.js');
  }, 120_000);

  afterAll(() => {
    for (const dir of outside) rmSync(dir, { recursive: true, force: true });
  });

  it('works installed in a project: notebooks in the project and in a sub-folder', {
    timeout: 300_000,
  }, async () => {
    const home = jupyterHome('install-local');
    const env = npmEnv(home);
    const project = join(WORK, 'projects', 'local');
    mkdirSync(join(project, 'analysis'), { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "name": "my-analysis", "private": true }\n');
    await run('npm', ['install', tarball], { cwd: project, env, timeout: NPM_TIMEOUT });
    const { stdout } = await run('npx', ['--no-install', 'scratchlab', 'kernel', 'install'], {
      cwd: project,
      env,
    });
    expect(stdout).toContain(join(home.env.JUPYTER_DATA_DIR!, 'kernels'));
    const spec = JSON.parse(
      readFileSync(join(home.env.JUPYTER_DATA_DIR!, 'kernels', 'scratchlab-sandbox', 'kernel.json'), 'utf8'),
    ) as { argv: string[] };
    expect(spec.argv[1]).toBe(join(project, 'node_modules', 'scratchlab', 'dist', 'kernel', 'launch.js'));

    for (const folder of [project, join(project, 'analysis')]) {
      const input = join(folder, 'check.ipynb');
      writeNotebook(input, makeNotebook(CELLS));
      const { notebook } = await executeNotebook(home, input);
      expect(results(notebook), folder).toEqual(["'demo_scratcher'", "'function'", 'true']);
    }

    // Without zeromq's addon (a platform with no prebuilt one), install says what to run.
    const build = join(project, 'node_modules', 'zeromq', 'build');
    const hidden = `${build}.hidden`;
    renameSync(build, hidden);
    try {
      const failed = await run('npx', ['--no-install', 'scratchlab', 'kernel', 'install'], {
        cwd: project,
        env,
      }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(
        `cd ${JSON.stringify(project)} && npm rebuild zeromq --allow-scripts=zeromq`,
      );
    } finally {
      renameSync(hidden, build);
    }
  });

  it('works installed globally, with notebooks outside any npm project', { timeout: 300_000 }, async () => {
    const home = jupyterHome('install-global');
    const env = npmEnv(home);
    const prefix = join(WORK, 'projects', 'global-prefix');
    await run('npm', ['install', '-g', '--prefix', prefix, tarball], { env, timeout: NPM_TIMEOUT });
    await run(join(prefix, 'bin', 'scratchlab'), ['kernel', 'install'], { env });
    const folder = mkdtempSync(join(tmpdir(), 'scratchlab-notebooks-'));
    outside.push(folder);
    const input = join(folder, 'check.ipynb');
    writeNotebook(input, makeNotebook(CELLS));
    const { notebook } = await executeNotebook(home, input);
    expect(results(notebook)).toEqual(["'demo_scratcher'", "'function'", 'true']);
  });

  it('works from a checkout (the built repository), notebooks outside it too', {
    timeout: 300_000,
  }, async () => {
    const home = jupyterHome('install-checkout');
    await run(process.execPath, [CLI, 'kernel', 'install'], { env: home.env });
    const inside = join(WORK, 'projects', 'checkout-notebooks');
    const elsewhere = mkdtempSync(join(tmpdir(), 'scratchlab-notebooks-'));
    outside.push(elsewhere);
    for (const folder of [inside, elsewhere]) {
      mkdirSync(folder, { recursive: true });
      const input = join(folder, 'check.ipynb');
      writeNotebook(input, makeNotebook(CELLS));
      const { notebook } = await executeNotebook(home, input);
      expect(results(notebook), folder).toEqual(["'demo_scratcher'", "'function'", 'true']);
    }
    expect(existsSync(join(ROOT, 'node_modules', 'scratchlab'))).toBe(false);
  });
});
