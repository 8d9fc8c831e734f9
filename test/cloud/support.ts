/**
 * Helpers of the cloud tests: a bounded wait for a condition, raw `ws` sockets for the wire-level
 * checks, and a standalone cloud server on a plain `node:http` server (for a controlled clock).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import {
  attachCloudServer,
  type CloudServer,
  type CloudServerOptions,
  CloudState,
} from '../../src/sandbox/cloud/index.js';

/**
 * Waits until `check()` (or what it resolves to) is truthy, asking again `everyMs` after each
 * answer; fails (with `what`) if it never is. The bound is a safety net, not an assertion.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  what: string,
  limitMs = 15_000,
  everyMs = 5,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** How many connections a server holds now (upgraded sockets included, until they close). */
export function connectionsOf(server: Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

/** A User-Agent the alternate endpoint accepts. */
export const BOT_AGENT = 'scratchlab-tests/1.0 (Purpose: tests; Contact: @tester)';

/** A raw WebSocket that records every frame and its close. */
export class RawSocket {
  readonly ws: WebSocket;
  readonly frames: string[] = [];
  /** Frames that came as binary frames (the wire is text: a browser could not read them). */
  binaryFrames = 0;
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;
  closeInfo: { code: number; reason: string } | null = null;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers, perMessageDeflate: false });
    this.ws.on('message', (data, isBinary) => {
      this.frames.push(data.toString());
      if (isBinary) this.binaryFrames++;
    });
    this.ws.on('error', () => undefined);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        resolve(this.closeInfo);
      });
    });
  }

  /** Sends a message object as one line, or raw text as is. */
  send(message: object | string): void {
    this.ws.send(typeof message === 'string' ? message : `${JSON.stringify(message)}\n`);
  }

  /** Every `set` line received so far, as `name=value`. */
  sets(): string[] {
    return this.frames
      .flatMap((frame) => frame.split('\n'))
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { name: string; value: string | number })
      .map((m) => `${m.name}=${m.value}`);
  }

  /** Waits for the `n`th frame (1-based). */
  frame(n: number): Promise<string> {
    return waitFor(() => this.frames.length >= n, `frame ${n}`).then(() => this.frames[n - 1]!);
  }

  async close(): Promise<void> {
    if (this.ws.readyState !== WebSocket.CLOSED) this.ws.close();
    await this.closed;
  }
}

/** A cloud server alone on a plain HTTP server, with sessions `sid-alice` → alice and `sid-bob` → bob. */
export interface Harness {
  server: Server;
  cloud: CloudServer;
  state: CloudState;
  port: number;
  wsUrl: string;
  altUrl: string;
  logsHost: string;
  /** While true, the logs endpoint answers 500. */
  failLogs: boolean;
  close(): Promise<void>;
}

export const HARNESS_PROJECT = '4242';

export async function startHarness(
  options: { clock?: () => number; port?: number; state?: CloudState } & CloudServerOptions = {},
): Promise<Harness> {
  const sessions = new Map([
    ['sid-alice', 'alice'],
    ['sid-bob', 'bob'],
  ]);
  const state = options.state ?? new CloudState();
  const harness = { failLogs: false } as Harness;
  const server = createServer((req, res) => {
    if (harness.failLogs && req.url?.startsWith('/clouddata/logs')) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end('{"code":"InternalServerError","message":"the logs are down"}');
      return;
    }
    if (!cloud.handleHttp(req, res)) {
      res.writeHead(404);
      res.end();
    }
  });
  const cloud = attachCloudServer(
    server,
    {
      userForSession: (id) => sessions.get(id) ?? null,
      projectExists: (id) => id === Number(HARNESS_PROJECT) || id === 4243,
      state,
      clock: options.clock,
    },
    options,
  );
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(harness, {
    server,
    cloud,
    state,
    port,
    wsUrl: `ws://127.0.0.1:${port}/clouddata`,
    altUrl: `ws://127.0.0.1:${port}/clouddata-alt`,
    logsHost: `http://127.0.0.1:${port}/clouddata`,
    async close() {
      await cloud.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  });
}
