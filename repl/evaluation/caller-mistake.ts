/**
 * A caller's mistake (a `TypeError` or `RangeError` thrown by the SDK's argument checks) is shown
 * as its message and the user's own line, not the SDK's internal frames: the frames say where the
 * check is, the user needs to know which of their calls it was about.
 */
/** The folder of the built package (`dist/`): frames there are the SDK's, not the user's. */
const PACKAGE_DIST = new URL('../..', import.meta.url).href; // ESM frames name files by URL

const inputs = new WeakMap<object, { line: number; text: string }>();

/** The frames of a stack, without the first line(s) of message. */
function frames(stack: string): string[] {
  return stack.split('\n').filter((line) => /^\s+at\s/.test(line));
}

/**
 * Remembers which line of the input `code` (run as `file`, node's `REPLn`) an SDK argument check
 * was about. Only errors thrown by the SDK's own code are noted.
 */
export function noteCallerInput(error: unknown, code: string, file: string): void {
  if (!(error instanceof TypeError || error instanceof RangeError) || typeof error.stack !== 'string') return;
  const stack = frames(error.stack);
  const first = stack[0] ?? '';
  if (!first.includes(PACKAGE_DIST) || first.includes(`${PACKAGE_DIST}repl`)) return;
  const lines = code.replace(/\n$/, '').split('\n');
  // The input's frame names its line in the transpiled script; types stripped keep lines as they
  // were in most inputs, and the line is checked against the input's length.
  const own = stack.find((frame) => frame.includes(`${file}:`));
  const at = own ? Number(/:(\d+):\d+\)?$/.exec(own)?.[1]) : Number.NaN;
  const index = Number.isInteger(at) && at >= 1 && at <= lines.length ? at - 1 : 0;
  const nonEmpty = lines[index]?.trim() ? index : lines.findIndex((line) => line.trim() !== '');
  inputs.set(error, { line: Math.max(0, nonEmpty) + 1, text: (lines[Math.max(0, nonEmpty)] ?? '').trim() });
}

/** `RangeError: limit must be at least 1` and the user's line, or `null` for other errors. */
export function formatCallerMistake(error: unknown, dim: (text: string) => string): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const input = inputs.get(error);
  if (!input) return null;
  const { name, message } = error as Error;
  const where = input.line > 1 ? `your line ${input.line}` : 'your line';
  return `${name}: ${message}\n${dim(`    at ${where}: ${input.text}`)}`;
}
