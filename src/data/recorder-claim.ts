/**
 * One recorder per project, table and store file at a time, across processes: two would each
 * store the live sets, and each read the log into the same rows. A recorder claims its project by
 * listening on a Unix socket in Linux's abstract namespace, named after the file's real path, the
 * table and the project: the kernel lets one socket have a name, frees it the moment its process
 * dies (no file to clean up, no staleness to guess), and keeps it while the process lives, stopped
 * or not. A second recorder finds the name taken, connects, and learns who holds it; it then fails
 * with a {@link RecorderBusyError}. Abstract sockets are Linux's: elsewhere no claim is made.
 */
import { createHash } from 'node:crypto';
import { createConnection, createServer, type Server } from 'node:net';
import { basename } from 'node:path';

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

/** Claims `project` of `table` in the file `realPath`; fails with a RecorderBusyError when another recorder has it. */
export async function claimRecording(
  realPath: string,
  table: string,
  project: string,
): Promise<RecorderClaim> {
  if (process.platform !== 'linux') return { release: async () => undefined };
  const digest = createHash('sha256').update(`${realPath}\0${table}\0${project}`).digest('hex').slice(0, 32);
  const name = `\0scratchlab-recorder-${digest}`;
  const who = JSON.stringify({
    pid: process.pid,
    command: process.argv
      .slice(1, 3)
      .map((a) => basename(a))
      .join(' '),
  });
  const server = createServer((socket) => socket.end(who));
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
    const holder = await ask(name);
    const by = holder
      ? `process ${holder.pid}${holder.command ? ` (${holder.command})` : ''}`
      : 'another process';
    throw new RecorderBusyError(
      `project ${project} is already being recorded into table "${table}" of ${realPath} by ${by}: ` +
        'one recorder per project and file; stop that one, or record into another table or file',
      holder?.pid,
    );
  }
  return { release: () => close(server) };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
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
            ? { pid: value.pid, command: typeof value.command === 'string' ? value.command : undefined }
            : undefined,
        );
      } catch {
        resolve(undefined);
      }
    });
  });
}
