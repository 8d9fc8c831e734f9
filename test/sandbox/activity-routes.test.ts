/**
 * The sandbox's answers of WIRE.md §11 reads, on the wire: who may read what, malformed queries
 * answered with 4xx JSON, HTML where the real site answers HTML, seeded history the same for one
 * seed, and writes leaving their trace in messages and activity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, StudioActivity } from '../../src/records/activity-records.js';
import type { ErrorBody, Project } from '../../src/records/records.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { Client, loggedIn } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe('messages', () => {
  it('answer their owner only: 401 without a login, 403 for someone else', async () => {
    const demo = sandbox.samples.demoUser;
    const anonymous = new Client(sandbox.url);
    expect((await anonymous.request('GET', `/api/users/${demo}/messages`)).status).toBe(401);
    const other = await loggedIn(sandbox, 1);
    const refused = await other.request('GET', `/api/users/${demo}/messages`, {
      headers: { 'x-token': other.token! },
    });
    expect(refused.status).toBe(403);
    expect((refused.body as ErrorBody).code).toBe('Forbidden');
    const own = await loggedIn(sandbox, 0);
    const answer = await own.request('GET', `/api/users/${demo}/messages?limit=40&offset=0`, {
      headers: { 'x-token': own.token! },
    });
    expect(answer.status).toBe(200);
    expect((answer.body as Message[]).length).toBe(40);
  });

  it('refuse a filter, a limit or a dateLimit that is not one', async () => {
    const own = await loggedIn(sandbox, 0);
    const path = `/api/users/${sandbox.samples.demoUser}/messages`;
    const headers = { 'x-token': own.token! };
    for (const query of ['filter=loves', 'limit=41', 'dateLimit=soon']) {
      const answer = await own.request('GET', `${path}?${query}`, { headers });
      expect(answer.status, query).toBe(400);
      expect((answer.body as ErrorBody).code).toBe('BadRequest');
    }
  });

  it('count publicly, count on the site with cookies, and clear with CSRF only', async () => {
    const star = await loggedIn(sandbox, 2);
    const count = await new Client(sandbox.url).request(
      'GET',
      `/api/users/${sandbox.samples.popularUser}/messages/count/`,
    );
    expect(count.body).toEqual({ count: expect.any(Number) });
    expect((await star.request('GET', '/messages/ajax/get-message-count/')).body).toEqual({
      msg_count: (count.body as { count: number }).count,
    });
    // Without the CSRF header the clear is refused, and nothing changes.
    const csrf = star.cookies.get('scratchcsrftoken')!;
    expect((await star.request('POST', '/site-api/messages/messages-clear/')).status).toBe(403);
    const cleared = await star.request('POST', '/site-api/messages/messages-clear/', {
      headers: { 'x-csrftoken': csrf },
    });
    expect(cleared.body).toEqual({ success: true });
    expect((await star.request('GET', '/messages/ajax/get-message-count/')).body).toEqual({ msg_count: 0 });
  });
});

describe('activity', () => {
  it('studio activity: limit at most 40, dateLimit inclusive, offset ignored', async () => {
    const client = new Client(sandbox.url);
    const path = `/api/studios/${sandbox.samples.studio}/activity/`;
    const first = (await client.request('GET', `${path}?limit=5`)).body as StudioActivity[];
    expect(first).toHaveLength(5);
    const next = (
      await client.request('GET', `${path}?limit=5&offset=99&dateLimit=${first[4]!.datetime_created}`)
    ).body as StudioActivity[];
    expect(next[0]!.id).toBe(first[4]!.id);
    expect(first[0]!.datetime_created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await client.request('GET', `${path}?limit=41`)).status).toBe(400);
    expect((await client.request('GET', `${path}?dateLimit=x`)).status).toBe(400);
    expect((await client.request('GET', '/api/studios/1/activity/')).status).toBe(404);
    expect((await client.request('GET', `${path}?dateLimit=2000-01-01T00:00:00.000Z`)).body).toEqual([]);
  });

  it('the feed is its owner’s; a profile’s activity is HTML', async () => {
    const demo = sandbox.samples.demoUser;
    const anonymous = new Client(sandbox.url);
    expect((await anonymous.request('GET', `/api/users/${demo}/following/users/activity`)).status).toBe(401);
    const page = await anonymous.request('GET', `/messages/ajax/user-activity/?user=${demo}&max=3`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text.match(/<li>/g)).toHaveLength(3);
    expect(page.text).toContain('<span class="actor">demo_scratcher</span>');
    expect(page.text).toMatch(/<span class="time">\d+&nbsp;\w+(, \d+&nbsp;\w+)? ago<\/span>/);
    const missing = await anonymous.request('GET', '/messages/ajax/user-activity/?user=nobody_like_this');
    expect([missing.status, missing.headers.get('content-type')]).toEqual([404, 'text/html; charset=utf-8']);
    expect((await anonymous.request('GET', `/messages/ajax/user-activity/?user=${demo}&max=-1`)).status).toBe(
      400,
    );
  });

  it('a shared project shows in its owner’s activity at once', async () => {
    const own = await loggedIn(sandbox, 0);
    const id = sandbox.samples.unsharedProject;
    const shared = await own.request('PUT', `/api/proxy/projects/${id}/share`, {
      headers: { 'x-token': own.token!, 'x-csrftoken': own.cookies.get('scratchcsrftoken')! },
    });
    expect((shared.body as Project).public).toBe(true);
    const page = await own.request(
      'GET',
      `/messages/ajax/user-activity/?user=${sandbox.samples.demoUser}&max=1`,
    );
    expect(page.text).toContain(`shared the project <a href="/projects/${id}/">`);
    expect(page.text).toContain('0&nbsp;minutes ago');
  });
});

describe('statistics and the remix tree', () => {
  it('statistics have the real shapes; monthly-ga counts are digit strings', async () => {
    const client = new Client(sandbox.url);
    const daily = (await client.request('GET', '/statistics/data/daily/')).body as Record<string, number>;
    expect(Object.keys(daily).sort()).toEqual(
      [
        'COMMENT_COUNT',
        'PROFILE_COMMENT_COUNT',
        'PROJECT_COMMENT_COUNT',
        'PROJECT_COUNT',
        'STUDIO_COMMENT_COUNT',
        'STUDIO_COUNT',
        'USER_COUNT',
        '_TS',
      ].sort(),
    );
    const ga = (await client.request('GET', '/statistics/data/monthly-ga/')).body as Record<string, unknown>;
    for (const key of ['pageviews', 'users', 'sessions']) expect(ga[key]).toMatch(/^\d+$/);
    const monthly = (await client.request('GET', '/statistics/data/monthly/')).body as Record<
      string,
      unknown
    >;
    expect((monthly.comment_data as unknown[]).length).toBe(3);
    expect((monthly.activity_data as unknown[]).length).toBe(3);
    expect((monthly.active_user_data as unknown[]).length).toBe(2);
    expect((monthly.project_data as unknown[]).length).toBe(2);
    expect(monthly.country_distribution).toHaveProperty('0');
  });

  it('remixtree/bare is a 404 page', async () => {
    const answer = await new Client(sandbox.url).request(
      'GET',
      `/projects/${sandbox.samples.remixedProject}/remixtree/bare/`,
    );
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('the seeded history is the same for one seed', async () => {
    const again = await startSandbox({ seed: 1 });
    try {
      const read = async (s: Sandbox) => {
        const client = await loggedIn(s, 0);
        const answer = await client.request('GET', `/api/users/${s.samples.demoUser}/messages?limit=40`, {
          headers: { 'x-token': client.token! },
        });
        return (answer.body as Message[]).map(({ id, type, datetime_created }) => ({
          id,
          type,
          datetime_created,
        }));
      };
      expect(await read(again)).toEqual(await read(sandbox));
    } finally {
      await again.close();
    }
  });
});
