/**
 * One recorder per project, table and store (file, or in-memory database) at a time, across
 * processes: two would each store the live sets, and each read the log into the same rows. A
 * recorder claims its project by listening on a Unix socket in Linux's abstract namespace, named
 * after the file's real path (or which in-memory database), the table and the project: the kernel lets one socket have a name, frees it the moment its process
 * dies (no file to clean up, no staleness to guess), and keeps it while the process lives, stopped
 * or not. A second recorder finds the name taken, connects, and learns who holds it; it then fails
 * with a {@link RecorderBusyError}. Abstract sockets are Linux's: elsewhere no claim is made.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import { basename } from 'node:path';
import { processInfo, shownCommand } from './shared-file.js';

/** Thrown by `recordCloud()` when the project is already recorded into the table of that file. */
export class RecorderBusyError extends Error {
  /** The process that records it, when it answered. */
  readonly pid: number | undefined;
  constructor(message: string, pid: number | undefined) {
    super(message);
    this.name = 'RecorderBusyError';
    this.pid = pid;
  }
}

/** A recorder's claim on its project: released when it stops. */
export interface RecorderClaim {
  release(): Promise<void>;
}

/** Longest wait for the holder's answer (who it is), in ms. */
const ASK_MS = 2000;

/**
 * Claims `project` of `table` in `database` (a file's real path, or which in-memory store); fails
 * with a RecorderBusyError when another recorder has it.
 */
export async function claimRecording(
  database: string,
  table: string,
  project: string,
): Promise<RecorderClaim> {
  if (process.platform !== 'linux') return { release: async () => undefined };
  const digest = createHash('sha256').update(`${database}\0${table}\0${project}`).digest('hex').slice(0, 32);
  const name = `\0scratchlab-recorder-${digest}`;
  const who = JSON.stringify({
    pid: process.pid,
    command: process.argv
      .slice(1, 3)
      .map((a) => basename(a))
      .join(' '),
  });
  const server = createServer((socket) => {
    // The asker may be gone before the answer (it waits 2 s, and this process may have been
    // stopped for longer): a write to it fails, and must not end the recording.
    socket.on('error', () => undefined);
    socket.end(who);
  });
  // Accepted connections must not keep the process alive, nor the server itself.
  server.unref();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(name, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    // A holder that does not answer (stopped with Ctrl-Z) is found in /proc, where this user may look.
    const holder =
      (await ask(name)) ??
      (await listenerOf(name).then((pid) => (pid === undefined ? undefined : processInfo(pid))));
    const by = holder
      ? `process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}${
          'state' in holder && holder.state === 'stopped'
            ? `, which is stopped (Ctrl-Z or SIGSTOP): \`kill -CONT ${holder.pid}\` or \`fg\` in its terminal`
            : ''
        }`
      : 'another process';
    throw new RecorderBusyError(
      `project ${project} is already being recorded into table "${table}" of ${database} by ${by}: ` +
        'one recorder per project and file; stop that one, or record into another table or file',
      holder?.pid,
    );
  }
  return { release: () => close(server) };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * The process listening on the abstract socket `name`, from Linux's table of Unix sockets and the
 * processes' open files (those this user may read), or undefined.
 */
async function listenerOf(name: string): Promise<number | undefined> {
  const table = await readFile('/proc/net/unix', 'utf8').catch(() => '');
  // Columns: Num RefCount Protocol Flags Type St Inode Path; a listener's flags are 00010000, and
  // the name is shown with '@' for its NUL bytes (the first, and the padding after it).
  const shown = `@${name.slice(1)}`;
  const inode = table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((columns) => columns[3] === '00010000' && columns[7]?.replace(/@+$/, '') === shown)?.[6];
  if (inode === undefined) return undefined;
  const socket = `socket:[${inode}]`;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const fds = await readdir(`/proc/${entry}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      if ((await readlink(`/proc/${entry}/fd/${fd}`).catch(() => '')) === socket) return Number(entry);
    }
  }
  return undefined;
}

/** Asks the holder of `name` who it is (its pid and command), or undefined when it does not answer. */
function ask(name: string): Promise<{ pid: number; command?: string } | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const socket = createConnection(name);
    const timer = setTimeout(() => socket.destroy(), ASK_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        const value = JSON.parse(text) as { pid?: unknown; command?: unknown };
        resolve(
          typeof value.pid === 'number'
            ? {
                pid: value.pid,
                command: typeof value.command === 'string' ? shownCommand(value.command) : undefined,
              }
            : undefined,
        );
      } catch {
        resolve(undefined);
      }
    });
  });
}
