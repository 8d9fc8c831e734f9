/**
 * The socket lifecycle of one `Cloud`: open, handshake, wait for the server's answer, and after
 * an unexpected close reconnect with jittered exponential backoff (WIRE.md §5): try n waits
 * `random() * (2^min(n, 5) - 1)` base units.
 *
 * **The handshake's answer.** Real servers answer a handshake with one frame of the project's
 * current values, or with nothing at all when the project holds none (TurboWarp's cloud-server
 * says "there will be no response"). So right after the handshake the client sends a ping: a
 * server reads a connection's frames in order and handles the handshake before it reads the
 * ping, so the values frame, if any, comes before the pong. The first message frame before
 * the pong is the current values; the pong with no frame before it means "no values"; frames
 * after it are live traffic. Text that is not a cloud message (a server's warning) is neither.
 * A socket that cannot ping (a WHATWG one) waits for the first message frame, or
 * `initialValuesWaitMs` at most.
 *
 * **Backoff.** The count of failed tries resets only once a connection has stayed up for
 * `stableAfterMs`: a server that takes the handshake and then closes at once (a flapping server
 * or proxy) is retried later and later, up to the cap, not every fraction of a second. From
 * the second failure in a row on, each scheduled retry is reported (`retrying`) with what
 * happened and when the next try is.
 *
 * States: `idle` (no socket wanted), `connecting` (socket opening), `handshaking` (handshake sent,
 * waiting for the first frame), `open` (ready for sets), `waiting` (backoff before the next try),
 * `failed` (closed with a permanent code; only an explicit `open()` starts again).
 */
import { MAX_TIMER_MS } from '../records/validate.js';
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

interface ConnectionConfig {
  url: string;
  /** Headers of each try (read fresh every time: a session may have logged in again). */
  headers: () => Record<string, string>;
  WebSocket?: WebSocketConstructor;
  /** The handshake line, sent first on every socket. */
  handshake: () => string;
  /** The backoff's base unit in milliseconds. */
  reconnectDelayMs: number;
  /**
   * How long to wait for the server's answer to the handshake before going on anyway (the
   * pong to the ping after the handshake normally ends the wait much sooner).
   */
  initialValuesWaitMs: number;
  /** How long a connection must stay up before the count of failed tries starts over. */
  stableAfterMs: number;
  /** Source of jitter in [0, 1). */
  random?: () => number;
}

interface ConnectionHooks {
  /**
   * A frame arrived; `initial` while the handshake's answer (the current values) is awaited.
   * Returns whether the frame held a cloud message: a frame with none (a server's text warning)
   * is not the handshake's answer.
   */
  frame(text: string, initial: boolean): boolean;
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
  /** Tries keep failing (the second in a row or later): says what happened and when the next try is. */
  retrying(error: CloudError): void;
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
/** Retries are reported from this many failures in a row on (one lost connection is routine). */
const REPORT_FROM = 2;

export class CloudConnection {
  readonly #config: ConnectionConfig;
  readonly #hooks: ConnectionHooks;
  #state: ConnectionState = 'idle';
  #socket: CloudSocket | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Tries in a row that did not reach `open`, or whose connection did not stay up `stableAfterMs`. */
  #failures = 0;
  /** When the current connection became ready (`performance.now`). */
  #readyAt = 0;
  /** The token of the ping sent after the handshake, while its answer is awaited. */
  #handshakePing: string | null = null;
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

  /** Bytes the socket holds that the network has not taken yet (0 without a socket). */
  get buffered(): number {
    return this.#socket?.bufferedAmount ?? 0;
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
    this.#handshakePing = null;
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
      this.#handshakePing = this.#pingAfterHandshake(socket);
      // Without a pong to tell "no values" (or if none comes), go on after a while anyway.
      this.#timer = setTimeout(() => {
        this.#timer = null;
        if (current() && this.#state === 'handshaking') this.#becomeReady();
      }, this.#config.initialValuesWaitMs);
    });
    socket.addEventListener('message', (event) => {
      if (!current()) return;
      const initial = this.#state === 'handshaking';
      const answered = this.#hooks.frame(messageText(event.data), initial);
      if (initial && answered && current() && this.#state === 'handshaking') this.#becomeReady();
    });
    socket.addEventListener('error', (event) => {
      if (current()) this.#lastError = messageOf(event.error ?? event.message, CONNECT_FAILED);
    });
    if (typeof socket.on === 'function') {
      socket.on('pong', (data) => {
        if (!current()) return;
        // Only the answer to our own ping counts: servers may also send pongs unasked.
        const token = messageText(data);
        if (token === this.#handshakePing) {
          // The server has handled the handshake and sent no values before this: none to wait for.
          this.#handshakePing = null;
          if (this.#state === 'handshaking') this.#becomeReady();
          return;
        }
        const probe = this.#probe;
        if (probe === null || token !== probe.token) return;
        this.#probe = null;
        probe.answer();
      });
    }
    socket.addEventListener('close', (event) => {
      if (!current()) return;
      this.#socket = null;
      this.#probe = null;
      this.#handshakePing = null;
      this.#clearTimer();
      this.#onClose(event.code ?? 1006, event.reason ?? '');
    });
  }

  /** Pings right after the handshake (see the module's TSDoc); the token, or null when the socket cannot. */
  #pingAfterHandshake(socket: CloudSocket): string | null {
    if (typeof socket.ping !== 'function' || typeof socket.on !== 'function') return null;
    const token = `h${++this.#probeCount}`;
    try {
      socket.ping(token);
    } catch {
      return null;
    }
    return token;
  }

  #becomeReady(): void {
    this.#clearTimer();
    this.#handshakePing = null;
    const reconnected = this.#wasReady;
    this.#state = 'open';
    this.#wasReady = true;
    this.#readyAt = performance.now();
    // The failure count is not reset here: only a connection that stays up earns that.
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
    this.#hooks.ready(reconnected);
  }

  #onClose(code: number, reason: string): void {
    const wasOpen = this.#state === 'open';
    const upMs = wasOpen ? performance.now() - this.#readyAt : 0;
    if (isPermanentCloseCode(code)) {
      const failure = CloudError.fromClose(code, reason, this.#config.url);
      this.#state = 'failed';
      this.#rejectWaiters(failure);
      // `disconnect` is for connections that were ready: a refused handshake is only a failure.
      if (wasOpen) this.#hooks.closed({ code, reason, willReconnect: false });
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
    if (wasOpen && upMs >= this.#config.stableAfterMs) this.#failures = 0;
    this.#failures++;
    const exponent = Math.min(this.#failures, MAX_EXPONENT);
    const unit = this.#config.reconnectDelayMs;
    // Capped at a timer's longest wait: a longer one would fire at once (a reconnect storm).
    const delay = Math.min((this.#config.random ?? Math.random)() * (2 ** exponent - 1) * unit, MAX_TIMER_MS);
    this.#state = 'waiting';
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.#state === 'waiting') this.#dial();
    }, delay);
    if (this.#failures >= REPORT_FROM) {
      const what = wasOpen
        ? `the server closed the connection ${seconds(upMs)} after the handshake (code ${code}${reason ? `, ${JSON.stringify(reason.slice(0, 200))}` : ''})`
        : `a reconnect failed (${this.#lastError || `closed with ${code}${reason ? `, ${JSON.stringify(reason.slice(0, 200))}` : ''}`})`;
      this.#hooks.retrying(
        new CloudError(
          `cloud connection to ${this.#config.url}: ${what}; ${this.#failures} tries in a row without a connection ` +
            `that stayed up ${seconds(this.#config.stableAfterMs)}. Next try in ${seconds(delay)} ` +
            `(waits are random, up to ${seconds((2 ** exponent - 1) * unit)} now and ${seconds((2 ** MAX_EXPONENT - 1) * unit)} at most, ` +
            'until a connection stays up)',
          { closeCode: code === 1006 ? null : code },
        ),
      );
    }
  }
}

/** Milliseconds as seconds for messages: `0.35 s`, `12 s`. */
function seconds(ms: number): string {
  const s = ms / 1000;
  return `${s >= 10 ? Math.round(s) : Number(s.toFixed(2))} s`;
}
