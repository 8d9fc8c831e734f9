// Checks the package as users get it: packs it (npm pack, from the current build), lints the
// tarball with publint and @arethetypeswrong/cli (types must resolve for every export under
// node16 and bundler resolution; the package is ESM-only), prints its size and file count and
// how long `npm install <tarball>` takes in an empty folder, and fails past the size budgets.
//
//   node test/package/check.mjs [--no-install]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = join(root, 'test/.tmp/package');
// Budgets: what the tarball holds is ours (dist, kernel assets); dependencies are not counted.
const MAX_PACKED_BYTES = 1_000_000;
// 800 files: scratchlab/data (the DuckDB store, issue 18) added about 80 (each source file ships as .js, .d.ts and their maps).
const MAX_FILES = 800;
const FORBIDDEN = [/^package\/test\//, /^package\/src\//, /\.test\.[jt]s$/, /^package\/notebooks\//];

const run = (cmd, args, cwd = root) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const [packed] = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work]));
const tarball = join(work, packed.filename);
const files = packed.files.map((f) => `package/${f.path}`);
console.log(`package: ${packed.filename}`);
console.log(
  `  packed ${(packed.size / 1024).toFixed(1)} kB, unpacked ${(packed.unpackedSize / 1024).toFixed(1)} kB, ${files.length} files`,
);

const problems = [];
if (packed.size > MAX_PACKED_BYTES)
  problems.push(`packed size ${packed.size} B is over the budget of ${MAX_PACKED_BYTES} B`);
if (files.length > MAX_FILES) problems.push(`${files.length} files is over the budget of ${MAX_FILES}`);
for (const file of files) {
  if (FORBIDDEN.some((pattern) => pattern.test(file))) problems.push(`${file} should not be published`);
}

for (const [name, args] of [
  ['publint', ['publint', 'run', '--strict', tarball]],
  ['attw', ['attw', '--profile', 'esm-only', '--format', 'ascii', tarball]],
]) {
  try {
    run('npx', ['--no-install', ...args]);
    console.log(`  ${name}: ok`);
  } catch (error) {
    problems.push(`${name} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

if (!process.argv.includes('--no-install')) {
  const app = join(work, 'app');
  mkdirSync(app);
  run('npm', ['init', '-y'], app);
  const started = performance.now();
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
  const seconds = (performance.now() - started) / 1000;
  const size = folderBytes(join(app, 'node_modules'));
  console.log(
    `  npm install <tarball> into an empty folder: ${seconds.toFixed(1)} s, node_modules ${(size / 1e6).toFixed(1)} MB`,
  );
  try {
    const version = run(
      process.execPath,
      [join(app, 'node_modules/scratchlab/dist/cli.js'), '--version'],
      app,
    ).trim();
    if (!version.includes(packed.version))
      problems.push(`the installed CLI says "${version}", not version ${packed.version}`);
  } catch (error) {
    problems.push(`the installed CLI's --version failed: ${(error.stderr ?? String(error)).split('\n')[0]}`);
  }
}

if (problems.length > 0) {
  console.error(`package check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('package check: ok');

function folderBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}
