#!/usr/bin/env node
/**
 * The `scratchlab` command. `sandbox` lives here; `repl` and `kernel` live in their own folders
 * (`repl/`, `kernel/`, built to `dist/repl`, `dist/kernel`) and are loaded only when asked for,
 * so `scratchlab sandbox` never pays for the REPL's or the kernel's dependencies.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const HELP = `Usage: scratchlab <command> [options]

Commands:
  repl [--sandbox]   A TypeScript REPL with a logged-in session (--sandbox: on the embedded sandbox)
  kernel install     Install the Jupyter kernels (scratchlab, scratchlab-sandbox) [--user | --prefix DIR]
  record <projectId> --db FILE
                     Record a project's cloud activity into a DuckDB file until Ctrl-C
                     (--sandbox, --host URL, --logs URL, --contact TEXT; record --help)
  sandbox            Run the embedded sandbox platform and print its hosts and demo logins
      --port N         port to listen on (default: a free port)
      --host ADDR      address to bind (default 127.0.0.1)
      --latency MS     delay added to every answer (default 0)
      --seed N         seed of the generated data (default 1)
      --rate-limit N   the platform's HTTP limit: N requests a second per address, 429 beyond
      --no-retry-after send the 429s without Retry-After
      --block          answer every request with an HTML 403 page, as to a blocked address
  help               Show this help (also --help, -h)
  version            Show the version (also --version, -v)
`;

/** The package's version, from its package.json (one level above `dist/`). */
function version(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return String((JSON.parse(text) as { version?: unknown }).version ?? 'unknown');
}

async function sandbox(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      help: { type: 'boolean', short: 'h' },
      port: { type: 'string' },
      host: { type: 'string' },
      latency: { type: 'string' },
      seed: { type: 'string' },
      'rate-limit': { type: 'string' },
      'no-retry-after': { type: 'boolean' },
      block: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const number = (name: string, text: string | undefined) => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`--${name} must be a whole number, got ${text}`);
    return value;
  };
  const { startSandbox } = await import('./sandbox/index.js');
  const sandbox = await startSandbox({
    port: number('port', values.port),
    host: values.host,
    latency: number('latency', values.latency),
    seed: number('seed', values.seed),
    rateLimit: rateLimit(values['rate-limit'], values['no-retry-after']),
    block: values.block,
  });
  const limit = sandbox.traffic.rateLimit;
  const lines = [
    `scratchlab sandbox listening on ${sandbox.url}`,
    ...(limit ? [`rate limit: ${limit.perSecond} requests a second per address (burst ${limit.burst})`] : []),
    ...(sandbox.traffic.block ? ['blocking: every request answers an HTML 403 page'] : []),
    '',
    'hosts (pass to new Session({ hosts })):',
    ...Object.entries(sandbox.hosts).map(([role, url]) => `  ${role.padEnd(10)}${url}`),
    '',
    'demo logins:',
    ...sandbox.accounts.map((a) => `  ${a.username.padEnd(16)}${a.password}`),
    '',
    'Press Ctrl-C to stop.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The `rateLimit` option of `--rate-limit N` (any positive number of requests a second). */
function rateLimit(text: string | undefined, noRetryAfter: boolean | undefined) {
  if (text === undefined) {
    if (noRetryAfter) throw new TypeError('--no-retry-after needs --rate-limit N');
    return undefined;
  }
  const perSecond = Number(text);
  if (!(perSecond > 0))
    throw new RangeError(`--rate-limit must be a number of requests a second > 0, got ${text}`);
  return { perSecond, retryAfter: !noRetryAfter };
}

/** A subcommand built from a sibling folder: `dist/<name>/cli.js` exports `main(args)`. */
async function sibling(name: 'repl' | 'kernel', args: string[]): Promise<void> {
  const module = (await import(new URL(`./${name}/cli.js`, import.meta.url).href)) as {
    main(args: string[]): Promise<void>;
  };
  await module.main(args);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'sandbox':
      return sandbox(rest);
    case 'repl':
    case 'kernel':
      return sibling(command, rest);
    case 'record': {
      const { main: record } = await import('./commands/record-command.js');
      return record(rest);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP);
      return;
    case 'version':
    case '--version':
    case '-v':
      process.stdout.write(`scratchlab ${version()}\n`);
      return;
    default:
      process.stderr.write(`scratchlab: unknown command ${JSON.stringify(command)}\n\n${HELP}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`scratchlab: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
