/**
 * Private PostgreSQL and MariaDB servers for tests: each one gets a fresh data directory under
 * the system temp folder, listens on a free loopback port only, and is stopped (and its folder
 * deleted) by `stop()`. Nothing here touches a server the machine may already run.
 *
 * The binaries come from Debian's `postgresql` and `mariadb-server` packages, found through the
 * table of the suite's tools (./tools.tsv; test/support/install-db-servers.sh installs them when
 * missing).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import mariadb from 'mariadb';
import pg from 'pg';
import { isExecutable, toolPath, toolPaths, toolRow } from './tools.js';

/** How to reach a running test server, and how to stop it. */
export interface TestServer {
  host: string;
  port: number;
  user: string;
  password: string;
  /** A database that exists and is empty when the server starts. */
  database: string;
  /** Stops the server and deletes its files. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const START_TIMEOUT = 30_000;
const INSTALL_HINT =
  'run `bash test/support/install-db-servers.sh`, or `apt-get install -y --no-install-recommends';

// If the test process ends without stop() (a crash, a timeout), the servers go with it.
const running = new Map<ChildProcess, string>();
process.once('exit', () => {
  for (const [proc, dir] of running) {
    proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Starts a PostgreSQL server (user `postgres`, no password, database `postgres`).
 * As root it runs as the `postgres` user, since PostgreSQL refuses to run as root.
 */
export async function startPostgres(): Promise<TestServer> {
  const bin = postgresBinDir();
  const owner = process.getuid?.() === 0 ? systemUser('postgres') : undefined;
  const dir = await mkdtemp(join(tmpdir(), 'scratchlab-pg-'));
  const data = join(dir, 'data');
  try {
    if (owner) await chown(dir, owner.uid, owner.gid);
    const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };
    await run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      { env, ...owner },
    );
    const port = await freePort();
    // Durability is of no use to a throw-away server: skip every flush.
    const args = ['-D', data, '-k', dir, '-p', String(port), '-c', `listen_addresses=${HOST}`];
    for (const setting of [
      'fsync=off',
      'synchronous_commit=off',
      'full_page_writes=off',
      'max_connections=40',
    ]) {
      args.push('-c', setting);
    }
    const proc = spawn(join(bin, 'postgres'), args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...owner });
    const server = { host: HOST, port, user: 'postgres', password: '', database: 'postgres' };
    await serve(proc, dir, 'PostgreSQL', 'SIGINT', async () => {
      const client = new pg.Client(server);
      await client.connect();
      await client.end();
    });
    return { ...server, stop: () => stopServer(proc, dir, 'SIGINT') };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Starts a MariaDB server (user `root`, no password, an empty database `scratchlab_test`). */
export async function startMariaDb(): Promise<TestServer> {
  const server = toolPath('mariadbd');
  const install = toolPath('mariadb-install-db');
  if (!isExecutable(server) || !isExecutable(install)) {
    throw new Error(
      `MariaDB server not found (mariadbd, mariadb-install-db): ${INSTALL_HINT} mariadb-server\``,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'scratchlab-mariadb-'));
  const data = join(dir, 'data');
  try {
    await mkdir(data);
    const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
    // Small logs and buffers: the server holds a few test tables.
    const small = ['--innodb-buffer-pool-size=16M', '--innodb-log-file-size=8M', '--skip-name-resolve'];
    await run(install, [
      '--no-defaults',
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      ...asRoot,
      ...small,
    ]);
    const port = await freePort();
    const proc = spawn(
      server,
      [
        '--no-defaults',
        `--datadir=${data}`,
        `--socket=${join(dir, 'mysqld.sock')}`,
        `--pid-file=${join(dir, 'mysqld.pid')}`,
        `--tmpdir=${dir}`,
        `--port=${port}`,
        `--bind-address=${HOST}`,
        '--skip-log-bin',
        '--innodb-flush-log-at-trx-commit=0',
        '--max-allowed-packet=64M',
        ...asRoot,
        ...small,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const access = { host: HOST, port, user: 'root', password: '' };
    await serve(proc, dir, 'MariaDB', 'SIGTERM', async () => {
      const conn = await mariadb.createConnection({ ...access, connectTimeout: 1_000 });
      try {
        await conn.query('CREATE DATABASE IF NOT EXISTS scratchlab_test CHARACTER SET utf8mb4');
      } finally {
        await conn.end();
      }
    });
    return { ...access, database: 'scratchlab_test', stop: () => stopServer(proc, dir, 'SIGTERM') };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The newest PostgreSQL version's `bin` folder holding both the server and initdb (./tools.tsv). */
function postgresBinDir(): string {
  const servers = toolPaths(toolRow('postgres')).map((path) => dirname(path));
  const bin = servers.find((dir) => toolPaths(toolRow('initdb')).includes(join(dir, 'initdb')));
  if (!bin) throw new Error(`PostgreSQL server not found (initdb, postgres): ${INSTALL_HINT} postgresql\``);
  return bin;
}

function systemUser(name: string): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync(toolPath('id'), ['-u', name], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync(toolPath('id'), ['-g', name], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(
      `PostgreSQL refuses to run as root and there is no '${name}' user to run it as ` +
        '(the postgresql package creates it)',
    );
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs a set-up command to its end; a failure carries its output. */
function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    proc.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    proc.once('error', reject);
    proc.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} failed (exit ${code}):\n${output.slice(-4_000)}`));
    });
  });
}

/** Waits until `ready` succeeds against the started server, or fails with the server's log. */
async function serve(
  proc: ChildProcess,
  dir: string,
  label: string,
  stopSignal: NodeJS.Signals,
  ready: () => Promise<void>,
): Promise<void> {
  running.set(proc, dir);
  // The log must be read, or a chatty server blocks on a full pipe; the tail is kept for errors.
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  let exited = false;
  proc.once('exit', () => {
    exited = true;
  });
  const started = Date.now();
  for (;;) {
    if (exited) throw new Error(`${label} exited while starting:\n${log}`);
    try {
      await ready();
      return;
    } catch (error) {
      if (Date.now() - started > START_TIMEOUT) {
        await stopServer(proc, dir, stopSignal);
        throw new Error(`${label} did not accept connections within ${START_TIMEOUT} ms (${error}):\n${log}`);
      }
      await new Promise((done) => setTimeout(done, 100));
    }
  }
}

async function stopServer(proc: ChildProcess, dir: string, signal: NodeJS.Signals): Promise<void> {
  if (proc.exitCode === null && proc.signalCode === null) {
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  running.delete(proc);
  await rm(dir, { recursive: true, force: true });
}
