/**
 * Refusing a WebSocket upgrade of the cloud server: the same checks `ws` makes before it takes a
 * socket, and an answer in the sandbox's JSON error shape (`{"code","message"}`), written so that
 * a peer that resets the connection meanwhile cannot crash the process.
 */
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** Why an upgrade is refused. */
export interface UpgradeRefusal {
  status: number;
  /** The JSON body's `code`, e.g. `BadRequest`. */
  code: string;
  message: string;
  /** More response headers. */
  headers?: Record<string, string>;
}

/** 16 bytes in base64, as RFC 6455 and `ws` want it. */
const WEBSOCKET_KEY = /^[+/0-9A-Za-z]{22}==$/;

const badRequest = (message: string, headers?: Record<string, string>): UpgradeRefusal => ({
  status: 400,
  code: 'BadRequest',
  message,
  headers,
});

/**
 * What `ws` would refuse in an upgrade request (method, `Upgrade`, `Sec-WebSocket-Key`,
 * `Sec-WebSocket-Version`), or null: checked first so the refusal is JSON, not `ws`'s plain text.
 */
export function upgradeProblem(req: IncomingMessage): UpgradeRefusal | null {
  if (req.method !== 'GET') {
    return {
      status: 405,
      code: 'MethodNotAllowed',
      message: `${req.method} cannot open a WebSocket (use GET)`,
      headers: { Allow: 'GET' },
    };
  }
  const upgrade = req.headers.upgrade;
  if (upgrade === undefined || upgrade.toLowerCase() !== 'websocket') {
    return badRequest('the Upgrade header must be "websocket"');
  }
  const key = req.headers['sec-websocket-key'];
  if (key === undefined || !WEBSOCKET_KEY.test(key)) {
    return badRequest('missing or invalid Sec-WebSocket-Key header (16 random bytes in base64)');
  }
  const version = Number(req.headers['sec-websocket-version']);
  if (version !== 13 && version !== 8) {
    return badRequest('missing or unsupported Sec-WebSocket-Version header (13)', {
      'Sec-WebSocket-Version': '13, 8',
    });
  }
  return null;
}

/** Answers an upgrade request with a JSON error and closes its socket. */
export function refuseUpgrade(socket: Duplex, refusal: UpgradeRefusal): void {
  // Node took the HTTP server's error handler off the socket when it emitted 'upgrade': without
  // one, a peer that resets the connection now raises an uncaught ECONNRESET.
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ code: refusal.code, message: refusal.message });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    Connection: 'close',
    ...refusal.headers,
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n${head}\r\n\r\n${body}`);
}
