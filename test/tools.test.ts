// The one table of the system tools the suite runs (test/support/tools.tsv): every command a test
// launches is in it, and each row's package is the one Debian's `dpkg -S` says holds it, so that
// what the set-up installs (test/support/install-*.sh, checking the very command or module) is
// what the tests use.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installed, TOOLS, type Tool, toolPath, toolPaths, toolsRequired } from './support/tools.js';

const ROOT = join(import.meta.dirname, '..');

/** What runs the suite itself (not a tool the set-up installs): Node, and npm and npx beside it. */
const RUNTIME = new Set(['node', 'npm', 'npx']);

/** The functions of `node:child_process` that start a program; exec's run a shell command line. */
const LAUNCHERS = new Set(['execFile', 'execFileSync', 'spawn', 'spawnSync', 'exec', 'execSync', 'fork']);

/**
 * The programs a source launches with a literal name or path: the calls of `node:child_process`'s
 * launchers (and of their `promisify`-ed names), Python's `subprocess` calls with a literal list,
 * and every literal path of a program (`/usr/bin/x`, `/usr/lib/postgresql/15/bin/x`), however it
 * is used (an `executablePath`, a wrapper's argument).
 */
function launchedPrograms(source: string, python: boolean): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(
    /['"`](\/(?:usr\/(?:local\/)?)?s?bin\/[\w.+-]+|\/usr\/lib\/[\w.+/*-]+\/bin\/[\w.+-]+)['"`]/g,
  ))
    found.push(m[1]!);
  if (python) {
    for (const m of source.matchAll(/subprocess\.\w+\(\s*\[\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
    for (const m of source.matchAll(/os\.(?:exec|spawn)\w*\(\s*['"]([^'"]+)['"]/g)) found.push(m[1]!);
    return [...new Set(found)];
  }
  const names = new Map<string, string>(); // local name → launcher
  for (const m of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"](?:node:)?child_process['"]/g)) {
    for (const part of m[1]!.split(',')) {
      const [name, local] = part
        .replace(/\btype\b/, '')
        .trim()
        .split(/\s+as\s+/);
      if (name && LAUNCHERS.has(name)) names.set(local ?? name, name);
    }
  }
  for (const m of source.matchAll(/\b(\w+)\s*=\s*promisify\(\s*(\w+)\s*\)/g))
    if (names.has(m[2]!)) names.set(m[1]!, names.get(m[2]!)!);
  for (const [local, launcher] of names) {
    for (const m of source.matchAll(
      new RegExp(`(?<![\\w.])${local}\\(\\s*(['"\`])((?:(?!\\1).)+)\\1`, 'g'),
    )) {
      const literal = m[2]!;
      if (literal.includes('${')) continue;
      found.push(
        launcher.startsWith('exec') && !launcher.startsWith('execFile') ? literal.split(' ')[0]! : literal,
      );
    }
  }
  return [...new Set(found)];
}

/** Whether a program a test launches is in the table (by path, a version's path, or name) or the runtime. */
function inTable(program: string): boolean {
  if (RUNTIME.has(program)) return true;
  return TOOLS.some((row) => {
    if (row.kind !== 'command') return false;
    if (row.name === program) return true;
    if (row.name.includes('*')) {
      const [before, after] = row.name.split('*') as [string, string];
      if (
        program.startsWith(before) &&
        program.endsWith(after) &&
        !program.slice(before.length, -after.length).includes('/')
      )
        return true;
    }
    return !program.includes('/') && row.name.endsWith(`/${program}`);
  });
}

/** The test sources: what vitest runs and what it imports (the benchmarks and soak runs are not the suite). */
function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['.tmp', 'node_modules', 'bench', 'soak'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|mts|mjs|js|py)$/.test(entry.name)) yield path;
  }
}

describe('the table of the suite’s tools', () => {
  it('finds the programs a source launches, and knows which are in the table', () => {
    const ts = `import { execFile as ef, spawn } from 'node:child_process';
const run = promisify(ef);
await run('jupyter', ['nbconvert']);
spawn('/usr/bin/zip', []);
spawn(toolPath('tmux'), []);
const page = { executablePath: '/usr/bin/chromium' };
run(\`\${dir}/x\`);`;
    expect(launchedPrograms(ts, false).sort()).toEqual(['/usr/bin/chromium', '/usr/bin/zip', 'jupyter']);
    expect(launchedPrograms('subprocess.run(["unzip", "-l"])\nos.execv("/bin/true", [])', true)).toEqual([
      '/bin/true',
      'unzip',
    ]);
    expect(['jupyter', '/usr/bin/chromium', '/usr/lib/postgresql/15/bin/initdb', 'npm'].map(inTable)).toEqual(
      [true, true, true, true],
    );
    expect(['/usr/bin/zip', 'unzip', '/usr/lib/postgresql/15/x/bin/initdb'].map(inTable)).toEqual([
      false,
      false,
      false,
    ]);
    expect(() => toolPath('zip')).toThrow(/zip is not in test\/support\/tools\.tsv/);
  });

  it('holds every command a test runs', () => {
    const missing: string[] = [];
    let launches = 0;
    for (const file of sources(join(ROOT, 'test'))) {
      if (file.endsWith('tools.test.ts')) continue; // its own samples above
      for (const program of launchedPrograms(readFileSync(file, 'utf8'), file.endsWith('.py'))) {
        launches++;
        if (!inTable(program)) missing.push(`${relative(ROOT, file)}: ${program}`);
      }
    }
    expect(missing).toEqual([]);
    expect(launches).toBeGreaterThan(0);
  });

  it('fails for a missing tool under npm test whoever runs it: test/run.sh sets the strictness itself', () => {
    const script = readFileSync(join(ROOT, 'test/run.sh'), 'utf8');
    const strict = script.indexOf('\nexport SCRATCHLAB_REQUIRE_TOOLS=1\n');
    expect(strict).toBeGreaterThan(-1);
    expect(strict).toBeLessThan(script.indexOf('npx vitest run'));
    const saved = { ci: process.env.CI, require: process.env.SCRATCHLAB_REQUIRE_TOOLS };
    try {
      delete process.env.CI;
      process.env.SCRATCHLAB_REQUIRE_TOOLS = '1';
      expect(toolsRequired()).toBe(true);
      delete process.env.SCRATCHLAB_REQUIRE_TOOLS;
      expect(toolsRequired()).toBe(false); // vitest by hand, outside CI: a skip with a note
      process.env.CI = 'true';
      expect(toolsRequired()).toBe(true);
    } finally {
      for (const [key, value] of [
        ['CI', saved.ci],
        ['SCRATCHLAB_REQUIRE_TOOLS', saved.require],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it('names for each tool the package that dpkg -S says holds it', () => {
    // A missing tool fails under test/run.sh (its rows cannot be asked); by hand it is left out.
    if (!installed('dpkg', 'python3')) return;
    const asked: [Tool, string][] = [];
    for (const row of TOOLS) {
      if (!installed(row.name)) continue;
      if (row.kind === 'command') for (const path of toolPaths(row)) asked.push([row, path]);
      else {
        const file = execFileSync(
          toolPath('python3'),
          ['-c', `import ${row.name}; print(${row.name}.__file__)`],
          {
            encoding: 'utf8',
          },
        );
        asked.push([row, file.trim()]);
      }
    }
    const owners = dpkgOwners(asked.map(([, path]) => path));
    const wrong = asked
      .filter(
        ([row, path]) => !(owners.get(path) ?? []).some((holder) => packageMatches(row.package, holder)),
      )
      .map(
        ([row, path]) =>
          `${path}: the table says ${row.package}, dpkg -S says ${owners.get(path)?.join(', ') ?? 'none'}`,
      );
    expect(wrong).toEqual([]);
    expect(asked.length).toBeGreaterThanOrEqual(TOOLS.length);
  });
});

/**
 * The packages `dpkg -S` names for each of `paths`, in one call. With /bin a link to /usr/bin
 * (merged /usr), dpkg knows a file by the path its package ships (`/bin/bash`, `/usr/bin/id`): the
 * other path is asked too, and answers for it.
 */
function dpkgOwners(paths: readonly string[]): Map<string, string[]> {
  const other = (path: string) => (path.startsWith('/usr/') ? path.slice(4) : `/usr${path}`);
  // It exits 1 when one of them is not known (the other path of each, often): its lines still count.
  const { stdout } = spawnSync(toolPath('dpkg'), ['-S', ...paths, ...paths.map(other)], { encoding: 'utf8' });
  const owners = new Map<string, string[]>();
  for (const line of stdout.split('\n')) {
    const at = line.lastIndexOf(': ');
    if (at === -1 || line.startsWith('diversion')) continue;
    const [holders, path] = [line.slice(0, at).split(', '), line.slice(at + 2)];
    for (const asked of paths) if (asked === path || other(asked) === path) owners.set(asked, holders);
  }
  return owners;
}

/** Whether a Debian package name (`postgresql-15`, `coreutils:amd64`) is the table's (`*` a version). */
function packageMatches(table: string, holder: string): boolean {
  const name = holder.replace(/:[\w-]+$/, ''); // an architecture
  if (!table.includes('*')) return name === table;
  const [before, after] = table.split('*') as [string, string];
  return (
    name.startsWith(before) &&
    name.endsWith(after) &&
    /^[\w.]+$/.test(name.slice(before.length, name.length - after.length))
  );
}
