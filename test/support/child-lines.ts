/** A child process of a test whose output lines are kept, with a wait for a line that passes a check. */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

export interface LinesChild {
  proc: ChildProcess;
  /** Lines of its stdout so far (a `\r` ends a line too). */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits for a line that passes `check` (a safety bound, not an assertion). */
  until(check: (line: string) => boolean, limitMs?: number): Promise<void>;
  stderr(): string;
}

/** Runs `node args…` with its output kept as lines (`options`: another folder or user). */
export function startChild(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  options: Pick<SpawnOptions, 'cwd' | 'uid' | 'gid'> = {},
): LinesChild {
  const proc = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], env });
  const lines: string[] = [];
  let stderr = '';
  let rest = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    rest += chunk.toString();
    const parts = rest.split(/\r?\n|\r/);
    rest = parts.pop()!;
    lines.push(...parts);
  });
  proc.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const until = async (check: (line: string) => boolean, limitMs = 30_000) => {
    const deadline = Date.now() + limitMs;
    while (!lines.some(check)) {
      if (Date.now() > deadline)
        throw new Error(`timed out; output: ${lines.slice(-5).join(' / ')}; stderr: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { proc, lines, exited, until, stderr: () => stderr };
}
