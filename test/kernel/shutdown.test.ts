// A kernel shut down while a live chart and a cloud bot run, as a front end does it
// (shutdown_request on the control channel, through jupyter_client): nothing but the request's own
// status after it, the process gone by itself, and its cloud connections closed with a close frame
// (seen by a sandbox in this process, so they outlive the kernel), none left open. And a shutdown
// while a cell still awaits: its value and `idle`, which come after the request's `idle`, go to the
// kernel's log, not to iopub.
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import type { Duplex, Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { useSandbox } from '../support/sandbox.js';
import { drive, hasJupyter, installKernels, type JupyterHome, jupyterHome } from './jupyter.js';

/** ws's frame parser (exported by ws, not declared by @types/ws). */
const { Receiver } = ws as unknown as {
  Receiver: new (options: {
    isServer: boolean;
  }) => Writable & {
    on(event: 'conclude', fn: (code: number) => void): unknown;
  };
};

/** One cloud WebSocket the sandbox accepted: the close code its client sent, if any, and whether it is open. */
interface SeenSocket {
  closeCode: number | null;
  open: boolean;
}

/** Watches the cloud WebSockets of `server` from the side: the frames their clients send, and their ends. */
function watchCloudSockets(server: {
  on(event: 'upgrade', fn: (req: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown;
}): SeenSocket[] {
  const seen: SeenSocket[] = [];
  server.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/clouddata')) return;
    const entry: SeenSocket = { closeCode: null, open: true };
    seen.push(entry);
    // ws's own frame parser reads the client's frames (masked, as a server receives them).
    const receiver = new Receiver({ isServer: true });
    receiver.on('conclude', (code: number) => {
      entry.closeCode = code;
    });
    receiver.on('error', () => {});
    if (head.length > 0) receiver.write(Buffer.from(head));
    // First and on a copy: the server's own parser unmasks the frames in place.
    socket.prependListener('data', (chunk: Buffer) => receiver.write(Buffer.from(chunk)));
    socket.on('close', () => {
      entry.open = false;
    });
  });
  return seen;
}

describe.skipIf(!hasJupyter)('kernel shutdown', () => {
  const fixture = useSandbox();
  let home: JupyterHome;

  beforeAll(async () => {
    home = jupyterHome('shutdown');
    await installKernels(home);
  });

  it('ends the live chart and the bot cleanly: no output after the request, every cloud socket closed', {
    timeout: 120_000,
  }, async () => {
    const { sandbox } = fixture;
    const sockets = watchCloudSockets(sandbox.server);
    const account = sandbox.accounts[0]!;
    const results = await drive(home, 'scratchlab', join(home.dir, 'cwd'), [
      {
        execute: [
          `const s = await Session.login(${JSON.stringify(account.username)}, ${JSON.stringify(account.password)}, { hosts: ${JSON.stringify(sandbox.hosts)} });`,
          `const watched = s.cloud(${sandbox.cloudProjectId});`,
          `const bot = s.cloud(${sandbox.cloudProjectId});`,
          'let n = 0;',
          // Never stopped, and its failures never caught: the shutdown must still be quiet.
          "const botTimer = setInterval(() => void bot.setVar('score', ++n), 100);",
          "const chart = live(watched, { variables: ['score'], window: 10 });",
        ].join('\n'),
      },
      {
        // The chart has recorded a few of the bot's sets (waited for, up to 30 s).
        execute: [
          "const scores = () => chart.data.filter((p) => p.name === 'score').length;",
          'for (let i = 0; i < 600 && scores() <= 3; i++) await new Promise((r) => setTimeout(r, 50));',
          'scores() > 3',
        ].join('\n'),
      },
      { shutdown: true },
    ]);
    expect(results[0]!.error).toBeUndefined();
    expect(results[1]!.iopub.find((m) => m.type === 'execute_result')?.content.data).toEqual({
      'text/plain': 'true',
    });
    // The two connections of the first cell (the bot's timer may dial once more while the
    // kernel closes: such a socket comes after them and ends with the process).
    expect(sockets.length).toBeGreaterThanOrEqual(2);

    const shutdown = results[2]!;
    expect(shutdown.reply).toMatchObject({ status: 'ok', restart: false });
    expect(shutdown.exited, 'the kernel process ended by itself, before Jupyter would kill it').toBe(true);
    expect(shutdown.exit_code).toBe(0);
    // After the request: its busy and idle, nothing else (no error, no stream, no last chart).
    // A redraw the kernel sent before it read the request may still be on its way (its parent is
    // the cell's request): what counts is everything from the request's own busy status on.
    const iopub = shutdown.iopub.map((m) => `${m.parent} ${m.type}`);
    expect(
      iopub.slice(0, iopub.indexOf('shutdown_request status')).every((m) => m.startsWith('execute_request ')),
    ).toBe(true);
    expect(iopub.slice(iopub.indexOf('shutdown_request status'))).toEqual([
      'shutdown_request status',
      'shutdown_request status',
    ]);
    // Both connections said goodbye before the process ended, and none is left open.
    expect(sockets.slice(0, 2).map((s) => s.closeCode)).toEqual([1000, 1000]);
    expect(sockets.filter((s) => s.open)).toEqual([]);
  });

  it('publishes nothing after its idle while a cell still runs: the late output goes to the log', {
    timeout: 120_000,
  }, async () => {
    const { sandbox } = fixture;
    const account = sandbox.accounts[0]!;
    const log = join(home.dir, 'late-output.log');
    const results = await drive(
      home,
      'scratchlab',
      join(home.dir, 'cwd'),
      [
        {
          // It resumes while the shutdown closes its cloud connection: after the request's idle.
          shutdown_during: [
            `const s = await Session.login(${JSON.stringify(account.username)}, ${JSON.stringify(account.password)}, { hosts: ${JSON.stringify(sandbox.hosts)} });`,
            `const cloud = s.cloud(${sandbox.cloudProjectId});`,
            'await cloud.connect();',
            "const ended = new Promise((resolve) => cloud.once('disconnect', resolve));",
            "console.log('started');",
            'await ended;',
            "console.log('late text');",
            "'late result'",
          ].join('\n'),
        },
      ],
      60,
      log,
    );
    const shutdown = results[0]!;
    expect(shutdown.reply).toMatchObject({ status: 'ok', restart: false });
    expect(shutdown.exited, 'the kernel process ended by itself, before Jupyter would kill it').toBe(true);
    expect(shutdown.exit_code).toBe(0);
    expect(shutdown.iopub.map((m) => `${m.parent} ${m.type}`)).toEqual([
      'execute_request status',
      'execute_request execute_input',
      'execute_request stream',
      'shutdown_request status',
      'shutdown_request status',
    ]);
    expect(shutdown.iopub[2]!.content).toEqual({ name: 'stdout', text: 'started\n' });
    const written = readFileSync(log, 'utf8');
    expect(written).toContain('late text');
    expect(written).toMatch(/after the shutdown, not sent: execute_result of execute_request: 'late result'/);
    expect(written).toMatch(/after the shutdown, not sent: status of execute_request: idle/);
  });
});
