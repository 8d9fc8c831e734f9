/**
 * Test-only: a small cloud server that answers like TurboWarp's cloud-server (the alternate
 * server's code), as its source reads, written here from that reading (not copied). That server is
 * not published as a package, so it cannot run here as the web client and the VM do. Read at
 * github.com/TurboWarp/cloud-server: branch `username-validate-prod` at 1f3d30cc74a9 (2024-12-24),
 * where the User-Agent rule (4006, commit 2e53f8b84680) sits beside the rules of `master` at
 * a0b29ec472fd (2025-06-04: 4000, 4002, 4005, the values frame, binary frames ignored; its
 * doc/protocol.md names 4006). Not followed: that branch's look-up of each username's account
 * (src/username.js asks a Scratch API proxy about its age), which needs the internet:
 *
 * - a frame that is not JSON, or a message without a known `method`, closes with 4000;
 * - a handshake with an invalid username (1-20 of `a-z0-9_-`) closes with 4002;
 * - a `Cookie` that starts with `scratchsessionsid=` gets a plain-text warning frame, then 4005;
 * - a missing or empty `User-Agent` gets a plain-text warning frame, then 4006 (any other passes);
 * - after a handshake: one frame with every current value (`set` lines joined by `\n`) when the
 *   project holds values, and nothing at all when it holds none;
 * - a set whose value is not a number (digits, one optional `-` and one `.`) is dropped silently;
 *   others are stored and forwarded to every other connection of the project, never echoed.
 *
 * - plain HTTP requests get a small HTML page (the real server serves its static pages on the same
 *   port), so a browser can load a page of this origin.
 *
 * Hooks let a test bend it: run code after each handshake (close at once, send a warning, ...).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

interface Room {
  values: Map<string, string | number>;
  clients: Set<WebSocket>;
}

export interface PeerHooks {
  /** Runs when a connection opens, before anything else (return true to stop the normal handling). */
  connection?(ws: WebSocket, req: IncomingMessage): boolean | undefined;
  /** Runs when a handshake was taken, before the values frame (if any) is sent. */
  beforeValues?(ws: WebSocket): void;
  /** Runs right after a handshake was taken (and the values frame, if any, sent). */
  handshaken?(ws: WebSocket, peer: Peer): void;
}

export interface Peer {
  readonly url: string;
  /** Connections opened so far. */
  connections: number;
  /** Handshakes taken so far. */
  handshakes: number;
  /** Sets dropped for a non-numeric value. */
  dropped: number;
  /** The current values of a project. */
  values(projectId: string): Record<string, string | number>;
  /** The server side of every open connection. */
  sockets(): WebSocket[];
  /** Sends a set to every connection of a project, as if another client had set it. */
  broadcast(projectId: string, name: string, value: string): void;
  close(): Promise<void>;
}

const USERNAME = /^[a-z0-9_-]{1,20}$/i;
const NUMERIC = /^-?(?:\d+\.?\d*|\.\d+)$/;
const MAX_VALUE = 100_000;

function numericValue(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && value.length <= MAX_VALUE && NUMERIC.test(value);
}

export async function startPeer(hooks: PeerHooks = {}): Promise<Peer> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>cloud-server</title><link rel="icon" href="data:,"><p>cloud-server</p>');
  });
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  const rooms = new Map<string, Room>();
  const room = (id: string) => {
    let found = rooms.get(id);
    if (!found) {
      found = { values: new Map(), clients: new Set() };
      rooms.set(id, found);
    }
    return found;
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const peer: Peer = {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: 0,
    handshakes: 0,
    dropped: 0,
    values: (id) => Object.fromEntries(rooms.get(id)?.values ?? []),
    sockets: () => [...wss.clients],
    broadcast(id, name, value) {
      const target = room(id);
      target.values.set(name, value);
      const line = JSON.stringify({ method: 'set', name, value });
      for (const ws of target.clients) ws.send(line);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.close(() => resolve());
      }),
  };
  wss.on('connection', (ws, req) => {
    peer.connections++;
    ws.on('error', () => undefined);
    if (hooks.connection?.(ws, req)) return;
    if (req.headers.cookie?.startsWith('scratchsessionsid=')) {
      ws.send(
        'The cloud data library you are using sends us your login token for no reason. This connection is refused.',
      );
      ws.close(4005);
      return;
    }
    if (!req.headers['user-agent']) {
      ws.send('Please provide a valid User-Agent header.');
      ws.close(4006);
      return;
    }
    let joined: Room | null = null;
    ws.on('close', () => joined?.clients.delete(ws));
    ws.on('message', (data, isBinary) => {
      if (isBinary || ws.readyState !== WebSocket.OPEN) return;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(data.toString());
        if (message === null || typeof message !== 'object' || typeof message.method !== 'string')
          throw new Error('invalid message');
      } catch {
        ws.close(4000);
        return;
      }
      if (message.method === 'handshake') {
        if (joined) return ws.close(4000);
        if (!USERNAME.test(String(message.user))) return ws.close(4002);
        const id = String(message.project_id);
        if (id.length === 0 || id.length >= 1000) return ws.close(4000);
        joined = room(id);
        joined.clients.add(ws);
        peer.handshakes++;
        hooks.beforeValues?.(ws);
        const lines = [...joined.values].map(([name, value]) =>
          JSON.stringify({ method: 'set', name, value }),
        );
        if (lines.length > 0) ws.send(lines.join('\n'));
        hooks.handshaken?.(ws, peer);
        return;
      }
      if (!joined) return ws.close(4000);
      if (message.method !== 'set' && message.method !== 'create') return; // delete, rename: not needed here
      if (!numericValue(message.value)) {
        peer.dropped++;
        return; // silently, as the real server does
      }
      const name = String(message.name);
      joined.values.set(name, message.value as string | number);
      const line = JSON.stringify({ method: 'set', name, value: message.value });
      for (const other of joined.clients) if (other !== ws) other.send(line);
    });
  });
  return peer;
}
