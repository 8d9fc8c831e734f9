/**
 * The socket lifecycle of one `Cloud`: open, handshake, wait for the server's current values,
 * and after an unexpected close reconnect with jittered exponential backoff (WIRE.md §5):
 * try n waits `random() * (2^min(n, 5) - 1)` base units.
 *
 * States: `idle` (no socket wanted), `connecting` (socket opening), `handshaking` (handshake sent,
 * waiting for the first frame), `open` (ready for sets), `waiting` (backoff before the next try),
 * `failed` (closed with a permanent code; only an explicit `open()` starts again).
 */
import { isPermanentCloseCode } from './close-codes.js';
import { CloudError, messageOf } from './cloud-error.js';
import {
  type CloudSocket,
  messageText,
  OPEN,
  openSocket,
  type WebSocketConstructor,
} from './cloud-socket.js';

export type ConnectionState = 'idle' | 'connecting' | 'handshaking' | 'open' | 'waiting' | 'failed';

/** Why a connection went down, as the `disconnect` event reports it. */
export interface DisconnectInfo {
  code: number;
  reason: string;
  willReconnect: boolean;
}

export interface ConnectionConfig {
  url: string;
  /** Headers of each try (read fresh every time: a session may have logged in again). */
  headers: () => Record<string, string>;
  WebSocket?: WebSocketConstructor;
  /** The handshake line, sent first on every socket. */
  handshake: () => string;
  /** The backoff's base unit in milliseconds. */
  reconnectDelayMs: number;
  /** How long to wait for the server's first frame after the handshake before sending anyway. */
  initialValuesWaitMs: number;
  /** Source of jitter in [0, 1). */
  random?: () => number;
}

export interface ConnectionHooks {
  /** A frame arrived; `initial` for the server's first frame after the handshake (its current values). */
  frame(text: string, initial: boolean): void;
  /** The connection is ready for sets. */
  ready(reconnected: boolean): void;
  /** A ready connection went down. */
  closed(info: DisconnectInfo): void;
  /**
   * The server or the network ended a ready connection, and a reconnect follows (called before
   * `closed`). Not called when this side closed it (`restart`, `close`): the server read every
   * frame we sent before our close.
   */
  lost(): void;
  /** The connection stopped for good (permanent close code, or the first try failed). */
  gaveUp(error: CloudError): void;
}

interface Probe {
  readonly token: string;
  readonly answer: () => void;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

const MAX_EXPONENT = 5;
const CONNECT_FAILED = 'connection failed';

export class CloudConnection {
  readonly #config: ConnectionConfig;
  readonly #hooks: ConnectionHooks;
  #state: ConnectionState = 'idle';
  #socket: CloudSocket | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Consecutive tries that did not reach `open`. */
  #failures = 0;
  /** Whether this run (since the last start from idle or failed) has ever been ready. */
  #wasReady = false;
  #lastError = '';
  #waiters: Waiter[] = [];
  /** Settles when the socket we let go of has closed (so `disconnect()` can wait for it). */
  #closing: Promise<void> = Promise.resolve();
  /** The ping out on the current socket, if any. */
  #probe: Probe | null = null;
  #probeCount = 0;

  constructor(config: ConnectionConfig, hooks: ConnectionHooks) {
    this.#config = config;
    this.#hooks = hooks;
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** True when sets can be written now. */
  get ready(): boolean {
    return this.#state === 'open' && this.#socket?.readyState === OPEN;
  }

  /** Connects if needed; settles when ready, or rejects when this run gives up. */
  open(): Promise<void> {
    if (this.ready) return Promise.resolve();
    const promise = this.#wait();
    if (this.#state === 'idle' || this.#state === 'failed') {
      this.#wasReady = false;
      this.#failures = 0;
      this.#dial();
    }
    return promise;
  }

  /** Drops the current socket and connects again now (no backoff); settles when ready. */
  restart(): Promise<void> {
    const wasOpen = this.#state === 'open';
    // From idle or failed this is a new run, as in `open()`: if its first try fails, it rejects
    // instead of retrying forever behind a promise that never settles.
    if (this.#state === 'idle' || this.#state === 'failed') this.#wasReady = false;
    this.#release(1000, 'reconnect');
    if (wasOpen) this.#hooks.closed({ code: 1000, reason: 'reconnect() was called', willReconnect: true });
    const promise = this.#wait();
    this.#failures = 0;
    this.#dial();
    return promise;
  }

  /** Stops everything: no socket, no reconnect. Settles when the socket has closed. */
  close(error: CloudError): Promise<void> {
    const wasOpen = this.#state === 'open';
    this.#release(1000, 'disconnect');
    this.#state = 'idle';
    this.#rejectWaiters(error);
    if (wasOpen) this.#hooks.closed({ code: 1000, reason: 'disconnect() was called', willReconnect: false });
    return this.#closing;
  }

  /** Writes one line if the connection is ready; false when it is not (nothing was written). */
  send(text: string): boolean {
    if (!this.ready) return false;
    this.#socket!.send(text);
    return true;
  }

  /**
   * Pings the server if the socket can (`ws`): `onAnswer` runs when the pong comes back, which
   * the server sends once it has read every frame written before the ping. False when the socket
   * cannot ping or is not ready; a newer probe replaces one still out.
   */
  probe(onAnswer: () => void): boolean {
    const socket = this.#socket;
    if (
      !this.ready ||
      socket === null ||
      typeof socket.ping !== 'function' ||
      typeof socket.on !== 'function'
    ) {
      return false;
    }
    const token = `p${++this.#probeCount}`;
    try {
      socket.ping(token);
    } catch {
      return false;
    }
    this.#probe = { token, answer: onAnswer };
    return true;
  }

  #wait(): Promise<void> {
    return new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  #rejectWaiters(error: Error): void {
    for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
  }

  /** Forgets the current socket (its events become stale) and closes it. */
  #release(code: number, reason: string): void {
    this.#clearTimer();
    const socket = this.#socket;
    this.#socket = null;
    this.#probe = null;
    if (!socket) return;
    this.#closing = new Promise<void>((resolve) => {
      if (socket.readyState === 3) return resolve();
      socket.addEventListener('close', () => resolve());
    });
    try {
      socket.close(code, reason);
    } catch {
      // A socket that is already closing may refuse; it goes away on its own.
    }
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #dial(): void {
    this.#clearTimer();
    this.#state = 'connecting';
    this.#lastError = '';
    let socket: CloudSocket;
    try {
      socket = openSocket(this.#config.WebSocket, this.#config.url, this.#config.headers());
    } catch (error) {
      // A bad URL or refused headers: no retry can fix that.
      const failure = new CloudError(
        `cannot open a cloud connection to ${this.#config.url}: ${messageOf(error, CONNECT_FAILED)}`,
        {
          cause: error,
        },
      );
      this.#state = 'failed';
      this.#rejectWaiters(failure);
      this.#hooks.gaveUp(failure);
      return;
    }
    this.#socket = socket;
    const current = () => this.#socket === socket;
    socket.addEventListener('open', () => {
      if (!current()) return;
      this.#state = 'handshaking';
      socket.send(this.#config.handshake());
      // Servers answer a handshake with the current values; if one sends nothing, go on anyway.
      this.#timer = setTimeout(() => {
        this.#timer = null;
        if (current() && this.#state === 'handshaking') this.#becomeReady();
      }, this.#config.initialValuesWaitMs);
    });
    socket.addEventListener('message', (event) => {
      if (!current()) return;
      const initial = this.#state === 'handshaking';
      this.#hooks.frame(messageText(event.data), initial);
      if (initial && current() && this.#state === 'handshaking') {
        this.#clearTimer();
        this.#becomeReady();
      }
    });
    socket.addEventListener('error', (event) => {
      if (current()) this.#lastError = messageOf(event.error ?? event.message, CONNECT_FAILED);
    });
    if (typeof socket.on === 'function') {
      socket.on('pong', (data) => {
        const probe = this.#probe;
        // Only the answer to our own ping counts: servers may also send pongs unasked.
        if (!current() || probe === null || messageText(data) !== probe.token) return;
        this.#probe = null;
        probe.answer();
      });
    }
    socket.addEventListener('close', (event) => {
      if (!current()) return;
      this.#socket = null;
      this.#probe = null;
      this.#clearTimer();
      this.#onClose(event.code ?? 1006, event.reason ?? '');
    });
  }

  #becomeReady(): void {
    const reconnected = this.#wasReady;
    this.#state = 'open';
    this.#wasReady = true;
    this.#failures = 0;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
    this.#hooks.ready(reconnected);
  }

  #onClose(code: number, reason: string): void {
    const wasOpen = this.#state === 'open';
    if (isPermanentCloseCode(code)) {
      const failure = CloudError.fromClose(code, reason, this.#config.url);
      this.#state = 'failed';
      this.#rejectWaiters(failure);
      this.#hooks.closed({ code, reason, willReconnect: false });
      this.#hooks.gaveUp(failure);
      return;
    }
    if (!this.#wasReady) {
      // The first try of a run failed: say so to the caller instead of retrying in the dark.
      const detail = this.#lastError || `closed with ${code}${reason ? ` (${reason})` : ''}`;
      const failure = new CloudError(`could not connect to ${this.#config.url}: ${detail}`, {
        closeCode: code === 1006 ? null : code,
      });
      this.#state = 'idle';
      this.#rejectWaiters(failure);
      this.#hooks.gaveUp(failure);
      return;
    }
    if (wasOpen) {
      this.#hooks.lost();
      this.#hooks.closed({ code, reason, willReconnect: true });
    }
    this.#failures++;
    const exponent = Math.min(this.#failures, MAX_EXPONENT);
    const delay =
      (this.#config.random ?? Math.random)() * (2 ** exponent - 1) * this.#config.reconnectDelayMs;
    this.#state = 'waiting';
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#state === 'waiting') this.#dial();
    }, delay);
  }
}
