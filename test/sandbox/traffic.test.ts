// The sandbox's HTTP rate limit and block, seen from a plain HTTP client (undici's fetch), as a
// client that keeps no budget would see them on the platform.
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

const running: Sandbox[] = [];
async function sandboxWith(options: SandboxOptions): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  running.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

/** `count` GETs of `/api/health` at once; their statuses and Retry-After headers in order. */
async function burst(sandbox: Sandbox, count: number) {
  const answers = await Promise.all(
    Array.from({ length: count }, () => fetch(`${sandbox.hosts.api}/health`)),
  );
  return Promise.all(
    answers.map(async (answer) => ({
      status: answer.status,
      retryAfter: answer.headers.get('retry-after'),
      type: answer.headers.get('content-type'),
      body: await answer.text(),
    })),
  );
}

describe('rateLimit', () => {
  it('is off by default: a burst of 40 all pass', async () => {
    const sandbox = await sandboxWith({});
    const answers = await burst(sandbox, 40);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(sandbox.traffic).toMatchObject({ requests: 40, limited: 0, blocked: 0, rateLimit: null });
  });

  it('answers 429 in JSON past its burst, with the seconds until a request would pass', async () => {
    const sandbox = await sandboxWith({ rateLimit: 2 });
    expect(sandbox.traffic.rateLimit).toEqual({ perSecond: 2, burst: 2, retryAfter: true });
    const answers = await burst(sandbox, 6);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(4);
    for (const answer of refused) {
      expect(answer.type).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toEqual({
        code: 'TooManyRequests',
        message: 'rate limit exceeded: at most 2 requests a second',
      });
      expect(answer.retryAfter).toBe('1');
    }
    expect(sandbox.traffic.limited).toBe(4);
    expect(sandbox.traffic.log().map((entry) => entry.refused)).toEqual([0, 0, 429, 429, 429, 429]);
    expect(sandbox.traffic.log()[0]).toMatchObject({ method: 'GET', path: '/api/health' });
  });

  it('sends a fixed Retry-After, a given text (a date, a broken value), or none', async () => {
    const fixed = await sandboxWith({ rateLimit: { perSecond: 1, burst: 1, retryAfter: 2 } });
    expect((await burst(fixed, 2)).map((answer) => answer.retryAfter)).toEqual([null, '2']);
    const date = 'Thu, 01 Jan 2026 00:00:00 GMT';
    const dated = await sandboxWith({ rateLimit: { perSecond: 1, burst: 1, retryAfter: date } });
    expect((await burst(dated, 2)).map((answer) => answer.retryAfter)).toEqual([null, date]);
    const negative = await sandboxWith({ rateLimit: { perSecond: 1, burst: 1, retryAfter: '-5' } });
    expect((await burst(negative, 2)).map((answer) => answer.retryAfter)).toEqual([null, '-5']);
    const none = await sandboxWith({ rateLimit: { perSecond: 1, burst: 1, retryAfter: false } });
    expect((await burst(none, 2)).map((answer) => [answer.status, answer.retryAfter])).toEqual([
      [200, null],
      [429, null],
    ]);
  });

  it('checks its option, naming it', async () => {
    await expect(startSandbox({ rateLimit: 0 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ rateLimit: { perSecond: 5, burst: 0.5 } })).rejects.toThrow(
      /^options\.rateLimit\.burst must be an integer/,
    );
    await expect(startSandbox({ rateLimit: { perSecond: 5, retryAfter: -1 } })).rejects.toThrow(RangeError);
    await expect(startSandbox({ rateLimit: { perSecond: 5, retryAfter: '' } })).rejects.toThrow(
      /^options\.rateLimit\.retryAfter must be 1 to 64 printable ASCII characters \(a header's text\), got ""$/,
    );
    await expect(
      startSandbox({ rateLimit: { perSecond: 5, retryAfter: 'Thu, 01 Jan 2026 00:00:00 GMT\r\nX: 1' } }),
    ).rejects.toThrow(/got "Thu, 01 Jan 2026 00:00:00 GMT\\r\\nX: 1"$/);
    await expect(
      startSandbox({ rateLimit: { perSecond: 5, retryAfter: '9'.repeat(1_000_000) } }),
    ).rejects.toThrow(/printable ASCII characters \(a header's text\), got 1000000 characters$/);
    await expect(startSandbox({ rateLimit: { perSecond: 5, retryAfter: {} as never } })).rejects.toThrow(
      TypeError,
    );
    await expect(startSandbox({ rateLimit: { perSecond: 5, per: 1 } as never })).rejects.toThrow(
      /^unknown option options\.rateLimit\.per/,
    );
    await expect(startSandbox({ rateLimit: '10' as never })).rejects.toThrow(TypeError);
    await expect(startSandbox({ block: 'yes' as never })).rejects.toThrow(
      /^options\.block must be a boolean/,
    );
  });
});

describe('block', () => {
  it('answers every request with an HTML 403 page, and can be switched at run time', async () => {
    const sandbox = await sandboxWith({ block: true });
    const [answer] = await burst(sandbox, 1);
    expect(answer).toMatchObject({ status: 403, type: 'text/html; charset=utf-8' });
    expect(answer!.body).toMatch(/^<!DOCTYPE html>/);
    expect(answer!.body).toContain('<title>403 Forbidden</title>');
    const login = await fetch(`${sandbox.hosts.site}/login/`, { method: 'POST', body: '{}' });
    expect(login.status).toBe(403);
    await login.text();
    expect(sandbox.traffic).toMatchObject({ requests: 2, blocked: 2 });
    sandbox.traffic.block = false;
    expect((await burst(sandbox, 1))[0]!.status).toBe(200);
  });
});

describe('log', () => {
  it('keeps no class sign-up token of a path', async () => {
    const sandbox = await sandboxWith({});
    const token = sandbox.samples.classroomToken;
    const answer = await fetch(`${sandbox.hosts.api}/classtoken/${token}`);
    expect(answer.status).toBe(200);
    const paths = sandbox.traffic.log().map((entry) => entry.path);
    expect(paths).toEqual(['/api/classtoken/%5Bredacted%5D']);
    expect(JSON.stringify(sandbox.traffic.log())).not.toContain(token);
  });
});
