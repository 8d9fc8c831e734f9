/**
 * The lines printed before the first prompt: which scratchlab, who is logged in where, and how to
 * get help.
 */
import { readFileSync } from 'node:fs';
import { style } from './style.js';

/** The package's version (read from its package.json; `''` if it cannot be read). */
export function packageVersion(): string {
  try {
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const version: unknown = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' ? version : '';
  } catch {
    return '';
  }
}

/** What the banner says. */
export interface BannerInfo {
  /** One line from the workbench: who is logged in, where. */
  description: string;
  /** Whether the sandbox runs (then `sandbox` is a global). */
  sandbox: boolean;
  color: boolean;
}

/** The banner, ending with a newline. */
export function banner({ description, sandbox, color }: BannerInfo): string {
  const paint = style(color);
  const version = packageVersion();
  const globals = [
    'session',
    ...(sandbox ? ['sandbox'] : []),
    'show',
    'plot',
    'live',
    'Session',
    'ApiError',
    '…',
  ];
  return [
    `${paint.bold(`scratchlab${version ? ` ${version}` : ''}`)} REPL · ${description}`,
    paint.dim(
      `TypeScript, top-level await. Globals: ${globals.join(', ')}. Type .help for help, Ctrl-D to exit.`,
    ),
    '',
  ].join('\n');
}
