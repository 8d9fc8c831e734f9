import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, LoginAnswer, Project, SessionInfo, User } from '../../src/records/records.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { Client, loggedIn } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe('csrf and login', () => {
  it('hands out a CSRF cookie', async () => {
    const client = new Client(sandbox.url);
    const answer = await client.get('/csrf_token/');
    expect(answer.status).toBe(200);
    expect(answer.setCookies).toHaveLength(1);
    expect(answer.setCookies[0]).toMatch(/^scratchcsrftoken=[A-Za-z0-9]{32}; Path=\/$/);
  });

  it('refuses a login without a matching CSRF header', async () => {
    const client = new Client(sandbox.url);
    await client.csrf();
    const { username, password } = sandbox.accounts[0]!;
    const none = await client.request('POST', '/login/', { json: { username, password } });
    expect(none.status).toBe(403);
    expect(none.body).toEqual({ code: 'Forbidden', message: 'CSRF verification failed' } satisfies ErrorBody);
    const wrong = await client.request('POST', '/login/', {
      json: { username, password },
      headers: { 'x-csrftoken': 'not-the-cookie' },
    });
    expect(wrong.status).toBe(403);
    expect(none.setCookies).toEqual([]);
  });

  it('logs in with any case and answers the array with a quoted session cookie', async () => {
    const client = new Client(sandbox.url);
    const { username, password } = sandbox.accounts[0]!;
    const answer = await client.login(username.toUpperCase(), password);
    expect(answer.status).toBe(200);
    const [row] = answer.body as LoginAnswer[];
    expect(row).toMatchObject({
      username: sandbox.samples.demoUser,
      success: 1,
      msg: '',
      messages: [],
    });
    // The keys of the captured answers (test/fixtures/captured/): `num_tries`, this attempt included.
    expect(row!.num_tries).toBe(1);
    expect(row).not.toHaveProperty('redirect');
    expect(typeof row!.token).toBe('string');
    expect(typeof row!.id).toBe('number');
    const cookie = answer.setCookies.find((c) => c.startsWith('scratchsessionsid='));
    expect(cookie).toMatch(/^scratchsessionsid="[^"]+"; Path=\/; HttpOnly; SameSite=Lax$/);
    // The id follows the real three-part shape and carries the username and token in part one.
    const id = cookie!.split('"')[1]!;
    const [p1] = id.split(':');
    const payload = JSON.parse(Buffer.from(p1!, 'base64url').toString('utf8'));
    expect(payload).toMatchObject({
      username: sandbox.samples.demoUser,
      token: row!.token,
      _auth_user_id: String(row!.id),
    });
  });

  it('refuses a wrong password or unknown user with 403 and the reason', async () => {
    const client = new Client(sandbox.url);
    const wrong = await client.login(sandbox.accounts[1]!.username, 'nope');
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual([
      {
        username: sandbox.samples.otherUser,
        num_tries: 1,
        success: 0,
        msg: 'Incorrect username or password.',
        messages: [],
        id: null,
      },
    ]);
    expect(wrong.setCookies).toEqual([]);
    const unknown = await client.login('no_such_user_here', 'x');
    expect(unknown.status).toBe(403);
    expect((unknown.body as LoginAnswer[])[0]!.msg).toBe('Incorrect username or password.');
    // A second try counts: `num_tries` is this name's failures in the window, this one included.
    const again = await client.login(sandbox.accounts[1]!.username, 'nope again');
    expect((again.body as LoginAnswer[])[0]!.num_tries).toBe(2);
    // A seeded user without a password cannot log in either.
    const seeded = await client.login('MittenMod', '');
    expect(seeded.status).toBe(403);
  });

  it('answers 400 JSON to malformed login bodies', async () => {
    const client = new Client(sandbox.url);
    const csrf = await client.csrf();
    const headers = { 'x-csrftoken': csrf, 'content-type': 'application/json' };
    for (const body of ['{"username": ', '[]', '{"username": "a"}', '{"username": 1, "password": "x"}', '']) {
      const answer = await client.request('POST', '/login/', { body, headers });
      expect(answer.status, body).toBe(400);
      expect((answer.body as ErrorBody).code).toBe('BadRequest');
    }
  });

  it('locks a username out after 5 failures in a minute, whatever the case', async () => {
    const client = new Client(sandbox.url);
    const { username, password } = sandbox.accounts[2]!;
    for (let i = 1; i <= 5; i++) {
      const answer = await client.login(i % 2 ? username.toLowerCase() : username, 'wrong');
      expect((answer.body as LoginAnswer[])[0]).toMatchObject({
        success: 0,
        msg: 'Incorrect username or password.',
      });
    }
    const locked = await client.login(username, password);
    expect(locked.status).toBe(403);
    expect((locked.body as LoginAnswer[])[0]).toMatchObject({
      success: 0,
      msg: 'Too many attempts',
      id: null,
    });
    expect(locked.setCookies).toEqual([]);
    // Other users are not affected.
    expect(
      (await new Client(sandbox.url).login(sandbox.accounts[1]!.username, sandbox.accounts[1]!.password))
        .status,
    ).toBe(200);
  });
});

describe('session and logout', () => {
  it('answers flags without a user when there is no live session, as the real site may', async () => {
    const answer = await new Client(sandbox.url).get('/session/');
    expect(answer.status).toBe(200);
    const info = answer.body as SessionInfo;
    expect(Object.keys(info)).toEqual(['flags']);
    expect(info.flags).toMatchObject({
      everything_is_totally_normal: false,
      must_complete_registration: false,
    });
    const forged = await new Client(sandbox.url).get('/session/', {
      headers: { cookie: 'scratchsessionsid="abc:def:ghi"' },
    });
    expect(forged.body).toEqual(info);
  });

  it('answers the session, with the cookie quoted or not', async () => {
    const client = await loggedIn(sandbox);
    const quoted = client.cookies.get('scratchsessionsid')!;
    expect(quoted.startsWith('"')).toBe(true);
    const info = (await client.get('/session/')).body as SessionInfo;
    expect(info.user).toMatchObject({
      username: sandbox.samples.demoUser,
      token: client.token,
      banned: false,
    });
    // The real answer's quirks (WIRE.md §10): extra fields, a protocol-relative thumbnail URL on
    // this host, a join date without a zone.
    expect(info.user).toMatchObject({
      classroomId: null,
      should_vpn: false,
      birthYear: expect.any(Number),
      birthMonth: expect.any(Number),
      gender: expect.any(String),
    });
    expect(info.user!.thumbnailUrl).toBe(
      `${sandbox.url.replace(/^http:/, '')}/get_image/user/${info.user!.id}_32x32.png`,
    );
    expect(info.user!.dateJoined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const profile = (await client.get(`/api/users/${sandbox.samples.demoUser}`)).body as User;
    expect(`${info.user!.dateJoined}.000Z`).toBe(profile.history.joined);
    expect(info.permissions).toMatchObject({ scratcher: true, admin: false });
    expect(info.flags).toMatchObject({
      must_reset_password: false,
      must_complete_registration: false,
      everything_is_totally_normal: false,
    });
    const bare = await new Client(sandbox.url).get('/session/', {
      headers: { cookie: `scratchsessionsid=${quoted.slice(1, -1)}` },
    });
    expect((bare.body as SessionInfo).user!.username).toBe(sandbox.samples.demoUser);
  });

  it('logs out for good: the cookie and the X-Token stop working everywhere', async () => {
    const client = await loggedIn(sandbox);
    const oldCookie = client.cookies.get('scratchsessionsid')!;
    const oldToken = client.token!;
    const csrf = client.cookies.get('scratchcsrftoken')!;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    const refused = await client.request('POST', '/accounts/logout/', {
      body: 'csrfmiddlewaretoken=wrong',
      headers: form,
    });
    expect(refused.status).toBe(403);
    expect(((await client.get('/session/')).body as SessionInfo).user!.username).toBe(
      sandbox.samples.demoUser,
    );

    const out = await client.request('POST', '/accounts/logout/', {
      body: `csrfmiddlewaretoken=${csrf}`,
      headers: form,
    });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({});
    expect(out.setCookies.some((c) => /^scratchsessionsid=.*Max-Age=0/i.test(c))).toBe(true);

    const stale = new Client(sandbox.url);
    stale.cookies.set('scratchsessionsid', oldCookie);
    stale.cookies.set('scratchcsrftoken', csrf);
    stale.token = oldToken;
    expect(((await stale.get('/session/')).body as SessionInfo).user).toBeUndefined();
    // The owner's unshared project is invisible to the dead session, by cookie and by token.
    const unshared = await stale.get(`/api/projects/${sandbox.samples.unsharedProject}`, {
      headers: { 'x-token': oldToken },
    });
    expect(unshared.status).toBe(404);
    const write = await stale.write('PUT', `/api/projects/${sandbox.samples.unsharedProject}`, {
      json: { title: 'x' },
    });
    expect(write.status).toBe(401);
    const project = await new Client(sandbox.url).get(`/api/projects/${sandbox.samples.unsharedProject}`);
    expect(project.status).toBe(404);
  });

  it('accepts the CSRF header instead of the form field on logout', async () => {
    const client = await loggedIn(sandbox, 1);
    const out = await client.write('POST', '/accounts/logout/');
    expect(out.status).toBe(200);
    expect(((await client.get('/session/')).body as SessionInfo).user).toBeUndefined();
    // The owner could read it before; a logged-out client now cannot.
    const again = await client.get(`/api/projects/${sandbox.samples.remixedProject}`);
    expect((again.body as Project).id).toBe(sandbox.samples.remixedProject);
  });
});
