/**
 * The sandbox's cloud server: WebSocket upgrades on `/clouddata` (the platform's policy) and
 * `/clouddata-alt` (the alternate server's), and the platform's log at `GET /clouddata/logs`.
 *
 * It speaks WIRE.md §5 as the real servers do: a handshake first and once; the current values in
 * one frame right after it; sets forwarded to the project's other connections, never echoed;
 * invalid values dropped silently; malformed frames closed with 4000 without touching any other
 * connection. Sandbox choices where the wire is silent are documented next to each constant.
 *
 * Shutting down (`close()`, code 1001) is graceful: frames a client sent before it saw our close
 * are still applied (they are data it sent in good faith); only frames after a close for a
 * protocol violation or a rate limit are ignored.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import {
  CLOSE_BAD_USERNAME,
  CLOSE_NO_USER_AGENT,
  CLOSE_OVERLOADED,
  CLOSE_PLATFORM_COOKIE,
  CLOSE_PROJECT_UNAVAILABLE,
  CLOSE_PROTOCOL_ERROR,
} from '../../cloud/close-codes.js';
import { hasControlCharacters } from '../../cloud/cloud-values.js';
import { SESSION_COOKIE } from '../../cookies.js';
import { isUsername } from '../../validate.js';
import { parseCookies } from '../http-utils.js';
import { type ClientMessage, parseClientFrame } from './client-messages.js';
import {
  acceptsName,
  acceptsValue,
  alternatePolicy,
  type CloudPolicy,
  type CloudRateLimit,
  platformPolicy,
} from './cloud-policy.js';
import { type CloudChange, type CloudLogRecord, CloudState } from './cloud-state.js';
import { TokenBucket } from './token-bucket.js';
import { refuseUpgrade, upgradeProblem } from './upgrade-refusal.js';
import { isIdentifyingUserAgent } from './user-agent-rule.js';

/** What the cloud server needs from the sandbox around it. */
export interface CloudServerDeps {
  /** The username a platform session id (the `scratchsessionsid` cookie, unquoted) belongs to, or null. */
  userForSession(sessionId: string): string | null;
  /** Whether a platform project exists (its cloud may be used). */
  projectExists(projectId: number): boolean;
  /** The platform's values and logs (default: empty). */
  state?: CloudState;
  /**
   * The alternate server's values (default: empty, no log since it has no logs endpoint, and at
   * most {@link ALTERNATE_IDLE_PROJECTS} projects kept once their last connection left).
   */
  alternateState?: CloudState;
  /** Milliseconds since the epoch, for log timestamps (default `Date.now`). */
  clock?: () => number;
}

export interface CloudServerOptions {
  /** Path of the platform endpoint (default `/clouddata`); its log is at `{path}/logs`. */
  platformPath?: string;
  /** Path of the alternate endpoint (default `/clouddata-alt`). */
  alternatePath?: string;
  /** Per-connection limit on the platform endpoint; `null` for none (benchmarks). */
  platformRateLimit?: CloudRateLimit | null;
  /** Per-connection limit on the alternate endpoint; `null` for none. */
  alternateRateLimit?: CloudRateLimit | null;
  /** Milliseconds `close()` waits for clients to answer the close before cutting them off (default 2000). */
  closeTimeout?: number;
}

/** An HTTP answer of the logs endpoint. */
export interface LogsAnswer {
  status: number;
  body: CloudLogRecord[] | { code: string; message: string };
}

/** The logs endpoint's cap on `limit`, and its default when none is given (the real default is unknown). */
export const LOGS_MAX_LIMIT = 100;
/**
 * Alternate projects whose last connection left that keep their values (the least recently left
 * beyond it are dropped): any client may name any project there, so their number must be bounded.
 */
export const ALTERNATE_IDLE_PROJECTS = 32;
/** Platform project ids are numbers; the alternate server takes any short token. */
const PLATFORM_PROJECT_ID = /^\d{1,15}$/;
const ALTERNATE_PROJECT_ID = /^\S{1,100}$/;
/** Largest frame a client may send (an alternate value of 100 000 characters fits with room). */
const MAX_PAYLOAD = 1024 * 1024;
/** A receiver this far behind is dropped with 4003 instead of growing the server's memory. */
const MAX_BUFFERED = 16 * 1024 * 1024;
const OPEN = 1;

interface Client {
  ws: WebSocket;
  policy: CloudPolicy;
  state: CloudState;
  cookies: Map<string, string>;
  bucket: TokenBucket | null;
  /** Set by the handshake: who is connected, to which project. */
  user: string | null;
  projectId: string | null;
  room: Set<Client> | null;
  /** We closed it: ignore whatever it still sends (unless `draining`). */
  closing: boolean;
  /** Closed by a shutdown (1001): its sets are still applied until its close arrives. */
  draining: boolean;
}

/** The cloud server of one sandbox. Create it with {@link attachCloudServer}. */
export class CloudServer {
  /** The platform's values and logs. */
  readonly state: CloudState;
  /** The alternate server's values. */
  readonly alternateState: CloudState;
  readonly platformPath: string;
  readonly alternatePath: string;

  readonly #deps: CloudServerDeps;
  readonly #clock: () => number;
  readonly #platform: CloudPolicy;
  readonly #alternate: CloudPolicy;
  readonly #closeTimeout: number;
  readonly #wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_PAYLOAD,
    clientTracking: false,
  });
  readonly #clients = new Set<Client>();
  readonly #rooms = new Map<string, Set<Client>>();
  #server: Server | null = null;
  #stopping: Promise<void> | null = null;

  constructor(deps: CloudServerDeps, options: CloudServerOptions = {}) {
    this.#deps = deps;
    this.state = deps.state ?? new CloudState();
    this.alternateState =
      deps.alternateState ?? new CloudState({ recordLog: false, maxIdleProjects: ALTERNATE_IDLE_PROJECTS });
    this.#clock = deps.clock ?? Date.now;
    this.platformPath = options.platformPath ?? '/clouddata';
    this.alternatePath = options.alternatePath ?? '/clouddata-alt';
    this.#platform = platformPolicy(options.platformRateLimit);
    this.#alternate = alternatePolicy(options.alternateRateLimit);
    this.#closeTimeout = options.closeTimeout ?? 2000;
    // Whatever else `ws` refuses (a malformed Sec-WebSocket-Protocol header, ...): JSON too.
    this.#wss.on('wsClientError', (error, socket) =>
      refuseUpgrade(socket, { status: 400, code: 'BadRequest', message: error.message }),
    );
  }

  /** Open connections (handshaken or not). */
  get connections(): number {
    return this.#clients.size;
  }

  /** Starts handling WebSocket upgrades of an HTTP server. */
  attach(server: Server): this {
    if (this.#server) throw new Error('the cloud server is already attached');
    this.#server = server;
    server.on('upgrade', this.#onUpgrade);
    return this;
  }

  /**
   * Answers `GET {platformPath}/logs` on a plain `node:http` response; false when the request is
   * not for it. (The sandbox routes it through its router with {@link logsAnswer} instead.)
   */
  handleHttp(req: IncomingMessage, res: ServerResponse): boolean {
    const [path, query = ''] = (req.url ?? '/').split('?', 2) as [string, string?];
    if (path.replace(/\/+$/, '') !== `${this.platformPath}/logs`) return false;
    const answer =
      req.method === 'GET' || req.method === 'HEAD'
        ? this.logsAnswer(new URLSearchParams(query))
        : { status: 405, body: { code: 'MethodNotAllowed', message: `${req.method} is not allowed here` } };
    const body = JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    });
    res.end(body);
    return true;
  }

  /**
   * The platform's log (WIRE.md §6): `projectid` (required), `limit` 1-100 (default 100) and
   * `offset` (default 0); newest first. A project without entries answers `[]`; bad parameters 400.
   */
  logsAnswer(query: URLSearchParams): LogsAnswer {
    const bad = (message: string): LogsAnswer => ({ status: 400, body: { code: 'BadRequest', message } });
    const projectId = query.get('projectid') ?? '';
    if (!PLATFORM_PROJECT_ID.test(projectId)) return bad('projectid must be a project id (digits)');
    const limitText = query.get('limit');
    let limit = LOGS_MAX_LIMIT;
    if (limitText !== null && limitText !== '') {
      if (!/^\d{1,9}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > LOGS_MAX_LIMIT) {
        return bad(`limit must be an integer between 1 and ${LOGS_MAX_LIMIT}`);
      }
      limit = Number(limitText);
    }
    const offsetText = query.get('offset');
    let offset = 0;
    if (offsetText !== null && offsetText !== '') {
      if (!/^\d{1,9}$/.test(offsetText)) return bad('offset must be an integer >= 0');
      offset = Number(offsetText);
    }
    return { status: 200, body: this.state.logPage(String(Number(projectId)), limit, offset) };
  }

  /**
   * Stops: no new connections, every client gets close 1001 and a moment to answer, stragglers
   * are cut off. The HTTP server is left to its owner. Calling it again returns the same promise.
   */
  close(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    // The upgrade handler stays until the end, so upgrades meanwhile get a clear 503.
    const clients = [...this.#clients];
    const closed = clients.map(
      (client) =>
        new Promise<void>((resolve) => {
          if (client.ws.readyState === 3) resolve();
          else client.ws.once('close', () => resolve());
        }),
    );
    for (const client of clients) this.#close(client, 1001, 'the server is shutting down', true);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all(closed),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.#closeTimeout);
      }),
    ]);
    clearTimeout(timer);
    for (const client of this.#clients) client.ws.terminate();
    this.#clients.clear();
    this.#rooms.clear();
    this.#wss.close();
    this.#server?.off('upgrade', this.#onUpgrade);
  }

  readonly #onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '/').split('?', 1)[0]!.replace(/\/+$/, '');
    const policy =
      path === this.platformPath ? this.#platform : path === this.alternatePath ? this.#alternate : null;
    if (!policy) {
      // Another upgrade handler may want it; with none, say so instead of leaving the socket hanging.
      if ((this.#server?.listenerCount('upgrade') ?? 0) <= 1) {
        refuseUpgrade(socket, {
          status: 404,
          code: 'NotFound',
          message: `no WebSocket endpoint here: the cloud is at ${this.platformPath} and ${this.alternatePath}`,
        });
      }
      return;
    }
    if (this.#stopping) {
      refuseUpgrade(socket, {
        status: 503,
        code: 'ServiceUnavailable',
        message: 'the cloud server is shutting down',
      });
      return;
    }
    const problem = upgradeProblem(req);
    if (problem) {
      refuseUpgrade(socket, problem);
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, req, policy));
  };

  #accept(ws: WebSocket, req: IncomingMessage, policy: CloudPolicy): void {
    const client: Client = {
      ws,
      policy,
      state: policy.kind === 'platform' ? this.state : this.alternateState,
      cookies: parseCookies(req.headers.cookie),
      bucket: policy.rateLimit ? new TokenBucket(policy.rateLimit.perSecond, policy.rateLimit.burst) : null,
      user: null,
      projectId: null,
      room: null,
      closing: false,
      draining: false,
    };
    this.#clients.add(client);
    ws.on('error', () => undefined); // a broken socket closes; nothing else to do
    ws.on('close', () => this.#forget(client));
    if (this.#stopping) {
      this.#close(client, 1001, 'the server is shutting down', true);
      return;
    }
    if (policy.refusesPlatformCookie && client.cookies.has(SESSION_COOKIE)) {
      this.#close(client, CLOSE_PLATFORM_COOKIE, 'platform cookies are not accepted here');
      return;
    }
    if (policy.requiresIdentifyingUserAgent && !isIdentifyingUserAgent(req.headers['user-agent'])) {
      this.#close(client, CLOSE_NO_USER_AGENT, 'the User-Agent must name the bot and a contact');
      return;
    }
    ws.on('message', (data, isBinary) => this.#onFrame(client, data, isBinary));
  }

  #onFrame(client: Client, data: RawData, isBinary: boolean): void {
    if (client.draining) {
      this.#drain(client, data, isBinary);
      return;
    }
    if (client.closing) return;
    if (isBinary) {
      this.#close(client, CLOSE_PROTOCOL_ERROR, 'binary frames are not accepted');
      return;
    }
    const parsed = parseClientFrame(rawText(data));
    if (!parsed.ok) {
      this.#close(client, CLOSE_PROTOCOL_ERROR, parsed.reason);
      return;
    }
    const message = parsed.message;
    if (message.method === 'handshake') {
      if (client.projectId !== null) {
        this.#close(client, CLOSE_PROTOCOL_ERROR, 'handshake twice');
        return;
      }
      this.#handshake(client, message);
      return;
    }
    if (client.projectId === null) {
      this.#close(client, CLOSE_PROTOCOL_ERROR, 'handshake first');
      return;
    }
    if (!this.#isOwn(client, message)) {
      this.#close(client, CLOSE_PROTOCOL_ERROR, 'a message for another user or project');
      return;
    }
    if (client.bucket && !client.bucket.take()) {
      const { perSecond, burst } = client.policy.rateLimit!;
      this.#close(
        client,
        CLOSE_OVERLOADED,
        `rate limit: at most ${perSecond} messages a second (bursts of ${burst})`,
      );
      return;
    }
    this.#change(client, message);
  }

  /**
   * A frame from a client the server is leaving (1001): it was sent before the client saw our
   * close, so a valid change is still applied. Anything else is dropped without more closes.
   */
  #drain(client: Client, data: RawData, isBinary: boolean): void {
    if (isBinary || client.projectId === null) return;
    const parsed = parseClientFrame(rawText(data));
    if (!parsed.ok || parsed.message.method === 'handshake') return;
    if (!this.#isOwn(client, parsed.message)) return;
    if (client.bucket && !client.bucket.take()) return;
    this.#change(client, parsed.message);
  }

  /** Whether a message after the handshake carries the handshake's user and project. */
  #isOwn(client: Client, message: ClientMessage): boolean {
    return (
      this.#projectKey(client.policy, message.projectId) === client.projectId &&
      message.user.toLowerCase() === client.user!.toLowerCase()
    );
  }

  /**
   * The key a project id is kept under: on the platform, digits without leading zeros (`"0042"`
   * and `42` name project 42, as `/logs` reads it); on the alternate server, the id as sent.
   */
  #projectKey(policy: CloudPolicy, projectId: string): string {
    return policy.kind === 'platform' && PLATFORM_PROJECT_ID.test(projectId)
      ? String(Number(projectId))
      : projectId;
  }

  #handshake(client: Client, message: ClientMessage): void {
    let user = message.user;
    if (client.policy.requiresSession) {
      const sessionId = client.cookies.get(SESSION_COOKIE);
      const owner = sessionId ? this.#deps.userForSession(sessionId) : null;
      if (owner === null) {
        this.#close(client, CLOSE_BAD_USERNAME, 'no valid session');
        return;
      }
      if (owner.toLowerCase() !== user.toLowerCase()) {
        this.#close(client, CLOSE_BAD_USERNAME, 'the username does not match the session');
        return;
      }
      user = owner;
    } else if (!isUsername(user)) {
      this.#close(client, CLOSE_BAD_USERNAME, 'invalid username');
      return;
    }
    const projectId = this.#projectKey(client.policy, message.projectId);
    const known =
      client.policy.kind === 'platform'
        ? PLATFORM_PROJECT_ID.test(projectId) && this.#deps.projectExists(Number(projectId))
        : ALTERNATE_PROJECT_ID.test(projectId) && !hasControlCharacters(projectId);
    if (!known) {
      this.#close(client, CLOSE_PROJECT_UNAVAILABLE, 'project unavailable');
      return;
    }
    client.user = user;
    client.projectId = projectId;
    const key = `${client.policy.kind}:${projectId}`;
    let room = this.#rooms.get(key);
    if (!room) {
      room = new Set();
      this.#rooms.set(key, room);
      client.state.markActive(projectId);
    }
    room.add(client);
    client.room = room;
    // Every current value in one frame (sent even when empty, so clients know the handshake was taken).
    const values = client.state.peek(projectId)?.values ?? new Map<string, string | number>();
    const lines: string[] = [];
    for (const [name, value] of values) lines.push(JSON.stringify({ method: 'set', name, value }));
    client.ws.send(lines.join('\n'));
  }

  #change(client: Client, message: ClientMessage): void {
    const name = message.name!;
    if (!acceptsName(name)) return; // dropped silently, as real servers do
    let change: CloudChange;
    switch (message.method) {
      case 'set':
      case 'create':
        if (!acceptsValue(client.policy, message.value)) return;
        change = { verb: message.method === 'set' ? 'set_var' : 'create_var', name, value: message.value };
        break;
      case 'delete':
        change = { verb: 'del_var', name };
        break;
      default:
        if (!acceptsName(message.newName!)) return;
        change = { verb: 'rename_var', name, newName: message.newName! };
    }
    if (!client.state.apply(client.projectId!, client.user!, change, this.#clock())) return;
    // Clients only understand `set` from the server: a created variable arrives as its value.
    if (change.verb === 'set_var' || change.verb === 'create_var') this.#forward(client, name, change.value);
  }

  #forward(sender: Client, name: string, value: string | number): void {
    const line = JSON.stringify({ method: 'set', name, value });
    for (const other of sender.room!) {
      if (other === sender || other.closing || other.ws.readyState !== OPEN) continue;
      if (other.ws.bufferedAmount > MAX_BUFFERED) {
        this.#close(other, CLOSE_OVERLOADED, 'the connection is not reading its messages');
        continue;
      }
      other.ws.send(line);
    }
  }

  /** Closes a client; `drain` (a shutdown) keeps applying what it sent before it saw the close. */
  #close(client: Client, code: number, reason: string, drain = false): void {
    if (client.closing) return;
    client.closing = true;
    client.draining = drain;
    // Still in its room while draining: its changes are applied and forwarded like any other.
    if (!drain) this.#leaveRoom(client);
    try {
      client.ws.close(code, reason);
    } catch {
      client.ws.terminate();
    }
  }

  #forget(client: Client): void {
    client.closing = true;
    client.draining = false;
    this.#clients.delete(client);
    this.#leaveRoom(client);
  }

  /** Takes a client out of its room; the room goes when it empties, and its project turns idle. */
  #leaveRoom(client: Client): void {
    const room = client.room;
    if (!room?.delete(client) || room.size > 0) return;
    const key = `${client.policy.kind}:${client.projectId}`;
    if (this.#rooms.get(key) === room) this.#rooms.delete(key);
    client.state.markIdle(client.projectId!);
  }
}

/** Creates a cloud server and attaches it to an HTTP server's upgrades. */
export function attachCloudServer(
  server: Server,
  deps: CloudServerDeps,
  options: CloudServerOptions = {},
): CloudServer {
  return new CloudServer(deps, options).attach(server);
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
