/**
 * `scratchlab record <projectId>… --db <file>`: records the cloud activity of one or more projects
 * (one connection each, one table, told apart by its `project` column) into a DuckDB file until
 * Ctrl-C, with a one-line live status. Other processes query and load the same file meanwhile.
 * Loaded by `src/cli.ts` only when asked for.
 */
import { parseArgs } from 'node:util';
import { Cloud } from '../cloud/cloud.js';
import type { CloudRecorder } from '../data/cloud-recorder.js';
import { openStore } from '../data/store.js';
import { openWorkbench, type Workbench } from '../workbench/index.js';

const HELP = `Usage: scratchlab record <projectId>... --db <file> [options]

Records the cloud activity of one or more projects (live sets, and the log's entries where the
host has a log) into a DuckDB file, table cloud_activity (a row per change, its project in the
project column), until Ctrl-C. Started again on the same file, it goes on from the last stored
log entry: nothing twice, and what the log still holds of the gap is filled. Notebooks, the REPL
and scripts query and load the same file while it records: sets are written at least every second.

Options:
  --db FILE         the DuckDB file (created when missing)              [required]
  --sandbox         record on the embedded sandbox (started in this process)
  --host URL        another cloud server's WebSocket URL (e.g. wss://clouddata.turbowarp.org)
  --logs URL        the base URL of that server's /logs endpoint, if it has one
  --contact TEXT    how to reach you, sent in the User-Agent (required by the alternate server)
  --table NAME      the table (default cloud_activity)
  --interval S      seconds between two reads of the log (default 2)
  --wait S          seconds a write waits for the file while other processes use it (default 30)
  --buffer N        most received sets waiting for the file, per project (default 100000);
                    past it the oldest are dropped, counted, and the command exits with 1
  -h, --help        show this help

On the real site the saved session is used (or SCRATCH_USERNAME and SCRATCH_PASSWORD):
its cloud server takes logged-in connections only.
`;

/** Most projects one process records (a connection each). */
const MAX_PROJECTS = 50;

interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** Least time between two status lines when the output is not a terminal (a log file, a pipe). */
const PLAIN_STATUS_MS = 1000;

/** Runs the recorder until SIGINT or SIGTERM; resolves once everything is stored and closed. */
export async function main(args: string[], out: Output = process.stdout): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      sandbox: { type: 'boolean' },
      host: { type: 'string' },
      logs: { type: 'string' },
      contact: { type: 'string' },
      table: { type: 'string' },
      interval: { type: 'string' },
      wait: { type: 'string' },
      buffer: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out.write(HELP);
    return;
  }
  if (positionals.length === 0) throw new TypeError(`record takes one or more project ids\n\n${HELP}`);
  const projectIds = [...new Set(positionals)];
  if (projectIds.length > MAX_PROJECTS)
    throw new RangeError(`record takes at most ${MAX_PROJECTS} project ids, got ${projectIds.length}`);
  if (values.db === undefined) throw new TypeError(`record needs --db <file>\n\n${HELP}`);
  const interval = values.interval === undefined ? undefined : Number(values.interval);
  if (interval !== undefined && !(interval > 0))
    throw new RangeError(`--interval must be a number of seconds above 0, got ${values.interval}`);

  const wait = values.wait === undefined ? undefined : Number(values.wait);
  if (wait !== undefined && !(wait > 0))
    throw new RangeError(`--wait must be a number of seconds above 0, got ${values.wait}`);

  const buffer = values.buffer === undefined ? undefined : Number(values.buffer);
  if (buffer !== undefined && !(Number.isSafeInteger(buffer) && buffer >= 1))
    throw new RangeError(`--buffer must be a whole number of sets above 0, got ${values.buffer}`);

  let workbench: Workbench | null = null;
  let clouds: Cloud[];
  if (values.host !== undefined) {
    const { host, logs: logsHost, contact } = values;
    clouds = projectIds.map((projectId) =>
      contact !== undefined
        ? Cloud.alternate(projectId, { host, logsHost, purpose: 'recording cloud history', contact })
        : new Cloud({ projectId, host, logsHost }),
    );
  } else {
    workbench = await openWorkbench({ sandbox: values.sandbox === true });
    const { session } = workbench;
    clouds = projectIds.map((projectId) => session.cloud(projectId));
  }
  const disconnect = async () => {
    await Promise.all(clouds.map((cloud) => cloud.disconnect()));
    await workbench?.close();
  };

  const store = await openStore(values.db, { wait });
  const recorders: CloudRecorder[] = [];
  try {
    for (const cloud of clouds)
      recorders.push(await store.recordCloud(cloud, { table: values.table, interval, buffer }));
  } catch (error) {
    await store.close();
    await disconnect();
    throw error;
  }
  for (const recorder of recorders) {
    const cloud = clouds[recorders.indexOf(recorder)]!;
    out.write(
      `recording project ${cloud.projectId} on ${cloud.host}${recorder.counts.logs ? ' (with its log)' : ''} into ${values.db}\n`,
    );
  }
  out.write('Ctrl-C stops\n');

  const line = () =>
    recorders.length === 1
      ? String(recorders[0])
      : recorders.map((recorder) => `${recorder.projectId}: ${recorder}`).join(' | ');
  let lastPlain = 0;
  let shown = '';
  let trailing: ReturnType<typeof setTimeout> | null = null;
  const status = (final = false) => {
    shown = line();
    if (out.isTTY) {
      out.write(`\r\x1b[K${line()}${final ? '\n' : ''}`);
      return;
    }
    // Not a terminal: a line at most every second, the latest one always printed in the end.
    const wait = lastPlain + PLAIN_STATUS_MS - Date.now();
    if (final || wait <= 0) {
      if (trailing !== null) clearTimeout(trailing);
      trailing = null;
      lastPlain = Date.now();
      out.write(`${line()}\n`);
    } else {
      trailing ??= setTimeout(() => {
        trailing = null;
        status();
      }, wait);
    }
  };
  let lastError: Error | null = null;
  for (const recorder of recorders) {
    recorder.on('update', () => status());
    recorder.on('error', (error) => {
      lastError = error;
      if (out.isTTY) out.write('\r\x1b[K');
      out.write(`error (${recorder.projectId}): ${error.message}\n`);
    });
  }
  status();
  // Sets received (and dropped) while the file is busy store nothing: the line follows them anyway.
  const refresh = setInterval(() => {
    if (line() !== shown) status();
  }, PLAIN_STATUS_MS);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  clearInterval(refresh);
  const unstoredNow = () => recorders.reduce((sum, recorder) => sum + recorder.pending + recorder.dropped, 0);
  const dropped = () => recorders.reduce((sum, recorder) => sum + recorder.dropped, 0);
  /** The last line when sets were not stored: how many, dropped or left unwritten, and why. */
  const lostLine = (unstored: number, why: string) => {
    const parts = [
      dropped() > 0 ? `${dropped()} dropped while the file stayed busy` : '',
      unstored - dropped() > 0 ? `${unstored - dropped()} left unwritten` : '',
    ].filter((part) => part !== '');
    return `stopped: ${unstored} received sets could NOT be stored in ${values.db}: ${parts.join(', ')} (${why})\n`;
  };
  // The last writes may wait for a busy file (each up to --wait, three tries): a second Ctrl-C
  // abandons them, and still says what was lost (a write under way is stored whole or not at all).
  const abandon = () => {
    if (out.isTTY) out.write('\r\x1b[K');
    out.write(lostLine(unstoredNow(), 'abandoned by a second Ctrl-C'));
    process.exit(1);
  };
  process.once('SIGINT', abandon);
  process.once('SIGTERM', abandon);
  if (recorders.some((recorder) => recorder.pending > 0)) {
    if (out.isTTY) out.write('\r\x1b[K');
    out.write(
      `stopping: storing ${recorders.reduce((sum, r) => sum + r.pending, 0)} received sets (Ctrl-C again abandons them)\n`,
    );
  }
  // close() stops the recorders, each writing what it received first, and counts what it could not.
  const unstored = await store.close();
  process.off('SIGINT', abandon);
  process.off('SIGTERM', abandon);
  await disconnect();
  status(true);
  if (unstored === 0) {
    out.write(`stopped: everything received is stored in ${values.db}\n`);
    return;
  }
  const reason = (lastError as Error | null)?.message ?? 'the store could not be written';
  process.exitCode = 1;
  out.write(lostLine(unstored, `last error: ${reason}`));
}
