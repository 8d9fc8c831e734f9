/**
 * The loop of the worker process that type-checks cells (./type-checker.ts), off the cells'
 * critical path (loaded by ./type-check-worker.ts).
 *
 * It is tslab's own converter, fed the cells in the order they ran: the same program, the same
 * diagnostics as when tslab checked each cell before running it. A cell with type errors still ran
 * (types are stripped, not checked, to run it: ./cell-script.ts), so its declarations are kept for
 * the next cells: it is converted again with `// @ts-ignore` above its problems' lines.
 */
import { converter, tslabTypeScript } from '../tslab.js';
import { exportedNames } from './exported-names.js';
import { mainDeclarations, packageRoot, resolvePackageForTypes } from './package-resolution.js';
import { GLOBALS_MODULE, globalsDeclarations } from './preload.js';
import type { CheckReply, CheckRequest, TypeProblem } from './type-check-messages.js';

interface TslabDiagnostic {
  start: { line: number; character: number };
  messageText: string;
  code: number;
  fileName?: string;
}

const send = process.send?.bind(process);
if (!send) throw new Error("type-check-worker.js runs as the kernel's child process (with an IPC channel)");
// The kernel started it in the cells' folder.
const cwd = process.cwd();
// The kernel is gone (ended, killed): so is its check.
process.on('disconnect', () => process.exit(0));

const ts = tslabTypeScript();
const root = packageRoot();
let globalsText: string | null = null;
resolvePackageForTypes(
  ts.sys,
  cwd,
  root,
  new Map([
    [
      GLOBALS_MODULE.slice(GLOBALS_MODULE.indexOf('/') + 1),
      () => (globalsText ??= globalsDeclarations(exportedNames(ts, mainDeclarations(root)))),
    ],
  ]),
);

const cells = converter.createConverter({ isJS: false, isBrowser: false });
/** Every earlier cell's declarations, as tslab keeps them. */
let declarations = '';

/** Rounds of `@ts-ignore` tried to get a cell's declarations past its type errors. */
const IGNORE_ROUNDS = 3;

type Converted = { diagnostics: TslabDiagnostic[]; declOutput?: string };

/** `source` with `// @ts-ignore` above each of its lines that has a problem. */
function ignoring(source: string, problems: readonly TslabDiagnostic[]): string {
  const lines = source.split('\n');
  const marked = new Set(problems.filter((p) => p.fileName === undefined).map((p) => p.start.line));
  return lines.flatMap((line, i) => (marked.has(i) ? ['// @ts-ignore', line] : [line])).join('\n');
}

function check(source: string): TypeProblem[] {
  const first = cells.convert(declarations, source) as Converted;
  let converted = first;
  let text = source;
  // The cell ran anyway: its declarations count for the next cells.
  for (let round = 0; round < IGNORE_ROUNDS && converted.diagnostics.length > 0; round++) {
    text = ignoring(text, converted.diagnostics);
    converted = cells.convert(declarations, text) as Converted;
  }
  if (converted.declOutput !== undefined) declarations = converted.declOutput;
  return first.diagnostics.map((d) => ({
    file: d.fileName,
    line: d.start.line + 1,
    column: d.start.character + 1,
    message: String(d.messageText),
    code: d.code,
  }));
}

process.on('message', (request: CheckRequest) => {
  if (request.declarations !== undefined) declarations = request.declarations;
  let reply: CheckReply;
  try {
    reply = { id: request.id, problems: check(request.source), declarations };
  } catch (error) {
    reply = { id: request.id, failure: error instanceof Error ? error.message : String(error), declarations };
  }
  send(reply);
});
send({ id: -1, problems: [], declarations } satisfies CheckReply); // ready
