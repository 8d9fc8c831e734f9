import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { ErrorBody } from '../records.js';
import { HttpError } from './errors.js';
import { json, parseCookies, type Reply } from './http-utils.js';
import type { Router } from './router.js';

/** Options of the HTTP layer. */
export interface ServerOptions {
  /** Milliseconds every answer waits before it is sent (simulated internet). */
  latency: number;
}

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
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void answer(req, res);
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (options.latency > 0) await delay(options.latency);
    let reply: Reply;
    try {
      reply = await route(req);
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

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // node:http drops its own socket error handler before it emits 'upgrade'. Should an upgrade
    // listener write to a socket whose peer has reset it without listening for errors itself,
    // the error would be uncaught and end the process. This listener outlives the upgrade, so
    // such an error only ends that one connection. (Other listeners, ws's included, still run.)
    socket.on('error', () => socket.destroy());
  });

  // A request that is not even HTTP: answer 400 in JSON when the socket still listens.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (err.code !== 'ECONNRESET' && socket.writable) {
      const body = JSON.stringify({
        code: 'BadRequest',
        message: 'malformed HTTP request',
      } satisfies ErrorBody);
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });

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
