/**
 * The lines printed before the first prompt: which scratchlab, what starts, and how to get help.
 */
import { readFileSync } from 'node:fs';
import { style } from './style.js';

/** The package's version (read from its package.json; `''` if it cannot be read). */
function packageVersion(): string {
  try {
    const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
    const version: unknown = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' ? version : '';
  } catch {
    return '';
  }
}

/** What the banner says. */
interface BannerInfo {
  /** Whether the sandbox runs (then `sandbox` is a global). */
  sandbox: boolean;
  color: boolean;
}

/** The banner, ending with a newline. */
export function banner({ sandbox, color }: BannerInfo): string {
  const paint = style(color);
  const version = packageVersion();
  const globals = [
    'session',
    ...(sandbox ? ['sandbox'] : []),
    'show',
    'display',
    'plot',
    'live',
    'Session',
    'ApiError',
    '…',
  ];
  return [
    // Who is logged in where follows on its own line once the session is open (it opens in the
    // background, while the user types).
    `${paint.bold(`scratchlab${version ? ` ${version}` : ''}`)} REPL · ${sandbox ? 'starting the embedded sandbox…' : 'opening the session…'}`,
    paint.dim(
      `TypeScript, top-level await. Globals: ${globals.join(', ')}. Type .help for help, Ctrl-D to exit.`,
    ),
    '',
  ].join('\n');
}
