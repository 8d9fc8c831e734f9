import { inspect } from 'node:util';
import { CookieJar } from 'tough-cookie';
import { describe, expect, it } from 'vitest';
import { ApiError, LoginRequiredError, PLATFORM_HOSTS, Session } from '../../src/index.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('Session defaults', () => {
  it('targets the real platform unless told otherwise', () => {
    const session = new Session();
    expect(session.hosts).toEqual(PLATFORM_HOSTS);
    expect(session.apiHost).toBe('https://api.scratch.mit.edu');
    expect(session.loggedIn).toBe(false);
    expect(session.username).toBeNull();
  });

  it('rejects bad options with a clear error', () => {
    expect(() => new Session({ hosts: { api: 'not a url' } })).toThrow(/hosts\.api is not a valid URL/);
    expect(() => new Session({ hosts: { cloudWs: 'http://x' } })).toThrow(/ws: or wss:/);
    // @ts-expect-error: an unknown role
    expect(() => new Session({ hosts: { nope: 'http://x' } })).toThrow(/not a known role/);
    // @ts-expect-error: not a jar
    expect(() => new Session({ jar: {} })).toThrow(TypeError);
  });
});

describe('login', () => {
  it('logs in with the CSRF step and a quoted session cookie', async () => {
    const account = ctx.sandbox.accounts[0]!;
    const session = await ctx.login(0);
    expect(session.loggedIn).toBe(true);
    expect(session.username).toBe(account.username);
    expect(typeof session.userId).toBe('number');
    expect(session.xToken).toMatch(/\w{8,}/);
    expect(session.csrfToken).toMatch(/\w{8,}/);
    const cookie = (await session.jar.getCookies(ctx.sandbox.url)).find((c) => c.key === 'scratchsessionsid');
    expect(cookie?.value).toMatch(/^".+"$/);
  });

  it('refuses a wrong password with ApiError 403 and the reason, never the password', async () => {
    const account = ctx.sandbox.accounts[1]!;
    const password = 'definitely-wrong-password';
    const error = await Session.login(account.username, password, { hosts: ctx.sandbox.hosts }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/incorrect username or password/i);
    expect(`${error.message} ${JSON.stringify(error.body)} ${inspect(error)}`).not.toContain(password);
  });

  it('says so after too many attempts', async () => {
    const username = ctx.sandbox.accounts[1]!.username;
    let last: ApiError | undefined;
    for (let i = 0; i < 6; i++) {
      last = await Session.login(username, `wrong-${i}`, { hosts: ctx.sandbox.hosts }).catch((e) => e);
    }
    expect(last).toBeInstanceOf(ApiError);
    expect(last!.message).toMatch(/too many attempts/i);
    // Even the right password is refused during the lock-out.
    const right = await ctx.login(1).catch((e) => e);
    expect(right.message).toMatch(/too many attempts/i);
  });

  it('validates its arguments before any request', async () => {
    const session = ctx.anonymous();
    await expect(session.login('', 'x')).rejects.toThrow(RangeError);
    // @ts-expect-error: wrong type
    await expect(session.login('demo', 42)).rejects.toThrow(TypeError);
  });

  it('resumes from a serialized jar', async () => {
    const first = await ctx.login(0);
    const saved = JSON.stringify(await first.jar.serialize());
    const restored = new Session({
      hosts: ctx.sandbox.hosts,
      jar: await CookieJar.deserialize(JSON.parse(saved)),
    });
    expect(restored.loggedIn).toBe(false);
    const info = await restored.refreshSession();
    expect(restored.loggedIn).toBe(true);
    expect(restored.username).toBe(first.username);
    expect(info.user?.username).toBe(first.username);
    expect(restored.xToken).toBe(first.xToken);
  });

  it('logs out: the state is cleared and the old cookie is dead on the server', async () => {
    const session = await ctx.login(0);
    const saved = await session.jar.serialize();
    await session.logout();
    expect(session.loggedIn).toBe(false);
    expect(session.username).toBeNull();
    expect(session.xToken).toBeNull();
    expect(session.csrfToken).toBeNull();
    const cookies = await session.jar.getCookies(ctx.sandbox.url);
    expect(cookies.map((c) => c.key)).not.toContain('scratchsessionsid');
    // Replaying the old cookie does not log in.
    const replay = new Session({ hosts: ctx.sandbox.hosts, jar: await CookieJar.deserialize(saved) });
    const info = await replay.refreshSession(); // `{}` or `{ flags }`, as the real site answers
    expect(info.user).toBeUndefined();
    expect(replay.loggedIn).toBe(false);
    expect(replay.loggedIn).toBe(false);
  });

  it('needs a login for authenticated calls', async () => {
    const session = ctx.anonymous();
    expect(() => session.requireAuth()).toThrow(LoginRequiredError);
    expect(() => session.authHeaders()).toThrow(/logged-in session/);
    await expect(session.logout()).rejects.toThrow(LoginRequiredError);
    await expect(session.projects.setTitle(1, 'x')).rejects.toThrow(LoginRequiredError);
  });
});

describe('secrets', () => {
  it('util.inspect, JSON and errors never show the session id, CSRF token or X-Token', async () => {
    const session = await ctx.login(0);
    const cookie = (await session.jar.getCookies(ctx.sandbox.url)).find(
      (c) => c.key === 'scratchsessionsid',
    )!;
    const secrets = [session.xToken!, session.csrfToken!, cookie.value.replace(/"/g, '')];
    const error = await session.users.get('no-such-user-xyz').catch((e) => e);
    // A write to someone else's project: a 403 ApiError built from an authenticated request.
    const [foreign] = await session.users.projects(ctx.sandbox.samples.popularUser, { limit: 1 });
    const writeError = await session.projects.setTitle(foreign!.id, 'x').catch((e) => e);
    expect(writeError).toMatchObject({ status: 403 });
    const texts = [
      inspect(session),
      inspect(session, { depth: 5, showHidden: true }),
      JSON.stringify(session),
      String(session),
      inspect(error),
      inspect(writeError, { depth: 10 }),
    ];
    for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
    expect(inspect(session)).toContain(session.username!);
    expect(inspect(session)).toContain('[redacted]');
  });
});

describe('custom fetch and user agent', () => {
  it('sends every request through the given fetch, with the User-Agent', async () => {
    const { fetch } = await import('undici');
    const seen: { url: string; agent: string | undefined }[] = [];
    const session = ctx.anonymous({
      userAgent: 'scratchlab-tests/1.0',
      fetch: (url, init) => {
        seen.push({ url, agent: init.headers['User-Agent'] });
        return fetch(url, init);
      },
    });
    const user = await session.users.get(ctx.sandbox.samples.demoUser);
    expect(user.username).toBe(ctx.sandbox.samples.demoUser);
    expect(seen).toEqual([
      {
        url: `${ctx.sandbox.hosts.api}/users/${ctx.sandbox.samples.demoUser}`,
        agent: 'scratchlab-tests/1.0',
      },
    ]);
  });
});

describe('general reads', () => {
  it('health, news and featured', async () => {
    const session = ctx.anonymous();
    const health = await session.health();
    const pool = {
      ssl: false,
      destroyed: false,
      min: 0,
      max: 10,
      numUsed: 0,
      numFree: 1,
      pendingAcquires: 0,
      pendingCreates: 0,
    };
    const database = { primary: pool, replica: pool };
    expect(health).toEqual({
      version: ' scratchlab-sandbox',
      uptime: expect.any(Number),
      load: [expect.any(Number), expect.any(Number), expect.any(Number)],
      sql: {
        main: database,
        project_comments: database,
        gallery_comments: database,
        userprofile_comments: database,
      },
      timestamp: expect.any(Number),
      cache: { connected: true, ready: true },
    });
    const news = await session.news();
    expect(news.length).toBeGreaterThanOrEqual(5);
    // Ids beyond 2^53 arrive as strings of their exact digits, smaller ones as numbers.
    for (const item of news) {
      expect(typeof item.id === 'string' ? /^\d{16,}$/.test(item.id) : Number.isSafeInteger(item.id)).toBe(
        true,
      );
    }
    const raw = new TextDecoder().decode((await session.http.request(`${session.apiHost}/news`)).bytes);
    expect([...raw.matchAll(/"id":\s*(\d+)/g)].map((m) => m[1])).toEqual(news.map((item) => String(item.id)));
    expect(news[0]).toMatchObject({
      headline: expect.any(String),
      url: expect.any(String),
    });
    const featured = await session.featured();
    expect(Object.keys(featured)).toContain('community_featured_projects');
    expect(featured.community_featured_projects!.length).toBeGreaterThan(0);
  });

  it('apiGet reads any API path and throws ApiError with the 404 body', async () => {
    const session = ctx.anonymous();
    const user = await session.apiGet<{ username: string }>(`/users/${ctx.sandbox.samples.demoUser}`);
    expect(user.username).toBe(ctx.sandbox.samples.demoUser);
    const error = await caught(session.apiGet('/users/nobody-here-123'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, method: 'GET', body: { code: 'NotFound' } });
    expect(error.url).toBe(`${ctx.sandbox.hosts.api}/users/nobody-here-123`);
    await expect(session.apiGet('users')).rejects.toThrow(TypeError);
  });
});
