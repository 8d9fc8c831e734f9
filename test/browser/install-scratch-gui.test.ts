/**
 * test/support/install-scratch-gui.sh as a suite meets it: run from a tree of its own (a copy of
 * the script, its cache beside it), with the registry unreachable (a closed port and an empty npm
 * cache) so that nothing can be fetched, with a half-written cache, and twice at once.
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SCRATCH_GUI } from './scratch-gui-page.js';

const SCRIPT = join(import.meta.dirname, '..', 'support', 'install-scratch-gui.sh');
/** The marker of a whole install (this tree's, installed first). */
let marker: string;
beforeAll(() => {
  execFileSync('bash', [SCRIPT], { stdio: 'inherit' });
  marker = readFileSync(join(SCRATCH_GUI, '..', '..', 'INTEGRITY'), 'utf8');
}, 300_000);

let tree: string;
afterEach(() => rmSync(tree, { recursive: true, force: true }));

/** A tree holding the script at test/support/, as a clone has it. */
function cloneTree(): string {
  tree = mkdtempSync(join(tmpdir(), 'install-gui-'));
  mkdirSync(join(tree, 'test', 'support'), { recursive: true });
  copyFileSync(SCRIPT, join(tree, 'test', 'support', 'install-scratch-gui.sh'));
  return tree;
}

/** Runs the script of `root`: exit code and stderr. */
function run(root: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [join(root, 'test', 'support', 'install-scratch-gui.sh')],
      { env },
      (error, _out, stderr) => resolve({ code: error ? Number(error.code) : 0, stderr }),
    );
  });
}

/** Runs the script of `root` with no registry to reach. */
const runOffline = (root: string) =>
  run(root, {
    ...process.env,
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_cache: join(root, 'npm-cache'),
    npm_config_fetch_retries: '0',
  });

describe('install-scratch-gui.sh', () => {
  it('with no registry to reach, fails and says what it could not fetch and why', async () => {
    const { code, stderr } = await runOffline(cloneTree());
    expect(code).toBe(1);
    expect(stderr).toContain('install-scratch-gui: could not fetch scratch-gui@5.3.0 from the npm registry');
    expect(stderr).toContain('ECONNREFUSED');
  });

  it('takes a cache whose file was cut short for missing, even with its marker in place', async () => {
    const root = cloneTree();
    const dir = join(root, 'test', '.cache', 'scratch-gui-5.3.0');
    mkdirSync(join(dir, 'dist'), { recursive: true });
    // What a copy cut off part-way leaves: the start of the build, and the marker of a whole install.
    writeFileSync(join(dir, 'dist', 'scratch-gui.js'), '!function(e,t){"object"==typeof exports');
    writeFileSync(join(dir, 'INTEGRITY'), marker);
    // It must try to fetch again (and, offline, fail), never answer that the GUI is installed.
    const { code, stderr } = await runOffline(root);
    expect(code).toBe(1);
    expect(stderr).toContain('could not fetch scratch-gui@5.3.0');
  });

  it('run twice at once (two suites starting), installs once: both succeed and the file is whole', async () => {
    const root = cloneTree();
    const [first, second] = await Promise.all([run(root), run(root)]);
    expect([first, second]).toEqual([
      { code: 0, stderr: '' },
      { code: 0, stderr: '' },
    ]);
    const dir = join(root, 'test', '.cache', 'scratch-gui-5.3.0');
    expect(readFileSync(join(dir, 'INTEGRITY'), 'utf8')).toBe(marker);
    // 18 MB: compared as one boolean (a deep equality walks it byte by byte).
    expect(readFileSync(join(dir, 'dist', 'scratch-gui.js')).equals(readFileSync(SCRATCH_GUI))).toBe(true);
  }, 300_000);
});
