/**
 * A minimal cookie-keeping HTTP client for the sandbox's own tests. These tests check the server
 * on the wire, so they speak raw HTTP (undici's fetch) instead of going through the SDK.
 */
import { connect, type Socket } from 'node:net';
import { fetch } from 'undici';
import type { LoginAnswer } from '../../src/records/records.js';
import type { Sandbox } from '../../src/sandbox/index.js';

export interface Answer {
  status: number;
  headers: { get(name: string): string | null };
  setCookies: string[];
  text: string;
  /** The parsed JSON, or `undefined` when the answer is not JSON; cast to a `records.ts` type. */
  body: unknown;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  json?: unknown;
  body?: string | Uint8Array;
}

/** One "browser": keeps cookies (raw, quotes included) and the X-Token after a login. */
export class Client {
  readonly cookies = new Map<string, string>();
  token: string | undefined;

  constructor(readonly base: string) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0 && !('cookie' in headers)) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    let body = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(this.base + path, { method, headers, body });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      if (/max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(eq + 1));
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, setCookies, text, body: parsed };
  }

  get(path: string, options?: RequestOptions): Promise<Answer> {
    return this.request('GET', path, options);
  }

  /** Fetches a CSRF cookie; answers its value. */
  async csrf(): Promise<string> {
    await this.get('/csrf_token/');
    return this.cookies.get('scratchcsrftoken')!;
  }

  /** The headers of an authenticated write, as the real web client sends them. */
  authHeaders(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      'x-csrftoken': this.cookies.get('scratchcsrftoken') ?? '',
      'x-requested-with': 'XMLHttpRequest',
      referer: this.base,
    };
    if (this.token) headers['x-token'] = this.token;
    return { ...headers, ...extra };
  }

  async login(username: string, password: string): Promise<Answer> {
    const csrf = this.cookies.get('scratchcsrftoken') ?? (await this.csrf());
    const answer = await this.request('POST', '/login/', {
      json: { username, password },
      headers: { 'x-csrftoken': csrf, 'x-requested-with': 'XMLHttpRequest', referer: this.base },
    });
    if (answer.status === 200) this.token = (answer.body as LoginAnswer[])[0]!.token;
    return answer;
  }

  write(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    return this.request(method, path, { ...options, headers: this.authHeaders(options.headers) });
  }
}

/** A client logged in as one of the sandbox's demo accounts. */
export async function loggedIn(sandbox: Sandbox, index = 0): Promise<Client> {
  const client = new Client(sandbox.url);
  const { username, password } = sandbox.accounts[index]!;
  const answer = await client.login(username, password);
  if (answer.status !== 200) throw new Error(`login failed: ${answer.text}`);
  return client;
}

/**
 * Sends raw bytes over a socket to the sandbox on loopback; answers everything the server wrote
 * back before it closed (or before `timeoutMs` of silence, when the socket is dropped).
 */
export function raw(port: number, bytes: string, timeoutMs = 3_000): Promise<string> {
  return exchange(port, bytes, timeoutMs, false);
}

/**
 * As {@link raw}, but the server must close the connection itself: `timeoutMs` of silence first
 * fails (a bound, not a measure).
 */
export function rawUntilServerCloses(port: number, bytes: string, timeoutMs = 15_000): Promise<string> {
  return exchange(port, bytes, timeoutMs, true);
}

function exchange(port: number, bytes: string, timeoutMs: number, serverMustClose: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (d: Buffer) => {
      out += d.toString();
    });
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
    socket.setTimeout(timeoutMs, () => {
      if (serverMustClose) reject(new Error(`the server kept the connection open past ${timeoutMs} ms`));
      socket.destroy();
    });
  });
}
