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
 *
 * It survives its clients: connections are capped in all and per address, a socket that does not
 * handshake in time is closed, a receiver that lets its buffer grow past a bound or stops reading
 * is dropped, handshakes that would push the server's buffered bytes past a budget are refused
 * with 4003, and the rate limit's buckets belong to the user and project, so reconnecting does not
 * refill them. Forwarded sets are batched per receiver per short tick (see {@link CloudRoom}).
 * Every frame it sends is a text frame (the wire is text; browsers cannot read binary frames).
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
import { SESSION_COOKIE } from '../../http/cookies.js';
import { isUsername } from '../../records/validate.js';
import { parseCookies } from '../http-utils.js';
import { RateBuckets } from '../rules/rate-buckets.js';
import { type ClientMessage, parseClientFrame } from './client-messages.js';
import {
  acceptsName,
  acceptsValue,
  alternatePolicy,
  type CloudPolicy,
  type CloudRateLimit,
  platformPolicy,
} from './cloud-policy.js';
import { CloudRoom, type RoomMember } from './cloud-room.js';
import { type CloudChange, type CloudLogRecord, CloudState } from './cloud-state.js';
import { refuseUpgrade, type UpgradeRefusal, upgradeProblem } from './upgrade-refusal.js';
import { acceptsUserAgent, isBrowserUpgrade } from './user-agent-rule.js';
import { PLATFORM_COOKIE_WARNING, USER_AGENT_WARNING } from './warning-frames.js';

/** What the cloud server needs from the sandbox around it. */
export interface CloudServerDeps {
  /** The username a platform session id (the `scratchsessionsid` cookie, unquoted) belongs to, or null. */
  userForSession(sessionId: string): string | null;
  /** Whether a platform project exists (its cloud may be used). */
  projectExists(projectId: number): boolean;
  /**
   * Whether `username` (null: logged out) may see a platform project: one it cannot see can
   * neither be joined (4004) nor have its log read (answered as empty). Default: every project.
   */
  projectVisibleTo?(projectId: number, username: string | null): boolean;
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
  /** Per user and project limit on the platform endpoint; `null` for none (benchmarks). */
  platformRateLimit?: CloudRateLimit | null;
  /** Per user and project limit on the alternate endpoint; `null` for none. */
  alternateRateLimit?: CloudRateLimit | null;
  /**
   * Milliseconds a closed client has to answer the close before it is cut off, and `close()`
   * waits for all of them (default 2000).
   */
  closeTimeout?: number;
  /** Open connections at most, both endpoints together; more are answered 503 (default 1000). */
  maxConnections?: number;
  /** Open connections from one address at most; more are answered 429 (default 128). */
  maxConnectionsPerAddress?: number;
  /** Milliseconds a connection has to send its handshake before it is closed with 4000 (default 5000). */
  handshakeTimeout?: number;
  /**
   * Milliseconds a connection may leave bytes unread without reading any of them before it is
   * cut off (default 30 000, the alternate server's ping interval).
   */
  stallTimeout?: number;
  /** Bytes one receiver may leave unread; past it the receiver is closed with 4003 (default 16 MiB). */
  maxBufferedPerConnection?: number;
  /**
   * Bytes all receivers together may leave unread; a handshake whose values frame would pass it
   * is closed with 4003 and may try again later (default 128 MiB).
   */
  maxBufferedTotal?: number;
  /** Milliseconds forwarded sets are gathered before each receiver gets them in one frame (default 10). */
  batchInterval?: number;
  /**
   * Milliseconds between pings; a connection that has not answered the previous one is cut off,
   * as the alternate server does (default 30 000; 0 for none).
   */
  pingInterval?: number;
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
/** A tick's queued characters past which a room is flushed at once instead of at the tick's end. */
const FLUSH_BYTES = 256 * 1024;
const OPEN = 1;
const CLOSED = 3;
/**
 * A browser's upgrade from a page the sandbox itself served: its `Origin` names the host the
 * upgrade came to. The one client that sends the platform's cookie to the alternate endpoint
 * without meaning to.
 */
function isOwnSitePage(req: IncomingMessage): boolean {
  const { origin, host } = req.headers;
  if (!host || !origin || !isBrowserUpgrade(req.headers['user-agent'], origin)) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false; // an Origin that is not a URL names no page
  }
}

/** `ws.send` options of every frame: text, whether the data is a string or a prebuilt UTF-8 Buffer. */
const TEXT_FRAME = { binary: false } as const;

interface Client extends RoomMember {
  ws: WebSocket;
  policy: CloudPolicy;
  state: CloudState;
  cookies: Map<string, string>;
  /** The peer's address, for the per-address cap. */
  address: string;
  /** `performance.now()` at the upgrade, for the handshake timeout. */
  connectedAt: number;
  /** Set by the handshake: who is connected, to which project, and its rate-limit bucket's key. */
  user: string | null;
  projectId: string | null;
  room: CloudRoom<Client> | null;
  bucketKey: string;
  /** Bytes handed to the socket so far, and how many of them had left it at the last check. */
  sentBytes: number;
  flushedBytes: number;
  /** `performance.now()` since which its buffer has held bytes without any leaving; null when none wait. */
  stalledSince: number | null;
  /** A ping went out and no pong came back yet. */
  awaitingPong: boolean;
  /** Cuts the socket off if the close is not answered in time. */
  killTimer: ReturnType<typeof setTimeout> | null;
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
  readonly #maxConnections: number;
  readonly #maxPerAddress: number;
  readonly #handshakeTimeout: number;
  readonly #stallTimeout: number;
  readonly #maxBuffered: number;
  readonly #maxBufferedTotal: number;
  readonly #batchInterval: number;
  readonly #pingInterval: number;
  #lastPing = performance.now();
  readonly #buckets: { platform: RateBuckets | null; alternate: RateBuckets | null };
  readonly #perAddress = new Map<string, number>();
  /** Rooms with sets queued in the current tick, and the timer that ends it. */
  readonly #dirty = new Set<CloudRoom<Client>>();
  #tickTimer: ReturnType<typeof setTimeout> | null = null;
  #janitor: ReturnType<typeof setInterval> | null = null;
  readonly #wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: MAX_PAYLOAD,
    clientTracking: false,
  });
  readonly #clients = new Set<Client>();
  readonly #rooms = new Map<string, CloudRoom<Client>>();
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
    this.#maxConnections = options.maxConnections ?? 1000;
    this.#maxPerAddress = options.maxConnectionsPerAddress ?? 128;
    this.#handshakeTimeout = options.handshakeTimeout ?? 5000;
    this.#stallTimeout = options.stallTimeout ?? 30_000;
    this.#maxBuffered = options.maxBufferedPerConnection ?? 16 * 1024 * 1024;
    this.#maxBufferedTotal = options.maxBufferedTotal ?? 128 * 1024 * 1024;
    this.#batchInterval = options.batchInterval ?? 10;
    this.#pingInterval = options.pingInterval ?? 30_000;
    this.#buckets = {
      platform: this.#platform.rateLimit ? new RateBuckets(this.#platform.rateLimit) : null,
      alternate: this.#alternate.rateLimit ? new RateBuckets(this.#alternate.rateLimit) : null,
    };
    // Whatever else `ws` refuses (a malformed Sec-WebSocket-Protocol header, ...): JSON too.
    this.#wss.on('wsClientError', (error, socket) =>
      refuseUpgrade(socket, { status: 400, code: 'BadRequest', message: error.message }),
    );
  }

  /** Open connections (handshaken or not). */
  get connections(): number {
    return this.#clients.size;
  }

  /** Connections that have handshaken into a project of an endpoint (the id as the server keys it). */
  members(endpoint: 'platform' | 'alternate', projectId: string): number {
    return this.#rooms.get(`${endpoint}:${projectId}`)?.members.size ?? 0;
  }

  /** Bytes waiting in all connections' send buffers (what receivers have not read yet). */
  get bufferedBytes(): number {
    let total = 0;
    for (const client of this.#clients) total += client.ws.bufferedAmount;
    return total;
  }

  /** Starts handling WebSocket upgrades of an HTTP server. */
  attach(server: Server): this {
    if (this.#server) throw new Error('the cloud server is already attached');
    this.#server = server;
    server.on('upgrade', this.#onUpgrade);
    const every = Math.max(
      10,
      Math.min(1000, this.#handshakeTimeout / 4, this.#stallTimeout / 4, (this.#pingInterval || 1000) / 4),
    );
    this.#janitor = setInterval(() => this.#sweep(), every);
    this.#janitor.unref();
    return this;
  }

  /**
   * Answers `GET {platformPath}/logs` on a plain `node:http` response; false when the request is
   * not for it. (The sandbox routes it through its router with {@link logsAnswer} instead.)
   */
  handleHttp(req: IncomingMessage, res: ServerResponse): boolean {
    const [path, query = ''] = (req.url ?? '/').split('?', 2) as [string, string?];
    if (path.replace(/\/+$/, '') !== `${this.platformPath}/logs`) return false;
    const sessionId = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    const reader = sessionId ? this.#deps.userForSession(sessionId) : null;
    const answer =
      req.method === 'GET' || req.method === 'HEAD'
        ? this.logsAnswer(new URLSearchParams(query), reader)
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
   * `offset` (default 0); newest first. A project without entries answers `[]`, and so does one
   * that `reader` (the logged-in username, null when logged out) cannot see; bad parameters 400.
   */
  logsAnswer(query: URLSearchParams, reader: string | null = null): LogsAnswer {
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
    const id = Number(projectId);
    if (this.#deps.projectVisibleTo && !this.#deps.projectVisibleTo(id, reader))
      return { status: 200, body: [] };
    return { status: 200, body: this.state.logPage(String(id), limit, offset) };
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
    this.#flushAll(); // sets already taken reach their receivers before the 1001
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
    this.#dirty.clear();
    if (this.#tickTimer) clearTimeout(this.#tickTimer);
    if (this.#janitor) clearInterval(this.#janitor);
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
    const problem = upgradeProblem(req) ?? this.#admissionProblem(addressOf(req));
    if (problem) {
      refuseUpgrade(socket, problem);
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#accept(ws, req, policy));
  };

  /** Why one more connection from `address` is refused (the caps), or null. */
  #admissionProblem(address: string): UpgradeRefusal | null {
    if (this.#clients.size >= this.#maxConnections) {
      return {
        status: 503,
        code: 'ServiceUnavailable',
        message: `the cloud server is full (${this.#maxConnections} connections): try again later`,
        headers: { 'Retry-After': '5' },
      };
    }
    if ((this.#perAddress.get(address) ?? 0) >= this.#maxPerAddress) {
      return {
        status: 429,
        code: 'TooManyRequests',
        message: `too many connections from one address (at most ${this.#maxPerAddress}): keep one long-lived connection per project`,
        headers: { 'Retry-After': '5' },
      };
    }
    return null;
  }

  #accept(ws: WebSocket, req: IncomingMessage, policy: CloudPolicy): void {
    const client: Client = {
      ws,
      policy,
      state: policy.kind === 'platform' ? this.state : this.alternateState,
      cookies: parseCookies(req.headers.cookie),
      address: addressOf(req),
      connectedAt: performance.now(),
      user: null,
      projectId: null,
      room: null,
      bucketKey: '',
      mark: 0,
      sentInTick: false,
      sentBytes: 0,
      flushedBytes: 0,
      stalledSince: null,
      awaitingPong: false,
      killTimer: null,
      closing: false,
      draining: false,
    };
    this.#clients.add(client);
    this.#perAddress.set(client.address, (this.#perAddress.get(client.address) ?? 0) + 1);
    ws.on('error', () => undefined); // a broken socket closes; nothing else to do
    ws.on('close', () => this.#forget(client));
    ws.on('pong', () => {
      client.awaitingPong = false;
    });
    if (this.#stopping) {
      this.#close(client, 1001, 'the server is shutting down', true);
      return;
    }
    // The alternate server explains these two in a text frame first, so libraries that log what
    // they cannot parse show the user why. A browser sends whatever cookies it holds for the host,
    // and here both endpoints share the sandbox's host: on the real services the alternate server
    // is another site, which never gets the platform's cookie from a browser, so the cookie of a
    // page of the sandbox's own site is not held against it (a library that sends one on purpose,
    // even with a browser's User-Agent and another site's Origin, is still refused).
    if (policy.refusesPlatformCookie && client.cookies.has(SESSION_COOKIE) && !isOwnSitePage(req)) {
      this.#send(client, PLATFORM_COOKIE_WARNING);
      this.#close(client, CLOSE_PLATFORM_COOKIE, 'platform cookies are not accepted here');
      return;
    }
    if (
      policy.requiresIdentifyingUserAgent &&
      !acceptsUserAgent(req.headers['user-agent'], req.headers.origin)
    ) {
      this.#send(client, USER_AGENT_WARNING);
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
      if (!client.policy.ignoresBinaryFrames) {
        this.#close(client, CLOSE_PROTOCOL_ERROR, 'binary frames are not accepted');
      }
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
    if (!this.#takeToken(client)) {
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
    if (!this.#takeToken(client)) return;
    this.#change(client, parsed.message);
  }

  /** Takes a token from the bucket of the client's user and project; true when there was one (or no limit). */
  #takeToken(client: Client): boolean {
    const buckets = this.#buckets[client.policy.kind];
    return buckets === null || buckets.take(client.bucketKey);
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
    if (client.policy.kind === 'platform') {
      const id = Number(projectId);
      const visible =
        PLATFORM_PROJECT_ID.test(projectId) &&
        this.#deps.projectExists(id) &&
        (this.#deps.projectVisibleTo?.(id, user) ?? true);
      if (!visible) {
        this.#close(client, CLOSE_PROJECT_UNAVAILABLE, 'project unavailable');
        return;
      }
    } else if (!ALTERNATE_PROJECT_ID.test(projectId) || hasControlCharacters(projectId)) {
      // The alternate server takes any room id it can read; one it cannot is a protocol error.
      this.#close(client, CLOSE_PROTOCOL_ERROR, 'invalid project id');
      return;
    }
    client.user = user;
    client.projectId = projectId;
    client.bucketKey = `${projectId}\n${user.toLowerCase()}`;
    const key = `${client.policy.kind}:${projectId}`;
    let room = this.#rooms.get(key);
    if (!room) {
      room = new CloudRoom<Client>();
      this.#rooms.set(key, room);
      client.state.markActive(projectId);
    }
    room.join(client);
    client.room = room;
    // Every current value in one frame, as the alternate server does: nothing at all when there
    // are none. The frame is built once and shared until the project changes.
    const project = client.state.peek(projectId);
    const version = project?.version ?? 0;
    if (room.snapshotVersion !== version) {
      room.snapshot = valuesFrame(project?.values);
      room.snapshotVersion = version;
    }
    const frame = room.snapshot;
    if (frame === null) return;
    if (this.bufferedBytes + frame.length > this.#maxBufferedTotal) {
      this.#close(client, CLOSE_OVERLOADED, 'the server is busy sending: try again later');
      return;
    }
    this.#send(client, frame);
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
    const room = client.room!;
    // Clients only understand `set` from the server: a created variable arrives as its value.
    if (change.verb === 'set_var' || change.verb === 'create_var')
      this.#forward(client, room, name, change.value);
  }

  /** Queues a set for the room's other members: serialized once, sent at the end of the tick. */
  #forward(sender: Client, room: CloudRoom<Client>, name: string, value: string | number): void {
    if (room.members.size < 2) return; // nobody would hear it
    if (room.queue(sender, JSON.stringify({ method: 'set', name, value }))) {
      this.#dirty.add(room);
      this.#tickTimer ??= setTimeout(() => this.#flushAll(), this.#batchInterval);
    }
    if (room.pendingBytes >= FLUSH_BYTES) {
      this.#dirty.delete(room);
      room.flush(this.#deliver);
    }
  }

  /** Ends the tick: every room's receivers get their frame. */
  #flushAll(): void {
    if (this.#tickTimer) clearTimeout(this.#tickTimer);
    this.#tickTimer = null;
    for (const room of this.#dirty) room.flush(this.#deliver);
    this.#dirty.clear();
  }

  /** Sends a receiver its frame of the tick, unless it is gone or too far behind (then 4003). */
  readonly #deliver = (client: Client, frame: Buffer | string): void => {
    if (client.closing || client.ws.readyState !== OPEN) return;
    if (client.ws.bufferedAmount > this.#maxBuffered) {
      this.#close(client, CLOSE_OVERLOADED, 'the connection is not reading its messages');
      return;
    }
    this.#send(client, frame);
  };

  /**
   * Writes a text frame, counting its bytes for the stall check. A prebuilt Buffer (a shared
   * frame) goes out as text too: every message of the wire is text, and a browser hands a binary
   * frame to the page as a Blob, which the web client cannot read.
   */
  #send(client: Client, frame: Buffer | string): void {
    client.sentBytes += typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;
    client.ws.send(frame, TEXT_FRAME);
  }

  /**
   * The janitor's round: pings (cutting off who did not answer the last ping), closes connections
   * that have not handshaken in time, and cuts off those whose unread bytes have not moved for the
   * stall timeout (a peer that stopped reading).
   */
  #sweep(): void {
    const now = performance.now();
    const ping = this.#pingInterval > 0 && now - this.#lastPing >= this.#pingInterval;
    if (ping) this.#lastPing = now;
    for (const client of this.#clients) {
      if (client.ws.readyState === CLOSED) continue;
      if (ping) {
        if (client.awaitingPong) {
          client.ws.terminate(); // gone without a word: no close frame would reach it
          continue;
        }
        if (client.ws.readyState === OPEN) {
          client.awaitingPong = true;
          client.ws.ping();
        }
      }
      if (!client.closing && client.projectId === null && now - client.connectedAt > this.#handshakeTimeout) {
        this.#close(client, CLOSE_PROTOCOL_ERROR, `no handshake within ${this.#handshakeTimeout} ms`);
        continue;
      }
      const buffered = client.ws.bufferedAmount;
      const flushed = client.sentBytes - buffered;
      if (buffered === 0 || flushed > client.flushedBytes) {
        client.flushedBytes = flushed;
        client.stalledSince = buffered === 0 ? null : now;
      } else if (client.stalledSince === null) {
        client.stalledSince = now;
      } else if (now - client.stalledSince > this.#stallTimeout) {
        client.ws.terminate(); // it reads nothing, so a close frame would never reach it
      }
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
    // `ws` waits 30 s for the peer's answer; a peer that does not read would hold its socket that long.
    if (!drain) {
      client.killTimer = setTimeout(() => client.ws.terminate(), this.#closeTimeout);
      client.killTimer.unref();
    }
  }

  #forget(client: Client): void {
    client.closing = true;
    client.draining = false;
    if (client.killTimer) clearTimeout(client.killTimer);
    if (this.#clients.delete(client)) {
      const left = (this.#perAddress.get(client.address) ?? 1) - 1;
      if (left > 0) this.#perAddress.set(client.address, left);
      else this.#perAddress.delete(client.address);
    }
    this.#leaveRoom(client);
  }

  /** Takes a client out of its room; the room goes when it empties, and its project turns idle. */
  #leaveRoom(client: Client): void {
    const room = client.room;
    if (!room?.members.has(client)) return;
    if (!room.leave(client)) return;
    const key = `${client.policy.kind}:${client.projectId}`;
    if (this.#rooms.get(key) === room) this.#rooms.delete(key);
    this.#dirty.delete(room);
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

/** The frame of a project's current values (one `set` line each), or null when it has none. */
function valuesFrame(values: ReadonlyMap<string, string | number> | undefined): Buffer | null {
  if (!values || values.size === 0) return null;
  const lines: string[] = [];
  for (const [name, value] of values) lines.push(JSON.stringify({ method: 'set', name, value }));
  return Buffer.from(lines.join('\n'));
}

/** The peer's address as the per-address cap counts it. */
function addressOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? '';
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
