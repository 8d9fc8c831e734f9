/**
 * A loopback server that logs any user in (WIRE.md §2) and answers every other request with what
 * the test scripts: for checking the client against recorded real answers, or against failures
 * our sandbox never produces, over real sockets (no stubbed fetch).
 */
import { createServer, type IncomingMessage } from 'node:http';
import { Session } from '../../src/index.js';
import { closeLocal, listenLocal, requestBody } from './local-server.js';

/** What the script answers: a status, a body (JSON unless a string) and its content type. */
export interface FakeAnswer {
  status?: number;
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface FakePlatform {
  base: string;
  /** Every request after the login, as `METHOD /path?query`. */
  hits: string[];
  /** A session logged in as `bot` (user id 7). */
  login(): Promise<Session>;
  close(): Promise<void>;
}

export async function startFakePlatform(
  answer: (req: IncomingMessage, body: string) => FakeAnswer,
): Promise<FakePlatform> {
  const hits: string[] = [];
  let loggingIn = false;
  const server = createServer(async (req, res) => {
    const body = await requestBody(req);
    if (body === null) return;
    const send = ({ status = 200, body: out, contentType, headers = {} }: FakeAnswer) => {
      const text = typeof out === 'string' ? out : JSON.stringify(out);
      res.writeHead(status, { 'content-type': contentType ?? 'application/json', ...headers });
      res.end(text);
    };
    if (req.url === '/csrf_token/') {
      return send({ body: {}, headers: { 'set-cookie': 'scratchcsrftoken=abcdefgh; Path=/' } });
    }
    if (loggingIn && req.url === '/login/') {
      return send({
        body: [{ username: 'bot', token: 'tok-123456', success: 1, msg: '', messages: [], id: 7 }],
        headers: { 'set-cookie': 'scratchsessionsid="sess-123456"; Path=/' },
      });
    }
    if (loggingIn && req.url === '/session/') {
      return send({ body: { user: { id: 7, username: 'bot', token: 'tok-123456' } } });
    }
    hits.push(`${req.method} ${req.url}`);
    send(answer(req, body));
  });
  const base = await listenLocal(server);
  return {
    base,
    hits,
    async login() {
      loggingIn = true;
      try {
        return await Session.login('bot', 'pw', { hosts: { site: base, api: base } });
      } finally {
        loggingIn = false;
      }
    },
    close: () => closeLocal(server),
  };
}
