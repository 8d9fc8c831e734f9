/**
 * The sandbox's comment, social and studio writes on the wire (WIRE.md §2, §11.4-11.6), spoken
 * in raw HTTP: the auth each host asks for, the exact answer text (string project ids, comments
 * without `author.username`, HTML for profile comments), refusals as HTTP 200, and malformed
 * requests answered with 4xx JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../src/records/records.js';
import type { CommentRejection, PostedComment } from '../../src/records/write-records.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { Client, loggedIn } from './helpers.js';

let sandbox: Sandbox;
let demo: Client;
let other: Client;
beforeAll(async () => {
  sandbox = await startSandbox({ commentsPerMinute: 1_000 });
  [demo, other] = await Promise.all([loggedIn(sandbox, 0), loggedIn(sandbox, 1)]);
});
afterAll(() => sandbox.close());

const commentPath = () => `/api/proxy/comments/project/${sandbox.samples.projectWithComments}`;

describe('auth of the new writes', () => {
  const writes = () => {
    const { projectWithComments: pid, studio, otherUser } = sandbox.samples;
    return [
      { name: 'comment', method: 'POST', path: commentPath(), json: { content: 'hi' } },
      { name: 'love', method: 'POST', path: `/api/proxy/projects/${pid}/loves/user/demo_scratcher` },
      {
        name: 'profile comment',
        method: 'POST',
        path: `/site-api/comments/user/${otherUser}/add/`,
        json: { content: 'hi' },
      },
      {
        name: 'follow',
        method: 'PUT',
        path: `/site-api/users/followers/${otherUser}/add/?usernames=demo_scratcher`,
      },
      {
        name: 'invite',
        method: 'PUT',
        path: `/site-api/users/curators-in/${studio}/invite_curator/?usernames=${otherUser}`,
      },
      { name: 'title', method: 'PUT', path: `/site-api/galleries/all/${studio}/`, json: { title: 'x' } },
    ];
  };

  it('401 without a session, 403 without the CSRF header', async () => {
    const anonymous = new Client(sandbox.url);
    await anonymous.csrf();
    for (const w of writes()) {
      expect((await anonymous.write(w.method, w.path, w)).status, w.name).toBe(401);
      const noCsrf = await demo.request(w.method, w.path, { ...w, headers: { 'x-token': demo.token! } });
      expect(noCsrf.status, w.name).toBe(403);
      expect(noCsrf.body).toEqual({ code: 'Forbidden', message: 'CSRF verification failed' });
    }
  });

  it('{api}/proxy writes need the X-Token; studio projects take the X-Token alone', async () => {
    const noToken = await demo.request('POST', commentPath(), {
      json: { content: 'hi' },
      headers: { 'x-csrftoken': demo.cookies.get('scratchcsrftoken')! },
    });
    expect(noToken.status).toBe(401);
    const project = sandbox.samples.fixtureProjects.monitored_variables;
    const path = `/api/studios/${sandbox.samples.studio}/project/${project}`;
    // No cookie, no CSRF: the API host goes by the token.
    const bare = new Client(sandbox.url);
    expect((await bare.request('POST', path)).status).toBe(401);
    const added = await bare.request('POST', path, { headers: { 'x-token': demo.token! } });
    expect(added.status).toBe(200);
    expect(added.text).toBe(
      `{"projectId":"${project}","studioId":${sandbox.samples.studio},"actorId":${await demoId()}}`,
    );
    expect((await bare.request('DELETE', path, { headers: { 'x-token': demo.token! } })).status).toBe(200);
  });

  it('nobody acts for someone else', async () => {
    const pid = sandbox.samples.projectWithComments;
    const love = await demo.write('POST', `/api/proxy/projects/${pid}/loves/user/other_scratcher`);
    expect(love.status).toBe(403);
    const follow = await demo.write(
      'PUT',
      `/site-api/users/followers/StarAnimator/add/?usernames=other_scratcher`,
    );
    expect(follow.status).toBe(403);
    expect((await demo.write('PUT', '/site-api/users/followers/StarAnimator/add/')).status).toBe(400);
    const loved = await demo.get(`/api/projects/${pid}/loves/user/other_scratcher`, {
      headers: { 'x-token': demo.token! },
    });
    expect(loved.status).toBe(403);
    expect((await new Client(sandbox.url).get(`/api/projects/${pid}/loves/user/demo_scratcher`)).status).toBe(
      401,
    );
  });
});

describe('answers on the wire', () => {
  it('a love answers the project id as a string', async () => {
    const pid = sandbox.samples.projectWithComments;
    const answer = await demo.write('POST', `/api/proxy/projects/${pid}/loves/user/demo_scratcher`);
    expect(answer.text).toBe(`{"projectId":"${pid}","userLove":true,"statusChanged":true}`);
    const read = await demo.get(`/api/projects/${pid}/loves/user/demo_scratcher`, {
      headers: { 'x-token': demo.token! },
    });
    expect(read.text).toBe(`{"projectId":"${pid}","userLove":true}`);
    const fav = await demo.write('DELETE', `/api/proxy/projects/${pid}/favorites/user/demo_scratcher`);
    expect(fav.text).toBe(`{"projectId":"${pid}","userFavorite":false,"statusChanged":false}`);
  });

  it('a posted comment has no author.username; ids may come as digit strings or ""', async () => {
    const top = await demo.write('POST', commentPath(), {
      json: { content: 'top', parent_id: '', commentee_id: '' },
    });
    const posted = top.body as PostedComment;
    expect(Object.keys(posted.author).sort()).toEqual(['id', 'image', 'scratchteam']);
    const reply = await other.write('POST', commentPath(), {
      json: { content: 'reply', parent_id: String(posted.id), commentee_id: String(posted.author.id) },
    });
    expect(reply.body).toMatchObject({ parent_id: posted.id, commentee_id: posted.author.id });
  });

  it('refusals are HTTP 200 with `rejected`', async () => {
    for (const [content, code] of [
      ['   ', 'isEmpty'],
      ['x'.repeat(501), 'isTooLong'],
      ['see t.me/somechat', 'hasChatSite'],
    ] as const) {
      const answer = await demo.write('POST', commentPath(), { json: { content } });
      expect(answer.status).toBe(200);
      expect(answer.body as CommentRejection).toEqual({ rejected: code });
    }
  });

  it('malformed comment writes are 4xx JSON', async () => {
    const cases: [unknown, number][] = [
      [{ content: 5 }, 400],
      [{ content: 'hi', parent_id: 'abc' }, 400],
      [{ content: 'hi', parent_id: -3 }, 400],
      [{ content: 'hi', commentee_id: 1 }, 400], // names no user
      [{ content: 'hi', parent_id: 1 }, 404], // no such comment here
      [[1, 2], 400],
    ];
    for (const [json, status] of cases) {
      const answer = await demo.write('POST', commentPath(), { json });
      expect(answer.status, JSON.stringify(json)).toBe(status);
      expect((answer.body as ErrorBody).code).toEqual(expect.any(String));
    }
    const broken = await demo.write('POST', commentPath(), {
      body: '{"content": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect((await demo.write('GET', `${commentPath()}/comment/1`)).status).toBe(405);
    const noId = await demo.write('POST', `/site-api/comments/user/${sandbox.samples.otherUser}/del/`, {
      json: {},
    });
    expect(noId.status).toBe(400);
  });

  it('profile comments answer HTML, escaped; refusals carry error data', async () => {
    const answer = await demo.write('POST', `/site-api/comments/user/${sandbox.samples.otherUser}/add/`, {
      json: { content: '<script>alert(1)</script> & hi', parent_id: '', commentee_id: '' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.text).toMatch(/^<div id="comments-\d+" class="comment " data-comment-id="\d+">/);
    expect(answer.text).toContain(
      '<div class="content">&lt;script&gt;alert(1)&lt;/script&gt; &amp; hi</div>',
    );
    expect(answer.text).not.toContain('<script>');

    const refused = await demo.write('POST', `/site-api/comments/user/${sandbox.samples.otherUser}/add/`, {
      json: { content: 'join discord.gg/x' },
    });
    expect(refused.status).toBe(200);
    expect(refused.text).toBe(
      '<script id="error-data" type="application/json">{"error":"hasChatSite"}</script>\n',
    );
  });

  it('curator and studio-edit refusals: "already a curator" and bad words as a 200, a bad promote as 400', async () => {
    const studio = sandbox.samples.studio;
    const host = await loggedIn(sandbox, 2);
    const invite = await host.write(
      'PUT',
      `/site-api/users/curators-in/${studio}/invite_curator/?usernames=demo_scratcher`,
    );
    expect(invite.status).toBe(200);
    expect(invite.body).toEqual({
      status: 'error',
      message: 'demo_scratcher is already a curator of this studio',
    });
    const promote = await host.write(
      'PUT',
      `/site-api/users/curators-in/${studio}/promote/?usernames=other_scratcher`,
    );
    expect(promote.status).toBe(400);
    expect(promote.body).toEqual({ message: 'other_scratcher is not a curator' });
    const edit = await host.write('PUT', `/site-api/galleries/all/${studio}/`, { json: { title: 'idiot' } });
    expect(edit.status).toBe(200);
    expect(edit.body).toEqual({ errors: ['inappropriate-generic'] });
    const unknown = await host.write(
      'PUT',
      `/site-api/users/curators-in/${studio}/dance/?usernames=other_scratcher`,
    );
    expect(unknown.status).toBe(404);
  });
});

describe('hostile input', () => {
  it('oversized, non-UTF-8, deep and odd bodies are 4xx JSON, and the sandbox keeps serving', async () => {
    const headers = { 'content-type': 'application/json' };
    const huge = await demo.write('POST', commentPath(), {
      body: JSON.stringify({ content: 'x'.repeat(20_000) }),
      headers,
    });
    expect(huge.status).toBe(413);
    const latin1 = await demo.write('POST', commentPath(), {
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
      headers,
    });
    expect(latin1.status).toBe(400);
    const deep = await demo.write('POST', commentPath(), {
      body: `${'['.repeat(2_000)}${']'.repeat(2_000)}`,
      headers,
    });
    expect(deep.status).toBe(400);
    const studio = sandbox.samples.studio;
    const host = await loggedIn(sandbox, 2);
    for (const json of [{ constructor: 'x' }, { ['__proto__']: { title: 'x' } }, { title: 5 }, 'title']) {
      const answer = await host.write('PUT', `/site-api/galleries/all/${studio}/`, { json });
      expect(answer.body, JSON.stringify(json)).toEqual({ errors: ['This field is required.'] });
    }
    for (const path of [
      `/site-api/users/curators-in/${studio}/invite_curator/?usernames=${'%00'.repeat(10)}`,
      `/site-api/users/followers/${'a'.repeat(300)}/add/?usernames=demo_scratcher`,
      `/site-api/comments/user/demo_scratcher/?page=99999999999`,
    ]) {
      const answer = await host.write(path.includes('?page') ? 'GET' : 'PUT', path);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
      expect((answer.body as ErrorBody).code).toEqual(expect.any(String));
    }
    expect((await demo.get('/api/health')).status).toBe(200);
  });

  it('startSandbox checks commentsPerMinute', async () => {
    for (const value of [0, 1.5, 100_001, '5']) {
      await expect(startSandbox({ commentsPerMinute: value as number })).rejects.toThrow(
        /options\.commentsPerMinute must be/,
      );
    }
  });
});

async function demoId(): Promise<number> {
  const info = (await demo.get('/session/')).body as { user: { id: number } };
  return info.user.id;
}
