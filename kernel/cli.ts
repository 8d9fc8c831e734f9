/**
 * `scratchlab kernel …` (loaded by `src/cli.ts`):
 *
 *     scratchlab kernel install [--user | --prefix DIR]
 */
import { parseArgs } from 'node:util';
import { packageRoot } from './execution/package-resolution.js';
import { installKernelspecs, kernelsDir } from './install/kernelspec.js';
import { rebuildCommand, transportProblem } from './install/transport-check.js';

const HELP = `Usage: scratchlab kernel install [--user | --prefix DIR]

Installs two Jupyter kernels:
  scratchlab-sandbox   "scratchlab (sandbox)": the embedded sandbox, logged in as its demo account
  scratchlab           the real site: the REPL's saved session, or SCRATCH_USERNAME/SCRATCH_PASSWORD

Options:
  --user         into your Jupyter data folder (default; $JUPYTER_DATA_DIR/kernels if set)
  --prefix DIR   into DIR/share/jupyter/kernels (e.g. a virtualenv)
`;

/** Runs `scratchlab kernel <args>`. */
export async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP);
    return;
  }
  if (command !== 'install') {
    process.stderr.write(`scratchlab kernel: unknown command ${JSON.stringify(command)}\n\n${HELP}`);
    process.exitCode = 2;
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: { user: { type: 'boolean' }, prefix: { type: 'string' } },
    strict: true,
  });
  if (values.user && values.prefix !== undefined) throw new Error('give either --user or --prefix, not both');
  const target = { prefix: values.prefix };
  const folders = await installKernelspecs(target);
  process.stdout.write(
    `Installed the scratchlab kernels in ${kernelsDir(target)}:\n${folders.map((f) => `  ${f}\n`).join('')}`,
  );
  const problem = transportProblem();
  if (problem !== null) {
    process.stderr.write(
      `\nThe kernels will not start yet: zeromq, their transport to Jupyter, did not load (${problem}).\n` +
        `npm skipped its build script (npm 11 runs dependencies' install scripts only when allowed). Run:\n\n` +
        `  ${rebuildCommand(packageRoot())}\n\n`,
    );
    process.exitCode = 1;
  }
}
