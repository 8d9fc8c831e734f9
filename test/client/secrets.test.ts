import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ERROR_BODY_CHARS } from '../../src/http/http.js';
import { ApiError, Session } from '../../src/index.js';
import { caught } from '../support/caught.js';
import { closeLocal, listenLocal, requestBody } from '../support/local-server.js';
import { useSandbox } from '../support/sandbox.js';

// A small real site over loopback that logs in like the platform, then echoes the session's
// secrets back in the odd places a real error page or proxy might put them.
const SESSION_ID = '.eJxVjEEKgzAQRe-StQhJTEqX7j1DmMlMjK0YSBQX0rs3Bimm_ab';
const CSRF = 'Qm9vbXNvZnRjc3JmdG9rZW4xMjM0NTY3';
const X_TOKEN = 'a1b2c3d4e5f6:1qZxYw:x-token-secret-value';
const PROJECT_TOKEN = `1732500000_${'ab12'.repeat(32)}`;
const PASSWORD = 'correct horse battery staple';
const SECRETS = [SESSION_ID, CSRF, X_TOKEN, PROJECT_TOKEN, PASSWORD];

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const routes: Record<string, Handler> = {
  '/csrf_token/': (_req, res) => {
    res.writeHead(200, { 'set-cookie': `scratchcsrftoken=${CSRF}; Path=/` });
    res.end();
  },
  '/login/': (_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'set-cookie': `scratchsessionsid="${SESSION_ID}"; Path=/; HttpOnly`,
    });
    // A real answer: no num_tries, a redirect field.
    res.end(JSON.stringify([{ username: 'me', success: 1, msg: '', messages: [], id: 7, redirect: '/' }]));
  },
  '/session/': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        user: {
          id: 7,
          username: 'me',
          token: X_TOKEN,
          thumbnailUrl: '//cdn2.scratch.mit.edu/get_image/user/7_32x32.png',
          dateJoined: '2019-08-24T10:20:30',
          email: 'me@example.com',
          classroomId: null,
          should_vpn: false,
          birthYear: 2000,
        },
        permissions: { scratcher: true },
        flags: { must_complete_registration: false, everything_is_totally_normal: false },
      }),
    );
  },
  '/projects/1': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 1, title: 'P', project_token: PROJECT_TOKEN }));
  },
  // The session id as a value under `detail`.
  '/detail': (_req, res) => json(res, 400, { detail: `session ${SESSION_ID} is not valid here` }),
  // Secrets as keys, and the CSRF token under a header-like key.
  '/keys': (req, res) =>
    json(res, 403, {
      [X_TOKEN]: 'seen',
      'x-csrftoken': CSRF,
      echo: { [`${CSRF}!`]: req.headers['x-token'] },
    }),
  // A non-JSON body that quotes the request's cookies and token.
  '/text': (req, res) => {
    res.writeHead(500, { 'content-type': 'text/html' });
    res.end(`<h1>Oops</h1><pre>cookie: ${req.headers.cookie}\nx-token: ${req.headers['x-token']}</pre>`);
  },
  // A write redirected to a login page whose URL carries the secrets, percent-encoded.
  '/redirect': (_req, res) => {
    const next = encodeURIComponent(`/x?sid=${SESSION_ID}&t=${X_TOKEN}`);
    res.writeHead(302, { location: `/accounts/login/?next=${next}&csrf=${encodeURIComponent(CSRF)}` });
    res.end();
  },
  // A project token, known from an earlier answer, echoed in a 404.
  '/token': (_req, res) => json(res, 404, { code: 'NotFound', message: `no project for ${PROJECT_TOKEN}` }),
  // A huge error page: only its start may be kept.
  '/huge': (_req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`${X_TOKEN} `.repeat(100_000));
  },
};
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

let base = '';
const server = createServer(async (req, res) => {
  const body = await requestBody(req);
  if (body === null) return;
  const path = new URL(req.url!, 'http://x').pathname;
  const route = routes[path];
  if (route) route(req, res, body);
  else json(res, 404, { code: 'NotFound', message: '' });
});

beforeAll(async () => {
  base = await listenLocal(server);
});
afterAll(() => closeLocal(server));

async function loggedIn(): Promise<Session> {
  const session = new Session({ hosts: { site: base, api: base, projects: base }, retries: 0 });
  await session.login('me', PASSWORD);
  return session;
}

/** Every way an error can reach a user: message, fields, inspect, JSON, stack. */
function everything(error: ApiError): string {
  return [
    error.message,
    error.reason,
    error.url,
    JSON.stringify(error.body),
    inspect(error, { depth: Number.POSITIVE_INFINITY }),
    error.stack,
  ].join('\n');
}

describe('ApiError redacts the session’s actual secrets wherever they appear', () => {
  it('logs in against the answer shapes of the real site (no num_tries, a redirect field)', async () => {
    const session = await loggedIn();
    expect(session.loggedIn).toBe(true);
    expect(session.xToken).toBe(X_TOKEN);
  });

  it.each([
    ['a value under detail', '/detail', 'GET'],
    ['keys and header-like keys', '/keys', 'GET'],
    ['a non-JSON body quoting the cookies', '/text', 'GET'],
    ['a redirect Location inside the reason', '/redirect', 'PUT'],
    ['a project token seen earlier', '/token', 'GET'],
  ])('%s', async (_what, path, method) => {
    const session = await loggedIn();
    await session.projects.get(1); // the session now knows this project's token
    const error = await caught(session.authedFetch(`${base}${path}`, { method }));
    expect(error).toBeInstanceOf(ApiError);
    const text = everything(error);
    for (const secret of SECRETS) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(encodeURIComponent(secret));
    }
    expect(text).toContain('[redacted]');
  });

  it('a redirect keeps its readable parts', async () => {
    const session = await loggedIn();
    const error = await caught(session.authedFetch(`${base}/redirect`, { method: 'PUT' }));
    expect(error.status).toBe(302);
    expect(error.reason).toMatch(/^unexpected redirect \(302\) to \/accounts\/login\/\?next=/);
  });

  it('a secret in the query is redacted in the URL, and anonymous reads scrub cookies too', async () => {
    const session = await loggedIn();
    const error = await caught(session.http.request(`${base}/detail`, { query: { token: PROJECT_TOKEN } }));
    expect(error.url).toContain('token=%5Bredacted%5D');
    expect(everything(error)).not.toContain(SESSION_ID);
    expect(everything(error)).not.toContain(PROJECT_TOKEN);
  });

  it('cookies that are not credentials are not scrubbed from messages', async () => {
    const session = await loggedIn();
    await session.jar.setCookie('scratchlanguage=session; Path=/', base);
    await session.jar.setCookie('scratchpolicyseen=is not valid; Path=/', base);
    const error = await caught(session.authedFetch(`${base}/detail`));
    expect(error.reason).toBe('session [redacted] is not valid here');
  });

  it('keeps only the first 64 KiB of a long error body', async () => {
    const session = await loggedIn();
    const error = await caught(session.authedFetch(`${base}/huge`));
    expect(typeof error.body).toBe('string');
    expect((error.body as string).length).toBeLessThanOrEqual(MAX_ERROR_BODY_CHARS);
    expect(everything(error)).not.toContain(X_TOKEN);
  });

  it('a refused login never shows the password', async () => {
    const real = routes['/login/']!;
    routes['/login/'] = (_req, res, body) =>
      json(res, 403, [{ success: 0, msg: `wrong password for ${body}`, detail: PASSWORD }]);
    try {
      const session = new Session({ hosts: { site: base }, retries: 0 });
      const error = await caught(session.login('me', PASSWORD));
      expect(error.status).toBe(403);
      expect(everything(error)).not.toContain(PASSWORD);
    } finally {
      routes['/login/'] = real;
    }
  });
});

describe('returned values that hold a token print without it', () => {
  it('refreshSession()’s answer: inspect and JSON hide the X-Token, the value keeps it', async () => {
    const session = new Session({ hosts: { site: base, api: base }, retries: 0 });
    const info = await session.refreshSession();
    expect(info.user?.token).toBe(X_TOKEN); // still readable on purpose
    expect(inspect(info, { depth: 10 })).not.toContain(X_TOKEN);
    expect(inspect(info, { depth: 10 })).toContain("token: '[redacted]'");
    expect(inspect({ wrapped: info }, { depth: 10 })).not.toContain(X_TOKEN);
    expect(JSON.stringify(info)).not.toContain(X_TOKEN);
    expect(inspect(info)).toContain("username: 'me'");
  });

  it('authHeaders() print without the X-Token and CSRF token, and still send them', async () => {
    const session = await loggedIn();
    const headers = session.authHeaders();
    expect(headers['X-Token']).toBe(X_TOKEN);
    expect(inspect(headers)).not.toContain(X_TOKEN);
    expect(inspect(headers)).not.toContain(CSRF);
    expect(JSON.stringify(headers)).not.toContain(X_TOKEN);
    expect({ ...headers }['X-Token']).toBe(X_TOKEN);
  });

  it('a project with its project_token', async () => {
    const session = new Session({ hosts: { site: base, api: base }, retries: 0 });
    const project = await session.projects.get(1);
    expect(project.project_token).toBe(PROJECT_TOKEN);
    expect(inspect(project)).not.toContain(PROJECT_TOKEN);
    expect(JSON.stringify([project])).not.toContain(PROJECT_TOKEN);
  });
});

describe('the sandbox', () => {
  const ctx = useSandbox();
  it('prints session.refreshSession() without the X-Token', async () => {
    const session = await ctx.login(0);
    const info = await session.refreshSession();
    expect(session.xToken).toBeTruthy();
    expect(inspect(info, { depth: 10 })).not.toContain(session.xToken!);
  });
});
