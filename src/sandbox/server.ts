import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { ErrorBody } from '../records/records.js';
import { HttpError } from './errors.js';
import { json, parseCookies, type Reply } from './http-utils.js';
import type { Router } from './router.js';

/** Options of the HTTP layer. */
interface ServerOptions {
  /** Milliseconds every answer waits before it is sent (simulated internet). */
  latency: number;
  /**
   * Milliseconds a client has to send a whole request, headers and body; past it the request is
   * answered 408 and the connection closed (a body that trickles in cannot hold a socket).
   */
  requestTimeout?: number;
  /**
   * Open connections at most, upgraded (cloud) ones included; past it new ones are closed at
   * once. Default {@link DEFAULT_MAX_CONNECTIONS}.
   */
  maxConnections?: number;
  /**
   * Decides on each request as it arrives (before the latency): an answer to send instead of
   * routing it (a 429, a block page), or `undefined` to route it.
   */
  admit?: (req: IncomingMessage) => Reply | undefined;
}

/** The default of {@link ServerOptions.maxConnections}: well under a typical file limit. */
const DEFAULT_MAX_CONNECTIONS = 4_096;

/** The default of {@link ServerOptions.requestTimeout}: 30 s, plenty for a 10 MB asset on a slow line. */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** The largest request head (request line and headers) taken; past it the answer is 431. */
const MAX_HEADER_BYTES = 16 * 1024;
/** The most milliseconds a client gets to send its headers (at most the request timeout). */
const HEADERS_TIMEOUT_MS = 10_000;
/** How long an idle keep-alive connection is kept. */
const KEEP_ALIVE_MS = 5_000;

/** A node:http server that routes, delays and never lets a handler take it down. */
export interface SandboxServer {
  server: Server;
  /** Installs the routes (until then every request answers 503). */
  setRouter(router: Router): void;
  /** Stops listening and destroys every open socket, keep-alive and upgraded ones included. */
  close(): Promise<void>;
}

/**
 * Creates the server. Handler errors become JSON answers: an `HttpError` its own status and
 * body, anything else a 500; the server keeps serving either way. Unexpected errors are also
 * emitted as `'handlerError'` on the server, for whoever wants to log them.
 */
export function createSandboxServer(options: ServerOptions): SandboxServer {
  let router: Router | undefined;
  const requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const sockets = new Set<Socket>();

  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      requestTimeout,
      keepAliveTimeout: KEEP_ALIVE_MS,
      // node:http checks the two timeouts on this interval (30 s by default): a short one keeps
      // the cut close to the limit.
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(requestTimeout / 4)),
    },
    (req, res) => {
      void answer(req, res);
    },
  );

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The limit counts requests as they arrive, as a limiter in front of a service does.
    const refusal = options.admit?.(req);
    if (options.latency > 0) await delay(options.latency);
    let reply: Reply;
    try {
      reply = refusal ?? (await route(req));
    } catch (err) {
      reply = errorReply(err);
      if (!(err instanceof HttpError)) server.emit('handlerError', err);
    }
    write(res, reply);
  }

  async function route(req: IncomingMessage): Promise<Reply> {
    if (!router) throw new HttpError(503, 'ServiceUnavailable', 'the sandbox is starting');
    // The request target is split by hand: `new URL` would read `//x/y` as a host name.
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    if (!path.startsWith('/')) throw new HttpError(400, 'BadRequest', 'the request target must be a path');
    const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
    const method = req.method ?? 'GET';
    const match = router.match(method, path);
    if (match.kind === 'none') throw new HttpError(404, 'NotFound', '');
    if (match.kind === 'method') {
      throw new HttpError(405, 'MethodNotAllowed', `${method} is not allowed here`, undefined, {
        Allow: match.allowed.join(', '),
      });
    }
    return match.handler({
      method,
      path,
      query,
      params: match.params,
      cookies: parseCookies(req.headers.cookie),
      raw: req,
    });
  }

  // Sockets are only held for bounded times, but a flood of fresh ones must not run the process
  // out of file descriptors either.
  server.maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // node:http drops its own socket error handler before it emits 'upgrade'. Should an upgrade
    // listener write to a socket whose peer has reset it without listening for errors itself,
    // the error would be uncaught and end the process. This listener outlives the upgrade, so
    // such an error only ends that one connection. (Other listeners, ws's included, still run.)
    socket.on('error', () => socket.destroy());
  });

  // A request node:http refuses before any route sees it: answer in JSON while the socket still
  // listens and no answer has started (408 too slow, 431 head too large, else 400). The answer in
  // progress sits on `_httpMessage`, which node:http's own handler checks the same way.
  server.on(
    'clientError',
    (err: NodeJS.ErrnoException, socket: Socket & { _httpMessage?: ServerResponse }) => {
      if (err.code !== 'ECONNRESET' && socket.writable && !socket._httpMessage?.headersSent) {
        const [status, body] = clientErrorAnswer(err.code);
        const text = JSON.stringify(body);
        socket.end(
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
            `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
        );
      }
      socket.destroy();
    },
  );

  return {
    server,
    setRouter(next) {
      router = next;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

/** The status and JSON body for an error node:http raised while reading a request. */
function clientErrorAnswer(code: string | undefined): [number, ErrorBody] {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return [408, { code: 'RequestTimeout', message: 'the request took too long to arrive' }];
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return [
      431,
      {
        code: 'RequestHeaderFieldsTooLarge',
        message: `request headers larger than ${MAX_HEADER_BYTES} bytes`,
      },
    ];
  }
  return [400, { code: 'BadRequest', message: 'malformed HTTP request' }];
}

function errorReply(err: unknown): Reply {
  if (err instanceof HttpError) return json(err.body, err.status, err.headers);
  const message = err instanceof Error ? err.message : String(err);
  return json(
    { code: 'InternalServerError', message: `the sandbox failed: ${message}` } satisfies ErrorBody,
    500,
  );
}

function write(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.writableEnded) return;
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
  try {
    res.writeHead(reply.status, {
      'Content-Type': reply.contentType,
      'Content-Length': body.byteLength,
      'Cache-Control': 'no-store',
      ...reply.headers,
    });
    res.end(body);
  } catch (err) {
    // Bad header values from a handler: the client still gets an answer.
    if (!res.headersSent) {
      const fallback = JSON.stringify({
        code: 'InternalServerError',
        message: String(err),
      } satisfies ErrorBody);
      res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(fallback);
    } else {
      res.destroy();
    }
  }
}
