/**
 * `scratchlab record <projectId> --db <file>`: records a project's cloud activity into a DuckDB
 * file until Ctrl-C, with a one-line live status. Loaded by `src/cli.ts` only when asked for.
 */
import { parseArgs } from 'node:util';
import { Cloud } from '../cloud/cloud.js';
import type { CloudRecorder } from '../data/cloud-recorder.js';
import { openStore } from '../data/store.js';
import { openWorkbench, type Workbench } from '../workbench/index.js';

const HELP = `Usage: scratchlab record <projectId> --db <file> [options]

Records a project's cloud activity (live sets, and the log's entries where the host has a log)
into a DuckDB file, table cloud_activity, until Ctrl-C. Started again on the same file, it goes
on from the last stored log entry: nothing twice, and what the log still holds of the gap is filled.

Options:
  --db FILE         the DuckDB file (created when missing)              [required]
  --sandbox         record on the embedded sandbox (started in this process)
  --host URL        another cloud server's WebSocket URL (e.g. wss://clouddata.turbowarp.org)
  --logs URL        the base URL of that server's /logs endpoint, if it has one
  --contact TEXT    how to reach you, sent in the User-Agent (required by the alternate server)
  --table NAME      the table (default cloud_activity)
  --interval S      seconds between two reads of the log (default 2)
  -h, --help        show this help

On the real site the saved session is used (or SCRATCH_USERNAME and SCRATCH_PASSWORD):
its cloud server takes logged-in connections only.
`;

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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out.write(HELP);
    return;
  }
  const projectId = positionals[0];
  if (projectId === undefined || positionals.length > 1)
    throw new TypeError(`record takes one project id\n\n${HELP}`);
  if (values.db === undefined) throw new TypeError(`record needs --db <file>\n\n${HELP}`);
  const interval = values.interval === undefined ? undefined : Number(values.interval);
  if (interval !== undefined && !(interval > 0))
    throw new RangeError(`--interval must be a number of seconds above 0, got ${values.interval}`);

  let workbench: Workbench | null = null;
  let cloud: Cloud;
  if (values.host !== undefined) {
    cloud =
      values.contact !== undefined
        ? Cloud.alternate(projectId, {
            host: values.host,
            logsHost: values.logs,
            purpose: 'recording cloud history',
            contact: values.contact,
          })
        : new Cloud({ projectId, host: values.host, logsHost: values.logs });
  } else {
    workbench = await openWorkbench({ sandbox: values.sandbox === true });
    cloud = workbench.session.cloud(projectId);
  }

  const store = await openStore(values.db);
  let recorder: CloudRecorder;
  try {
    recorder = await store.recordCloud(cloud, { table: values.table, interval });
  } catch (error) {
    await store.close();
    await workbench?.close();
    throw error;
  }
  const where = `project ${cloud.projectId} on ${cloud.host}${recorder.counts.logs ? ' (with its log)' : ''}`;
  out.write(`recording ${where} into ${values.db}; Ctrl-C stops\n`);

  let lastPlain = 0;
  let trailing: ReturnType<typeof setTimeout> | null = null;
  const status = (final = false) => {
    if (out.isTTY) {
      out.write(`\r\x1b[K${recorder}${final ? '\n' : ''}`);
      return;
    }
    // Not a terminal: a line at most every second, the latest one always printed in the end.
    const wait = lastPlain + PLAIN_STATUS_MS - Date.now();
    if (final || wait <= 0) {
      if (trailing !== null) clearTimeout(trailing);
      trailing = null;
      lastPlain = Date.now();
      out.write(`${recorder}\n`);
    } else {
      trailing ??= setTimeout(() => {
        trailing = null;
        status();
      }, wait);
    }
  };
  recorder.on('update', () => status());
  recorder.on('error', (error) => {
    if (out.isTTY) out.write('\r\x1b[K');
    out.write(`error: ${error.message}\n`);
  });
  status();

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await recorder.stop();
  await store.close();
  await cloud.disconnect();
  await workbench?.close();
  status(true);
  out.write(`stopped: everything received is stored in ${values.db}\n`);
}
