/**
 * The system tools the suite runs (Jupyter, Chromium, tmux, the database servers...), found
 * through the one table of them, ./tools.tsv, from which the test/support/install-*.sh set-ups
 * install what is missing by checking the very command or module the tests use.
 *
 * A test names a tool by its command (`toolPath('tmux')`) or module; one not in the table is an
 * error. A missing tool fails the test file that asks when `SCRATCHLAB_REQUIRE_TOOLS=1` (set by
 * test/run.sh, whoever runs it) or `CI=true`: never a silent skip. Only vitest run by hand on a
 * developer's machine skips the tests of a tool it lacks.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** One row of ./tools.tsv. */
export interface Tool {
  /** A command the tests launch, or a Python module their Python code imports. */
  kind: 'command' | 'module';
  /** The command's path (`*` for a version folder) or the module's name. */
  name: string;
  /** The Debian package that holds it, as `dpkg -S` names it (`*` for a version). */
  package: string;
  /** The package apt installs to get it. */
  apt: string;
  /** The set-ups that install it (test/support/install-NAME.sh). */
  setups: string[];
}

/** The table's file. */
export const TOOLS_TABLE = join(import.meta.dirname, 'tools.tsv');

/** The rows of ./tools.tsv. */
export const TOOLS: readonly Tool[] = readFileSync(TOOLS_TABLE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'))
  .map((line, i) => {
    const [kind, name, pkg, apt, setups] = line.split('\t');
    if ((kind !== 'command' && kind !== 'module') || !name || !pkg || !apt || !setups)
      throw new Error(
        `tools.tsv, row ${i + 1}: not "kind name package apt set-ups": ${JSON.stringify(line)}`,
      );
    return { kind, name, package: pkg, apt, setups: setups.split(',') };
  });

/** The table's row for a command (its path or its file name) or a module. */
export function toolRow(tool: string): Tool {
  const row = TOOLS.find((t) => t.name === tool || (t.kind === 'command' && basename(t.name) === tool));
  if (!row)
    throw new Error(`${tool} is not in test/support/tools.tsv: add it there, with its Debian package`);
  return row;
}

/** Every existing path of a command row: its own, or each version's for a `*`. */
export function toolPaths(row: Tool): string[] {
  const star = row.name.indexOf('*');
  if (star === -1) return isExecutable(row.name) ? [row.name] : [];
  const parent = dirname(row.name.slice(0, star + 1));
  const rest = row.name
    .slice(parent.length + 1)
    .split('/')
    .slice(1)
    .join('/');
  let versions: string[] = [];
  try {
    // The newest first: `15` before `9`.
    versions = readdirSync(parent).sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
  } catch {
    return [];
  }
  return versions.map((v) => join(parent, v, rest)).filter(isExecutable);
}

/** A command's path, from the table (the newest version of a `*`); throws for one not there. */
export function toolPath(command: string): string {
  const row = toolRow(command);
  if (row.kind !== 'command') throw new Error(`${command} is a Python module in tools.tsv, not a command`);
  return toolPaths(row)[0] ?? row.name;
}

/** Whether the tool is there: a command executable, a module importable by Debian's Python. */
function present(row: Tool): boolean {
  if (row.kind === 'command') return toolPaths(row).length > 0;
  const python = toolPath('python3');
  return isExecutable(python) && spawnSync(python, ['-c', `import ${row.name}`]).status === 0;
}

/** Whether missing tools fail the suite (test/run.sh sets it; CI too). */
export function toolsRequired(): boolean {
  return process.env.SCRATCHLAB_REQUIRE_TOOLS === '1' || process.env.CI === 'true';
}

/**
 * Whether every one of `tools` (commands or modules of the table) is there; when one is missing
 * and {@link toolsRequired}, throws (failing the test file that asks).
 */
export function installed(...tools: string[]): boolean {
  for (const tool of tools) {
    const row = toolRow(tool);
    if (present(row)) continue;
    const setup = `bash test/support/install-${row.setups[0]}.sh`;
    if (toolsRequired()) {
      throw new Error(
        `${row.name} (Debian's ${row.apt}) is missing, and the suite requires its tools: run ${setup}`,
      );
    }
    process.stderr.write(`skipping the tests that need ${row.name} (run ${setup})\n`);
    return false;
  }
  return true;
}

/** Whether `path` is a file this process may execute. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
