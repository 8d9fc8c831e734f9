/**
 * The WebSocket the client drives: `ws` by default, or any WHATWG-style WebSocket the caller
 * passes (it must accept `new WebSocket(url, { headers })`, as undici's does; browsers cannot set
 * headers). Only `readyState`, `send`, `close` and `addEventListener` are needed; `ping` and
 * `on('pong')` are used when the socket has them (`ws` does), to learn which sets arrived.
 */
import { createRequire } from 'node:module';
import type WsWebSocket from 'ws';

// `ws` is loaded on the first connection, not at import: every Session imports this module, and
// most sessions never open a cloud connection.
let wsClass: typeof WsWebSocket | undefined;
function loadWs(): typeof WsWebSocket {
  wsClass ??= createRequire(import.meta.url)('ws') as typeof WsWebSocket;
  return wsClass;
}

/** A WebSocket class: `ws`'s (the default) or a WHATWG-style one such as undici's. */
export type WebSocketConstructor = abstract new (...args: never[]) => unknown;

/** The events the client listens to, as WHATWG and `ws` both deliver them. */
interface SocketEvent {
  data?: unknown;
  code?: number;
  reason?: string;
  message?: string;
  error?: unknown;
}

/** What the client needs of a socket. */
export interface CloudSocket {
  readonly readyState: number;
  /** Bytes queued by `send` that the network has not taken yet (`ws` and WHATWG sockets have it). */
  readonly bufferedAmount?: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: 'open' | 'message' | 'close' | 'error',
    listener: (event: SocketEvent) => void,
  ): void;
  /** Sends a ping with a payload (`ws`; WHATWG sockets have none). */
  ping?(data: string): void;
  /** Listens to pongs (`ws`): `data` is the payload of the ping answered. */
  on?(event: 'pong', listener: (data: unknown) => void): unknown;
}

/** `readyState` of an open socket (the same number in every implementation). */
export const OPEN = 1;

/** Opens a socket with the given headers. */
export function openSocket(
  WebSocket: WebSocketConstructor | undefined,
  url: string,
  headers: Record<string, string>,
): CloudSocket {
  const Ws = loadWs();
  if (WebSocket === undefined || WebSocket === Ws) {
    // No compression: frames are tiny and the platform's servers do not negotiate it anyway.
    return new Ws(url, {
      headers,
      perMessageDeflate: false,
      handshakeTimeout: 15_000,
    }) as unknown as CloudSocket;
  }
  const Ctor = WebSocket as unknown as new (
    url: string,
    init: { headers: Record<string, string> },
  ) => CloudSocket;
  return new Ctor(url, { headers });
}

/** The text of a message event's data (`ws` gives strings for text frames; others may give bytes). */
export function messageText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data))
    return new TextDecoder().decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  if (Array.isArray(data)) return data.map(messageText).join('');
  return String(data);
}
