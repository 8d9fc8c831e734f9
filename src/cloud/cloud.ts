/**
 * `Cloud`: one project's cloud variables over a WebSocket (WIRE.md §5), plus its log (§6).
 *
 * ```ts
 * const cloud = session.cloud(1234567);
 * cloud.on('set', ({ name, value }) => console.log(name, value));
 * await cloud.setVar('score', 42);        // connects, then sends `☁ score`
 * ```
 */
import { channel } from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { LoginRequiredError } from '../errors.js';
import type { ClientCore } from '../http/client-core.js';
import { SESSION_COOKIE } from '../http/cookies.js';
import { PLATFORM_HOSTS } from '../http/hosts.js';
import { DEFAULT_USER_AGENT, HttpClient } from '../http/http.js';
import type { PagedList } from '../http/paging.js';
import { type RateLimit, resolveRateLimit } from '../http/request-budget.js';
import { tryParseJson } from '../records/json.js';
import type { CloudLogEntry } from '../records/records.js';
import {
  assertBaseUrl,
  assertBoolean,
  assertInteger,
  assertNonEmptyString,
  assertObject,
  assertSeconds,
  describe,
  MAX_TIMER_SECONDS,
} from '../records/validate.js';
import { CLOSE_OVERLOADED } from './close-codes.js';
import { CloudConnection, type ConnectionState, type DisconnectInfo } from './cloud-connection.js';
import { CloudError } from './cloud-error.js';
import { CloudEvents, type CloudEventsOptions } from './cloud-events.js';
import { type CloudLogOptions, cloudLogList } from './cloud-logs.js';
import { CloudPacer } from './cloud-pacer.js';
import type { WebSocketConstructor } from './cloud-socket.js';
import {
  ALTERNATE_LENGTH_LIMIT,
  CLOUD_PREFIX,
  checkName,
  checkValue,
  hasControlCharacters,
  numberText,
  PLATFORM_LENGTH_LIMIT,
  stripPrefix,
} from './cloud-values.js';
import { CloudRequests, type CloudRequestsOptions } from './requests/cloud-requests.js';
import { CloudStorage, type CloudStorageOptions } from './requests/cloud-storage.js';
import { TypedEmitter } from './typed-emitter.js';
import { WriteLedger } from './write-ledger.js';

/** Options of a cloud connection. Times are in seconds. */
export interface CloudOptions {
  /** The WebSocket URL (default: the session's cloud host, else the platform's). */
  host?: string;
  /**
   * Allow text values, not only numbers (default false, on every host). Real servers, the
   * platform's and the alternate one alike, drop a value that is not a number without a word
   * (WIRE.md §5): encode text with `encode()` instead. Set it only for a server known to keep text.
   */
  allowNonNumeric?: boolean;
  /** Longest value in characters (default 256, the platform's limit). */
  lengthLimit?: number;
  /**
   * Least time between two sets, in seconds (default 0.1). Keep at least 0.1 on the platform
   * (WIRE.md §5): a server that finds a connection too fast closes it with 4003. 0 sends as fast
   * as the socket takes sets (for servers without limits, e.g. a sandbox started with
   * `cloudRateLimits: false`).
   */
  rateLimit?: number;
  /** The User-Agent header (default: the session's, else scratchlab's). */
  userAgent?: string;
  /** A `Cookie` header to send as is (a session sends its own on the platform host). */
  cookies?: string;
  /** The WebSocket class (default: `ws`). */
  WebSocket?: WebSocketConstructor;
  /** A logged-in session: its cookie and username on its platform cloud host, its HTTP client for logs. */
  session?: ClientCore;
  /** The base URL of the logs endpoint (default: the session's `cloudHttp` on its platform host). */
  logsHost?: string;
  /**
   * The request budget of the log reads without a session (requests a second, default 10, or
   * `{ perSecond, burst }`; `Infinity` turns it off). With a session, the session's `rateLimit` serves.
   */
  logsRateLimit?: number | RateLimit;
  /** The username of the handshake (default: the session's; on other hosts `player` and 6 digits). */
  username?: string;
  /**
   * Base unit of the reconnect backoff, in seconds (default 1): try n in a row waits
   * `random() * (2^min(n,5) - 1)` units (at most 31 units, and never past 24.8 days).
   * Duration options of a cloud (this, `rateLimit`, `stableAfter`, `initialValuesWait`) are at
   * most 2,147,483 s (about 24.8 days, a timer's longest wait): a longer one is a `RangeError`.
   */
  reconnectDelay?: number;
  /**
   * How long a connection must stay up, in seconds, before the count of failed tries starts over
   * (default 10). A server that takes the handshake and closes at once is retried later and later.
   */
  stableAfter?: number;
  /**
   * The longest wait for the server's answer to a handshake before sending anyway (default 1 s).
   * On `ws` sockets (the default) a ping after the handshake ends it within a round trip, also for
   * a project without values, which real servers answer with nothing; a socket that cannot ping
   * waits for the first frame or this long.
   */
  initialValuesWait?: number;
}

/** Options of `new Cloud(...)`. */
export interface CloudConstructorOptions extends CloudOptions {
  projectId: number | string;
}

/** Options of {@link Cloud.alternate}: who runs the bot and why, as the alternate server requires. */
export interface AlternateCloudOptions extends CloudOptions {
  /** What the bot does, e.g. `"leaderboard"`. */
  purpose: string;
  /** How to reach its owner, e.g. `"@name on the forums"` or an email address. */
  contact: string;
}

/** A value the server sent. `initial` marks the values sent right after a handshake. */
export interface CloudSetEvent {
  name: string;
  value: string;
  initial: boolean;
}

/** A set of this client's, as written to the connection (names without the `☁ ` prefix). */
export interface CloudSentEvent {
  name: string;
  value: string;
}

/** A connection became ready (after its handshake and the server's current values). */
export interface CloudConnectEvent {
  reconnected: boolean;
}

/** A ready connection went down. */
export type CloudDisconnectEvent = DisconnectInfo;

/**
 * Text from the server that is not a cloud message: real servers send such text, e.g. the
 * alternate server's explanation before it closes with 4005. Bounded to 1000 characters.
 */
export interface CloudWarningEvent {
  text: string;
}

/** The events of a {@link Cloud}. */
export type CloudEventMap = {
  /** Another connection set a variable, or the server told its current values after a handshake. */
  set: CloudSetEvent;
  /** One of this client's own sets was written to the server (servers never echo them back). */
  sent: CloudSentEvent;
  /** A connection became ready (after its handshake and the server's answer to it). */
  connect: CloudConnectEvent;
  /** A connection that was ready went down (a refused handshake is an `error` only). */
  disconnect: CloudDisconnectEvent;
  /** The server sent text that is not a cloud message (see {@link CloudWarningEvent}). */
  warning: CloudWarningEvent;
  /**
   * A permanent close (with what to fix), a failed connect, a 4003 "overloaded" close (the
   * connection reconnects; see {@link Cloud}), reconnects that keep failing or connections that
   * keep dropping right after the handshake (from the second in a row: what happened and when
   * the next try is), or a listener that threw.
   */
  error: Error;
};

interface PendingSet {
  name: string;
  value: string;
}

const CLIENT_PRODUCT = 'scratchlab/0.1';
/** The longest warning text kept from a server frame. */
const MAX_WARNING_CHARS = 1000;
/** Cloud messages are flat objects: deeper JSON is not one (and is not worth parsing). */
const MAX_MESSAGE_DEPTH = 4;
const MAX_PROJECT_ID_LENGTH = 100;
// Parentheses and semicolons would break the User-Agent's comment `(Purpose: …; Contact: …)`.
const COMMENT_SEPARATORS = /[();]/;
/** Where each new `Cloud` is announced (see {@link Cloud}); free when nobody subscribes. */
const created = channel('scratchlab:cloud:created');

/**
 * A connection to one project's cloud variables.
 *
 * **Sets across an unexpected close.** The wire has no acknowledgement: a set written just
 * before the server closes the connection (a restart, a 4003 "overloaded" close, a network drop)
 * may never have been read, although its `setVar` promise resolved when it was written. So the
 * client remembers, per variable, the latest value it wrote that is not known to have arrived
 * (see `write-ledger.ts`: confirmed by a WebSocket pong on `ws` sockets when `rateLimit` is
 * above 0; in any case taken as arrived 2 s after it was written). After the reconnect's
 * handshake it compares them with the server's current values: a value the server does not
 * hold is sent again, once, in the original order, ahead of the sets still queued; a value the
 * server holds is not sent twice. Only the
 * latest value of each variable is restored, as a project would see it; a value another
 * connection set after ours (as far as this client saw) is not brought back over it. When the
 * server sends no values after the handshake, or restarted without its values, an unconfirmed
 * value is sent again even if it did arrive before the close: at least once, in that case.
 * `disconnect()` and `reconnect()` close from this side after the server has read everything,
 * so they need no reconcile. A 4003 close (the server finds the connection too fast) is also
 * emitted as `error`, once per close, saying what to fix.
 *
 * **Hosts.** Each new `Cloud` is published as `{ cloud }` on the `node:diagnostics_channel`
 * channel `scratchlab:cloud:created`, so that a host running other people's code (the Jupyter
 * kernel) can close every connection cleanly when it shuts down.
 */
export class Cloud extends TypedEmitter<CloudEventMap> {
  /** The platform's cloud server. */
  static readonly PLATFORM_HOST = PLATFORM_HOSTS.cloudWs;
  /** The alternate (third-party) cloud server, which requires an identifying User-Agent. */
  static readonly ALTERNATE_HOST = 'wss://clouddata.turbowarp.org';

  /** The project id, as the wire carries it (a string). */
  readonly projectId: string;
  /** The WebSocket URL. */
  readonly host: string;
  /** The username of the handshake. */
  readonly username: string;
  /** Longest value in characters. */
  readonly lengthLimit: number;
  /** Least time between two sets, in seconds. */
  readonly rateLimit: number;
  /** Whether text values are allowed. */
  readonly allowNonNumeric: boolean;
  /** The User-Agent sent with the WebSocket request. */
  readonly userAgent: string;

  readonly #session: ClientCore | undefined;
  /** True when the session's cookie is sent (the session's own platform host). */
  readonly #sendsSessionCookie: boolean;
  readonly #cookies: string | undefined;
  readonly #origin: string | undefined;
  readonly #logsHost: string | undefined;
  readonly #values = new Map<string, string>();
  readonly #connection: CloudConnection;
  readonly #pacer: CloudPacer<PendingSet>;
  /** Sets written that are not known to have reached the server (see the class's TSDoc). */
  readonly #ledger: WriteLedger;
  /** Taken from the ledger when a connection was lost: compared with the next handshake's values. */
  #unconfirmed: PendingSet[] = [];
  /** The values of the current handshake's first frame (what the server holds now). */
  #serverValues = new Map<string, string>();
  #http: HttpClient | undefined;
  /** The budget of the log reads' own client (no session). */
  readonly #logsRateLimit: Required<RateLimit>;
  /** Set after a permanent close: sets fail with it until `connect()` is called. */
  #failure: CloudError | null = null;
  /** The start of every set line: `method`, `user` and `project_id`, serialized once. */
  readonly #setHead: string;

  constructor(options: CloudConstructorOptions) {
    super();
    assertObject(options, 'options');
    const session = options.session;
    if (session !== undefined && (session === null || typeof session.requireAuth !== 'function')) {
      throw new TypeError('options.session must be a Session');
    }
    this.projectId = checkProjectId(options.projectId);
    this.host = checkWsUrl(options.host ?? session?.hosts.cloudWs ?? Cloud.PLATFORM_HOST, 'options.host');
    this.#session = session;
    this.#sendsSessionCookie = session !== undefined && this.host === session.hosts.cloudWs;
    if (this.#sendsSessionCookie) session!.requireAuth('a cloud connection to the platform');

    this.lengthLimit = assertInteger(options.lengthLimit ?? PLATFORM_LENGTH_LIMIT, 'options.lengthLimit', 1);
    this.rateLimit = assertSeconds(options.rateLimit ?? 0.1, 'options.rateLimit', 0, MAX_TIMER_SECONDS);
    this.allowNonNumeric = assertBoolean(options.allowNonNumeric ?? false, 'options.allowNonNumeric');

    if (options.username !== undefined) assertNonEmptyString(options.username, 'options.username');
    const username = options.username ?? (this.#sendsSessionCookie ? session!.username! : undefined);
    if (username === undefined && this.host === Cloud.PLATFORM_HOST) {
      throw new TypeError(
        'the platform needs a logged-in user: use session.cloud(projectId), or pass username and cookies',
      );
    }
    this.username = username ?? guestName();

    if (options.userAgent !== undefined) assertHeaderText(options.userAgent, 'options.userAgent', true);
    this.#logsRateLimit = resolveRateLimit(options.logsRateLimit, 'options.logsRateLimit');
    this.userAgent = options.userAgent ?? session?.http.userAgent ?? DEFAULT_USER_AGENT;
    if (options.cookies !== undefined) assertHeaderText(options.cookies, 'options.cookies', true);
    this.#cookies = options.cookies;
    this.#origin = this.#sendsSessionCookie
      ? session!.hosts.site
      : this.host === Cloud.PLATFORM_HOST
        ? PLATFORM_HOSTS.site
        : undefined;
    this.#logsHost =
      options.logsHost !== undefined
        ? checkHttpUrl(options.logsHost, 'options.logsHost')
        : this.#sendsSessionCookie
          ? session!.hosts.cloudHttp
          : this.host === Cloud.PLATFORM_HOST
            ? PLATFORM_HOSTS.cloudHttp
            : undefined;
    if (options.WebSocket !== undefined && typeof options.WebSocket !== 'function') {
      throw new TypeError('options.WebSocket must be a WebSocket class');
    }

    this.#connection = new CloudConnection(
      {
        url: this.host,
        headers: () => this.#headers(),
        WebSocket: options.WebSocket,
        handshake: () =>
          `${JSON.stringify({ method: 'handshake', user: this.username, project_id: this.projectId })}\n`,
        reconnectDelayMs:
          assertSeconds(options.reconnectDelay ?? 1, 'options.reconnectDelay', 0, MAX_TIMER_SECONDS) * 1000,
        initialValuesWaitMs:
          assertSeconds(options.initialValuesWait ?? 1, 'options.initialValuesWait', 0, MAX_TIMER_SECONDS) *
          1000,
        stableAfterMs:
          assertSeconds(options.stableAfter ?? 10, 'options.stableAfter', 0, MAX_TIMER_SECONDS) * 1000,
      },
      {
        frame: (text, initial) => this.#onFrame(text, initial),
        retrying: (error) => this.emit('error', error),
        ready: (reconnected) => {
          this.#reconcile();
          this.emit('connect', { reconnected });
          this.#pacer.wake();
        },
        lost: () => {
          // Keep what an earlier loss left unsent (still queued or still to compare) ahead.
          this.#unconfirmed.push(...this.#ledger.takeUnconfirmed());
        },
        closed: (info) => {
          this.emit('disconnect', info);
          if (info.code === CLOSE_OVERLOADED) this.emit('error', this.#overloadedError(info.reason));
        },
        gaveUp: (error) => {
          if (error.closeCode !== null && this.#connection.state === 'failed') this.#failure = error;
          this.#forgetUnconfirmed();
          this.#pacer.rejectAll(error);
          this.emit('error', error);
        },
      },
    );
    this.#ledger = new WriteLedger({
      // At rateLimit 0 (servers without limits, benchmarks) pings would cost about 15% of the
      // throughput of a burst: there the 2 s window alone decides what is unconfirmed.
      probe: (onAnswer) => this.rateLimit > 0 && this.#connection.probe(onAnswer),
    });
    this.#setHead = `{"method":"set","user":${JSON.stringify(this.username)},"project_id":${JSON.stringify(this.projectId)}`;
    this.#pacer = new CloudPacer<PendingSet>(this.rateLimit * 1000, {
      canSend: () => this.#connection.ready,
      send: (pending) => this.#write(pending),
      buffered: () => this.#connection.buffered,
    });
    if (created.hasSubscribers) created.publish({ cloud: this });
  }

  /**
   * A connection to the alternate server, which asks bots to say what they do and how to reach
   * their owner: the User-Agent becomes `scratchlab/0.1 (Purpose: …; Contact: …)` (or your
   * `userAgent` in place of `scratchlab/0.1`). Values up to 100 000 characters are allowed; like
   * everywhere they must be numeric (that server drops text silently): send text through
   * `encode()`. No platform cookie is ever sent.
   */
  static alternate(projectId: number | string, options: AlternateCloudOptions): Cloud {
    assertObject(options, 'options');
    const { purpose, contact, userAgent, ...rest } = options;
    for (const [name, value] of [
      ['purpose', purpose],
      ['contact', contact],
    ] as const) {
      if (typeof value !== 'string' || value.trim() === '') {
        throw new TypeError(
          `Cloud.alternate needs options.${name}: the alternate server refuses bots that do not say what they do (purpose) and how to reach their owner (contact)`,
        );
      }
      assertHeaderText(value, `options.${name}`);
    }
    const product = userAgent === undefined ? CLIENT_PRODUCT : userAgent;
    assertHeaderText(product, 'options.userAgent', true);
    return new Cloud({
      lengthLimit: ALTERNATE_LENGTH_LIMIT,
      ...rest,
      host: rest.host ?? Cloud.ALTERNATE_HOST,
      projectId,
      userAgent: `${product} (Purpose: ${purpose.trim()}; Contact: ${contact.trim()})`,
    });
  }

  /** True on the platform's cloud server (the real one, or the session's own, e.g. the sandbox's). */
  get isPlatform(): boolean {
    return this.host === Cloud.PLATFORM_HOST || this.#sendsSessionCookie;
  }

  /** Where the connection is: `idle`, `connecting`, `handshaking`, `open`, `waiting` (to reconnect) or `failed`. */
  get state(): ConnectionState {
    return this.#connection.state;
  }

  /** Sets waiting to be sent. */
  get pendingSets(): number {
    return this.#pacer.size;
  }

  /**
   * Connects and handshakes; settles once the server's current values are in (`getVar` sees them).
   * After a permanent close this starts over. Rejects with a {@link CloudError} when the server
   * cannot be reached or refuses the connection.
   */
  connect(): Promise<void> {
    this.#failure = null;
    return this.#connection.open();
  }

  /** Closes the connection; no reconnect follows. Sets not sent yet are rejected with a "disconnected" error. */
  async disconnect(): Promise<void> {
    const error = new CloudError(
      'disconnected: disconnect() was called before this set was sent (call connect() or setVar() to connect again)',
    );
    this.#forgetUnconfirmed();
    const closed = this.#connection.close(error);
    this.#pacer.rejectAll(error);
    await closed;
  }

  /**
   * Drops the connection and connects again now; queued sets are sent after the new handshake.
   * After `disconnect()` or a permanent close it connects like `connect()`, and rejects if that fails.
   */
  reconnect(): Promise<void> {
    this.#failure = null;
    // This side closes, after everything written: the server has read it all.
    this.#ledger.reset();
    return this.#connection.restart();
  }

  /**
   * Sets a variable (name without `☁ `). Calls are sent one at a time, in order, at least
   * `rateLimit` seconds apart; the promise settles when the set was written to the socket.
   * The first call connects. A set written just before the server closes the connection is sent
   * again after the reconnect if the server does not hold it (see {@link Cloud}). A number is
   * written out in full, never in exponent form (`1e21` → `1000000000000000000000`).
   * @throws TypeError / RangeError (as a rejection) for a bad name or value, before anything is sent
   */
  setVar(name: string, value: string | number): Promise<void> {
    // Not `async`: one promise per set, not two (this is the hot path of a burst).
    let pending: PendingSet;
    try {
      pending = { name: checkName(name), value: checkValue(value, this) };
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#enqueue(pending);
  }

  /** Sets several variables in the order of the object's keys. Every value is checked before the first is sent. */
  async setVars(values: Record<string, string | number>): Promise<void> {
    assertObject(values, 'values');
    const pending = Object.entries(values).map(([name, value]) => ({
      name: checkName(name, `name ${JSON.stringify(name)}`),
      value: checkValue(value, this, `value of ${JSON.stringify(name)}`),
    }));
    await Promise.all(pending.map((item) => this.#enqueue(item)));
  }

  /** The latest value seen for a variable since connecting (the server's, another's, or your own set). */
  getVar(name: string): string | undefined {
    return this.#values.get(checkName(name));
  }

  /** Every variable's latest value seen, by name without `☁ `. */
  getAllVars(): Record<string, string> {
    return Object.fromEntries(this.#values);
  }

  /**
   * The project's cloud log, newest first (no login needed). `await` reads one window
   * (`limit`, default 100); `for await` walks it all, 100 entries a request.
   * @throws TypeError when this host has no known logs endpoint (pass the `logsHost` option)
   */
  logs(options: CloudLogOptions = {}): PagedList<CloudLogEntry> {
    assertObject(options, 'options');
    const base = this.#logsHost;
    if (base === undefined) {
      throw new TypeError(
        `no logs endpoint is known for ${this.host}: pass the logsHost option (the base URL of its /logs endpoint)`,
      );
    }
    const url = `${base}/logs`;
    const http = this.#httpClient();
    return cloudLogList(
      (limit, offset, signal) =>
        http.json<unknown>(url, { query: { projectid: this.projectId, limit, offset }, signal }),
      url,
      options,
      (listener) => http.watchRateLimits(listener),
    );
  }

  /**
   * Activity events of the project: from the log (the default on the platform, with users and
   * times) or from this WebSocket (elsewhere; sets only, no user or time).
   */
  events(options: CloudEventsOptions = {}): CloudEvents {
    return new CloudEvents(this, { source: this.isPlatform ? 'logs' : 'websocket', ...options });
  }

  /**
   * A cloud requests host on this connection (WIRE.md §8): register handlers with `request()`,
   * then `start()`. Defaults: requests in `TO_HOST`, answers in `FROM_HOST_1` … `FROM_HOST_9`.
   */
  requests(options: CloudRequestsOptions = {}): CloudRequests {
    return new CloudRequests(this, options);
  }

  /**
   * A cloud storage host on this connection (WIRE.md §9): serves `get`, `set`, `keys`,
   * `database_names` and `ping` from the databases added with `addDatabase()`, once started.
   */
  storage(options: CloudStorageOptions = {}): CloudStorage {
    return new CloudStorage(this, options);
  }

  /** Redacted view for `console.log`: never the cookie. */
  [inspect.custom](): string {
    return `Cloud { project: ${this.projectId}, host: ${this.host}, user: ${JSON.stringify(this.username)}, state: ${this.state} }`;
  }

  /** A JSON view without secrets. */
  toJSON(): { projectId: string; host: string; username: string; state: ConnectionState } {
    return { projectId: this.projectId, host: this.host, username: this.username, state: this.state };
  }

  #enqueue(pending: PendingSet): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    const sent = this.#pacer.enqueue(pending);
    const state = this.#connection.state;
    if (state === 'idle' || state === 'failed') {
      // The first set connects; a failure reaches this set through the pacer's rejection.
      this.#connection.open().catch(() => undefined);
    }
    return sent;
  }

  #write(pending: PendingSet): boolean {
    // The same line as JSON.stringify of { method, user, project_id, name, value }, the keys in the
    // order the site's web client writes them (scratch-gui's cloud provider), built without an
    // object per set. Names and values are checked strings: flat, nothing deep to bound.
    const line = `${this.#setHead},"name":${JSON.stringify(CLOUD_PREFIX + pending.name)},"value":${JSON.stringify(pending.value)}}\n`;
    if (!this.#connection.send(line)) return false;
    this.#values.set(pending.name, pending.value);
    this.#ledger.written(pending.name, pending.value);
    if (this.listenerCount('sent') > 0) this.emit('sent', { name: pending.name, value: pending.value });
    return true;
  }

  /**
   * After a handshake: sends again, ahead of the queue, each value written just before the last
   * lost connection that the server does not hold now (see {@link Cloud}).
   */
  #reconcile(): void {
    const held = this.#serverValues;
    this.#serverValues = new Map();
    const unconfirmed = this.#unconfirmed;
    this.#unconfirmed = [];
    // One entry per variable, the latest, in the order of the writes.
    const latest = new Map<string, PendingSet>();
    for (const item of unconfirmed) {
      latest.delete(item.name);
      latest.set(item.name, item);
    }
    const missing = [...latest.values()].filter((item) => held.get(item.name) !== item.value);
    if (missing.length > 0) this.#pacer.requeue(missing);
  }

  #forgetUnconfirmed(): void {
    this.#unconfirmed = [];
    this.#serverValues = new Map();
    this.#ledger.reset();
  }

  #overloadedError(reason: string): CloudError {
    const said = reason ? `, server said: ${JSON.stringify(reason.slice(0, 200))}` : '';
    return new CloudError(
      `the server closed the connection as overloaded (4003${said}): keep rateLimit ≥ 0.1 s on the platform ` +
        `(this connection's is ${this.rateLimit} s). It reconnects, and the latest value of each variable ` +
        'set just before the close is sent again if the server lacks it',
      { closeCode: CLOSE_OVERLOADED },
    );
  }

  /**
   * Reads a frame: one or more lines, each a JSON message. Returns whether it held a message
   * (see `ConnectionHooks.frame`); lines that are not JSON objects are reported as one `warning`.
   */
  #onFrame(frame: string, initial: boolean): boolean {
    let messages = 0;
    let warning = '';
    for (const line of frame.split('\n')) {
      if (line.trim() === '') continue;
      const message = tryParseJson(line, MAX_MESSAGE_DEPTH);
      if (message === null || typeof message !== 'object' || Array.isArray(message)) {
        if (warning.length < MAX_WARNING_CHARS) warning += (warning ? '\n' : '') + line.trim();
        continue;
      }
      messages++;
      const { method, name, value } = message as Record<string, unknown>;
      // Other methods and shapes are not for this client: skipped, not worth a dropped connection.
      if (method !== 'set' || typeof name !== 'string') continue;
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const bare = stripPrefix(name);
      const text = typeof value === 'number' ? numberText(value) : value;
      const previous = this.#values.get(bare);
      this.#values.set(bare, text);
      if (initial) this.#serverValues.set(bare, text);
      // Another connection's newer value: ours must not come back over it after a reconnect.
      else this.#ledger.overtaken(bare);
      // After a reconnect the server repeats every value: only report what changed meanwhile.
      if (initial && previous === text) continue;
      this.emit('set', { name: bare, value: text, initial });
    }
    if (warning) {
      const bounded =
        warning.length > MAX_WARNING_CHARS ? `${warning.slice(0, MAX_WARNING_CHARS)}…` : warning;
      this.emit('warning', { text: bounded });
    }
    return messages > 0;
  }

  #headers(): Record<string, string> {
    const headers: Record<string, string> = { 'User-Agent': this.userAgent };
    if (this.#origin) headers.Origin = this.#origin;
    const cookies: string[] = [];
    if (this.#sendsSessionCookie) {
      const session = this.#session!;
      const id = session.http.cookie(session.hosts.site, SESSION_COOKIE);
      if (!id) throw new LoginRequiredError('a cloud connection to the platform');
      // The platform quotes the session id; it must go back quoted.
      cookies.push(`${SESSION_COOKIE}=${id.startsWith('"') ? id : `"${id}"`}`);
    }
    if (this.#cookies) cookies.push(this.#cookies);
    if (cookies.length > 0) headers.Cookie = cookies.join('; ');
    return headers;
  }

  #httpClient(): HttpClient {
    if (this.#session) return this.#session.http;
    this.#http ??= new HttpClient({ userAgent: this.userAgent, rateLimit: this.#logsRateLimit });
    return this.#http;
  }
}

function checkProjectId(value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`projectId must be a positive integer, got ${value}`);
    }
    return String(value);
  }
  if (typeof value !== 'string')
    throw new TypeError(`projectId must be a number or a string, got ${describe(value)}`);
  if (
    value === '' ||
    value.length > MAX_PROJECT_ID_LENGTH ||
    /\s/.test(value) ||
    hasControlCharacters(value)
  ) {
    throw new RangeError(
      `projectId must be 1-${MAX_PROJECT_ID_LENGTH} characters without spaces, got ${describe(value)}`,
    );
  }
  return value;
}

function checkWsUrl(value: unknown, name: string): string {
  return assertBaseUrl(value, name, ['ws:', 'wss:']);
}

function checkHttpUrl(value: unknown, name: string): string {
  return assertBaseUrl(value, name, ['http:', 'https:']);
}

function assertHeaderText(value: unknown, name: string, allowSeparators = false): asserts value is string {
  assertNonEmptyString(value, name);
  // Header values must not break lines.
  if (hasControlCharacters(value) || (!allowSeparators && COMMENT_SEPARATORS.test(value))) {
    throw new RangeError(
      `${name} must not contain line breaks or control characters${allowSeparators ? '' : ', parentheses or semicolons'}`,
    );
  }
}

/** A guest name like the alternate server's web client gives: `player` and six digits. */
function guestName(): string {
  return `player${Math.floor(100_000 + Math.random() * 900_000)}`;
}
