/**
 * Issue 10 §2: the sandbox survives hostile clients. Every case goes over real sockets to a real
 * sandbox: slow bodies, huge heads, bytes that are not UTF-8, deep JSON, asset floods, login bursts
 * and keys that name Object's own properties.
 */
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Project } from '../../src/records/records.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { Client, loggedIn, raw } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  // A short request timeout and a small asset quota, so the limits are reached quickly.
  sandbox = await startSandbox({ requestTimeout: 1_000, assetQuota: 300_000 });
});
afterAll(() => sandbox.close());

const md5 = (data: string | Uint8Array) => createHash('md5').update(data).digest('hex');

/**
 * Opens a socket, sends `head`, then `drip` one byte at a time every `everyMs` until the server
 * hangs up (or `giveUpMs` passes). Answers what the server wrote and whether it closed by itself.
 */
function trickle(
  port: number,
  head: string,
  everyMs: number,
  giveUpMs: number,
): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    let answer = '';
    let closedByServer = true;
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => {
      if (socket.writable) socket.write('a');
    }, everyMs);
    const giveUp = setTimeout(() => {
      closedByServer = false;
      socket.destroy();
    }, giveUpMs);
    socket.on('data', (d: Buffer) => {
      answer += d.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ answer, closedByServer });
    });
  });
}

describe('slow and oversized requests', () => {
  it('cuts a body that trickles in with 408 JSON and closes the connection', async () => {
    const client = await loggedIn(sandbox);
    const id = sandbox.samples.fixtureProjects.cloud_variables_simple;
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const head =
      `PUT /projects/${id} HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n` +
      `X-CSRFToken: ${client.cookies.get('scratchcsrftoken')}\r\nContent-Type: application/json\r\n` +
      'Content-Length: 100000\r\n\r\n';
    // One byte every 100 ms would take 10,000 s; the server must hang up long before the 15 s here.
    const { answer, closedByServer } = await trickle(sandbox.port, head, 100, 15_000);
    expect(closedByServer).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as ErrorBody;
    expect(body.code).toBe('RequestTimeout');
  }, 20_000);

  it('cuts headers that trickle in', async () => {
    const { answer, closedByServer } = await trickle(
      sandbox.port,
      'GET /api/health HTTP/1.1\r\nX-Slow: ',
      100,
      15_000,
    );
    expect(closedByServer).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);

  it('closes a connection that never sends a request', async () => {
    // Nothing is written: the server must hang up by itself (the 15 s here is only a backstop).
    const { closedByServer } = await trickle(sandbox.port, '', 60_000, 15_000);
    expect(closedByServer).toBe(true);
  }, 20_000);

  it('answers oversized headers with 431 JSON', async () => {
    const answer = await raw(
      sandbox.port,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('"code":"RequestHeaderFieldsTooLarge"');
    expect((await new Client(sandbox.url).get('/api/health')).status).toBe(200);
  });
});

describe('bodies that are not what they claim', () => {
  it('refuses text that is not valid UTF-8 with 400 and stores nothing', async () => {
    const client = await loggedIn(sandbox);
    const id = sandbox.samples.fixtureProjects.cloud_variables_simple;
    const before = (await client.get(`/api/projects/${id}`)).body as Project;
    // `{"title": "a\xff"}`: a lone 0xFF byte is never UTF-8.
    const bad = new Uint8Array([...Buffer.from('{"title": "a'), 0xff, ...Buffer.from('"}')]);
    const meta = await client.write('PUT', `/api/projects/${id}`, {
      body: bad,
      headers: { 'content-type': 'application/json' },
    });
    expect(meta.status).toBe(400);
    expect((meta.body as ErrorBody).message).toMatch(/UTF-8/);
    const after = (await client.get(`/api/projects/${id}`)).body as Project;
    expect(after.title).toBe(before.title);
    expect(after.history.modified).toBe(before.history.modified);

    const project = new Uint8Array([
      ...Buffer.from('{"targets": [], "meta": {"x": "'),
      0xc3,
      0x28,
      0x22,
      0x7d,
      0x7d,
    ]);
    const save = await client.write('PUT', `/projects/${id}`, {
      body: project,
      headers: { 'content-type': 'application/json' },
    });
    expect(save.status).toBe(400);
    expect((save.body as ErrorBody).message).toMatch(/UTF-8/);
  });

  it('refuses JSON nested too deep with 400, and keeps serving', async () => {
    const client = await loggedIn(sandbox);
    const id = sandbox.samples.fixtureProjects.cloud_variables_simple;
    // 5,000 levels in 10 kB: small enough for every body limit, far past MAX_JSON_DEPTH.
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    for (const [method, path] of [
      ['PUT', `/api/projects/${id}`],
      ['PUT', `/projects/${id}`],
    ] as const) {
      const answer = await client.write(method, path, {
        body: deep,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, path).toBe(400);
      expect((answer.body as ErrorBody).message, path).toMatch(/deeper than 1000/);
    }
    // The case: millions of levels (here 2.5 million, just under the 5 MiB body limit).
    const huge = `${'['.repeat(2_500_000)}${']'.repeat(2_500_000)}`;
    const save = await client.write('PUT', `/projects/${id}`, {
      body: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(save.status).toBe(400);
    expect((save.body as ErrorBody).message).toMatch(/deeper than 1000/);
    const login = await new Client(sandbox.url).request('POST', '/login/', {
      body: `{"username": ${deep}}`,
      headers: { cookie: 'scratchcsrftoken=a', 'x-csrftoken': 'a' },
    });
    expect(login.status).toBe(400);
  });
});

describe('asset limits', () => {
  it('refuses an asset larger than 10 MiB with 413 JSON', async () => {
    const client = await loggedIn(sandbox);
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    const answer = await client.write('POST', `/assets/${md5(big)}.wav`, { body: big });
    expect(answer.status).toBe(413);
    expect((answer.body as ErrorBody).code).toBe('PayloadTooLarge');
  });

  it("refuses uploads past the user's quota with 413 JSON; other users keep theirs", async () => {
    const first = await loggedIn(sandbox, 0);
    const second = await loggedIn(sandbox, 1);
    const blob = (n: number) => new Uint8Array(100_000).fill(n);
    // 300,000 bytes of quota: three distinct 100,000-byte assets fit, the fourth does not.
    for (let i = 1; i <= 3; i++) {
      const data = blob(i);
      expect((await first.write('POST', `/assets/${md5(data)}.wav`, { body: data })).status).toBe(200);
    }
    // Uploading bytes already stored costs nothing.
    const again = blob(1);
    expect((await first.write('POST', `/assets/${md5(again)}.wav`, { body: again })).status).toBe(200);
    const over = blob(4);
    const refused = await first.write('POST', `/assets/${md5(over)}.wav`, { body: over });
    expect(refused.status).toBe(413);
    expect((refused.body as ErrorBody).message).toMatch(/quota/);
    expect((await new Client(sandbox.url).get(`/assets/${md5(over)}.wav`)).status).toBe(404);
    // The quota is per user.
    expect((await second.write('POST', `/assets/${md5(over)}.wav`, { body: over })).status).toBe(200);
  });

  it('holds the quota against concurrent uploads', async () => {
    const third = await loggedIn(sandbox, 2);
    const uploads = Array.from({ length: 8 }, (_, i) => {
      const data = new Uint8Array(100_000).fill(50 + i);
      return third.write('POST', `/assets/${md5(data)}.wav`, { body: data });
    });
    const statuses = (await Promise.all(uploads)).map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 413, 413, 413, 413, 413]);
  });
});

describe('login lock-out under a burst', () => {
  it('counts concurrent attempts, so a correct 10th password after 9 wrong ones is refused', async () => {
    const [, , account] = sandbox.accounts;
    const { username, password } = account!;
    const request = (pass: string) => {
      const body = JSON.stringify({ username, password: pass });
      return (
        'POST /login/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: scratchcsrftoken=a\r\n' +
        'X-CSRFToken: a\r\nX-Requested-With: XMLHttpRequest\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
      );
    };
    // Ten connections open first; then the nine wrong attempts and the right one are written in
    // one go, all of them before the first password hash can finish.
    const sockets = await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket: Socket = connect(sandbox.port, '127.0.0.1', () => resolve(socket));
            socket.on('error', reject);
          }),
      ),
    );
    const answers = sockets.map(
      (socket) =>
        new Promise<string>((resolve) => {
          let out = '';
          socket.on('data', (d: Buffer) => {
            out += d.toString();
          });
          socket.on('close', () => resolve(out));
        }),
    );
    for (const [i, socket] of sockets.entries()) socket.write(request(i === 9 ? password : `wrong-${i}`));
    const texts = await Promise.all(answers);
    expect(texts.map((t) => t.slice(0, 12))).toEqual(Array(10).fill('HTTP/1.1 403'));
    const last = JSON.parse(texts[9]!.slice(texts[9]!.indexOf('\r\n\r\n') + 4)) as Array<{
      success: number;
      msg: string;
    }>;
    expect(last[0]!.success).toBe(0);
    expect(last[0]!.msg).toBe('Too many attempts');
  });
});

describe('keys are own properties only', () => {
  it('refuses metadata fields named after Object.prototype, changing nothing', async () => {
    const client = await loggedIn(sandbox);
    const id = sandbox.samples.fixtureProjects.monitored_variables;
    const before = (await client.get(`/api/projects/${id}`)).body as Project;
    for (const body of [
      '{"constructor": "x"}',
      '{"toString": "x"}',
      '{"__proto__": "x"}',
      '{"hasOwnProperty": "x"}',
      '{"title": "ok", "constructor": "x"}',
    ]) {
      const answer = await client.write('PUT', `/api/projects/${id}`, {
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status, body).toBe(400);
      expect((answer.body as ErrorBody).message, body).toMatch(/unknown field/);
    }
    const after = (await client.get(`/api/projects/${id}`)).body as Project;
    expect(after.title).toBe(before.title);
    expect(after.history.modified).toBe(before.history.modified);
  });

  it('finds no image kind named after Object.prototype', async () => {
    const anon = new Client(sandbox.url);
    const paths = ['/get_image/constructor/1_90x90.png', '/get_image/__proto__/1_90x90.png'];
    paths.push('/images/toString/1_90x90.svg', '/images/hasOwnProperty/1_90x90.svg');
    const answers = await Promise.all(paths.map((path) => anon.get(path)));
    const notFound = { code: 'NotFound', message: '' };
    expect(answers.map((a) => [a.status, a.body])).toEqual(paths.map(() => [404, notFound]));
  });
});
