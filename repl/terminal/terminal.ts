/**
 * The terminal the REPL runs in: whether stdin/stdout are one, whether colours are wanted, and
 * the keyboard router shared by the hidden password prompt and the evaluator.
 */
import { KeypressRouter } from './keypress-capture.js';
import type { PromptTerminal } from './password.js';

/** The REPL's terminal (or its absence: input from a pipe). */
export interface ReplTerminal {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  /** Both stdin and stdout are terminals: line editing, history, completion, live charts. */
  isTerminal: boolean;
  /** ANSI colours (never with `NO_COLOR`, nor when stdout is not a terminal). */
  color: boolean;
  /** For hidden prompts and held keys; `null` when not a terminal. */
  prompt: PromptTerminal | null;
}

let current: ReplTerminal | undefined;

/** The process's terminal (made once: its keyboard router must be shared). */
export function processTerminal(env: Record<string, string | undefined> = process.env): ReplTerminal {
  if (current) return current;
  const input = process.stdin;
  const output = process.stdout;
  const isTerminal = Boolean(input.isTTY && output.isTTY);
  const color = isTerminal && !env.NO_COLOR && output.hasColors();
  const prompt = isTerminal ? { input, output, router: new KeypressRouter(input) } : null;
  current = { input, output, isTerminal, color, prompt };
  return current;
}
