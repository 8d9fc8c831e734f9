import { fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Comment,
  ErrorBody,
  Featured,
  NewsItem,
  Project,
  Studio,
  StudioProject,
  User,
} from '../../src/records/records.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { Client, loggedIn } from './helpers.js';

let sandbox: Sandbox;
let anon: Client;
beforeAll(async () => {
  sandbox = await startSandbox();
  anon = new Client(sandbox.url);
});
afterAll(() => sandbox.close());

const NOT_FOUND: ErrorBody = { code: 'NotFound', message: '' };

describe('hosts', () => {
  it('lays every role out on one port', () => {
    const { url, port, hosts } = sandbox;
    expect(url).toBe(`http://127.0.0.1:${port}`);
    expect(hosts).toEqual({
      site: url,
      api: `${url}/api`,
      projects: `${url}/projects`,
      assets: `${url}/assets`,
      cloudHttp: `${url}/clouddata`,
      cloudWs: `ws://127.0.0.1:${port}/clouddata`,
      backpack: `${url}/backpack`,
    });
  });
});

describe('users', () => {
  it('answers a user record, case-insensitively, in canonical case', async () => {
    const answer = await anon.get(`/api/users/${sandbox.samples.demoUser.toUpperCase()}`);
    expect(answer.status).toBe(200);
    const user = answer.body as User;
    expect(Object.keys(user).sort()).toEqual(['history', 'id', 'profile', 'scratchteam', 'username']);
    expect(user.username).toBe(sandbox.samples.demoUser);
    expect(Object.keys(user.profile).sort()).toEqual(['bio', 'country', 'id', 'images', 'status']);
    expect(user.profile.images['90x90']).toBe(`${sandbox.url}/get_image/user/${user.id}_90x90.png`);
    expect(Date.parse(user.history.joined)).toBeGreaterThan(Date.UTC(2012, 0, 1));
  });

  it('serves the generated avatar the record points at', async () => {
    const user = (await anon.get(`/api/users/${sandbox.samples.demoUser}`)).body as User;
    // A real PNG of the size the name says (IHDR width and height), as the CDN serves.
    const res = await fetch(user.profile.images['90x90']!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([90, 90]);
    // A `?v=` query is ignored, as by the CDN; the older SVG names still answer.
    expect((await anon.get(`/get_image/user/${user.id}_90x90.png?v=123`)).status).toBe(200);
    const svg = await anon.get(`/images/user/${user.id}_90x90.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.text).toMatch(/^<svg [^>]*width="90" height="90"/);
    expect((await anon.get('/get_image/user/1_90x90.png')).status).toBe(404);
    expect((await anon.get('/images/user/1_90x90.svg')).status).toBe(404);
  });

  it('has a popular user with 2,000+ followers, all reachable by paging', async () => {
    const seen = new Set<number>();
    for (let offset = 0; ; offset += 40) {
      const rows = (
        await anon.get(`/api/users/${sandbox.samples.popularUser}/followers?limit=40&offset=${offset}`)
      ).body as User[];
      for (const row of rows) seen.add(row.id);
      if (rows.length < 40) break;
    }
    expect(seen.size).toBeGreaterThanOrEqual(2000);
  });

  it('lists following, favourites and shared projects only', async () => {
    const following = (await anon.get(`/api/users/${sandbox.samples.demoUser}/following`)).body as User[];
    expect(following.map((u) => u.username)).toEqual(
      expect.arrayContaining([sandbox.samples.popularUser, sandbox.samples.otherUser]),
    );
    const projects = (await anon.get(`/api/users/${sandbox.samples.demoUser}/projects?limit=40`))
      .body as Project[];
    const ids = projects.map((p) => p.id);
    expect(ids).toContain(sandbox.samples.fixtureProjects.cloud_variables_simple);
    expect(ids).not.toContain(sandbox.samples.unsharedProject);
    expect(projects.every((p) => p.public && p.is_published && p.history.shared !== null)).toBe(true);
    // Even the owner does not see unshared projects in the public list.
    const owner = await loggedIn(sandbox);
    const own = (await owner.get(`/api/users/${sandbox.samples.demoUser}/projects?limit=40`))
      .body as Project[];
    expect(own.map((p) => p.id)).not.toContain(sandbox.samples.unsharedProject);
    const favourites = await anon.get(`/api/users/${sandbox.samples.otherUser}/favorites`);
    expect(favourites.status).toBe(200);
    expect(Array.isArray(favourites.body)).toBe(true);
  });

  it('answers 404 with the real body for a missing user', async () => {
    for (const path of ['/api/users/nobody_by_that_name', '/api/users/nobody_by_that_name/followers']) {
      const answer = await anon.get(path);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(NOT_FOUND);
    }
  });
});

describe('projects', () => {
  it('answers a project record with a project token', async () => {
    const id = sandbox.samples.fixtureProjects.cloud_variables_simple;
    const project = (await anon.get(`/api/projects/${id}`)).body as Project;
    expect(Object.keys(project).sort()).toEqual(
      [
        'author',
        'comments_allowed',
        'description',
        'history',
        'id',
        'image',
        'images',
        'instructions',
        'is_published',
        'project_token',
        'public',
        'remix',
        'stats',
        'title',
        'visibility',
      ].sort(),
    );
    expect(project).toMatchObject({ id, title: 'Cloud Variables Demo', public: true, visibility: 'visible' });
    // The real author block's placeholders (WIRE.md §10).
    expect(project.author).toMatchObject({
      username: sandbox.samples.demoUser,
      scratchteam: false,
      history: { joined: '1900-01-01T00:00:00.000Z' },
      profile: { id: null },
    });
    expect(project.project_token).toMatch(/^\d{10}_[0-9a-f]{128}$/);
    expect(project.image).toBe(`${sandbox.url}/get_image/project/${id}_480x360.png`);
    expect(Object.keys(project.stats).sort()).toEqual(['favorites', 'loves', 'remixes', 'views']);
  });

  it('hides an unshared project from everyone but its owner', async () => {
    const id = sandbox.samples.unsharedProject;
    const answer = await anon.get(`/api/projects/${id}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(NOT_FOUND);
    const other = await loggedIn(sandbox, 1);
    expect((await other.get(`/api/projects/${id}`)).status).toBe(404);
    const owner = await loggedIn(sandbox);
    // By cookie, and by X-Token alone.
    const mine = (await owner.get(`/api/projects/${id}`)).body as Project;
    expect(mine).toMatchObject({ id, public: false, is_published: false, history: { shared: null } });
    expect(mine.project_token).toMatch(/^\d+_[0-9a-f]{128}$/);
    const byToken = await new Client(sandbox.url).get(`/api/projects/${id}`, {
      headers: { 'x-token': owner.token! },
    });
    expect(byToken.status).toBe(200);
  });

  it('follows a remix chain of depth 3 to its root', async () => {
    let project = (await anon.get(`/api/projects/${sandbox.samples.remixedProject}`)).body as Project;
    const root = project.remix.root;
    let depth = 0;
    while (project.remix.parent !== null) {
      const parentId = project.remix.parent;
      expect(project.remix.root).toBe(root);
      const remixes = (await anon.get(`/api/projects/${parentId}/remixes?limit=40`)).body as Project[];
      expect(remixes.map((p) => p.id)).toContain(project.id);
      project = (await anon.get(`/api/projects/${parentId}`)).body as Project;
      depth++;
    }
    expect(depth).toBeGreaterThanOrEqual(3);
    expect(project.id).toBe(root);
    expect(project.stats.remixes).toBeGreaterThanOrEqual(1);
  });

  it('answers 404 for missing, non-numeric and huge ids', async () => {
    for (const id of ['1', 'abc', '99999999999999999999', '-5', '1.5', '0x10']) {
      const answer = await anon.get(`/api/projects/${id}`);
      expect(answer.status, id).toBe(404);
      expect(answer.body).toEqual(NOT_FOUND);
    }
  });

  it('lists comments with reply counts, and their replies', async () => {
    const id = sandbox.samples.projectWithComments;
    const project = (await anon.get(`/api/projects/${id}`)).body as Project;
    const base = `/api/users/${project.author.username}/projects/${id}/comments`;
    const comments = (await anon.get(`${base}?limit=40`)).body as Comment[];
    expect(comments.length).toBeGreaterThanOrEqual(10);
    expect(comments.every((c) => c.parent_id === null && typeof c.reply_count === 'number')).toBe(true);
    expect(Object.keys(comments[0]!).sort()).toEqual(
      [
        'author',
        'commentee_id',
        'content',
        'datetime_created',
        'datetime_modified',
        'id',
        'parent_id',
        'reply_count',
        'visibility',
      ].sort(),
    );
    const dates = comments.map((c) => Date.parse(c.datetime_created));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const threaded = comments.find((c) => c.reply_count > 0)!;
    const replies = (await anon.get(`${base}/${threaded.id}/replies`)).body as Comment[];
    expect(replies).toHaveLength(threaded.reply_count);
    expect(replies.every((r) => r.parent_id === threaded.id && r.reply_count === 0)).toBe(true);
    expect((await anon.get(`/api/users/${sandbox.samples.otherUser}/projects/${id}/comments`)).status).toBe(
      404,
    );
    expect((await anon.get(`${base}/1/replies`)).status).toBe(404);
  });
});

describe('studios', () => {
  it('answers a studio and its lists', async () => {
    const id = sandbox.samples.studio;
    const studio = (await anon.get(`/api/studios/${id}`)).body as Studio;
    expect(studio).toMatchObject({ id, public: true, visibility: 'visible' });
    const projects = (await anon.get(`/api/studios/${id}/projects?limit=40`)).body as StudioProject[];
    expect(projects.length).toBe(studio.stats.projects);
    expect(Object.keys(projects[0]!).sort()).toEqual(
      ['actor_id', 'avatar', 'creator_id', 'id', 'image', 'title', 'username'].sort(),
    );
    const managers = (await anon.get(`/api/studios/${id}/managers`)).body as User[];
    expect(managers[0]!.id).toBe(studio.host);
    expect(managers).toHaveLength(studio.stats.managers);
    const curators = (await anon.get(`/api/studios/${id}/curators?limit=40`)).body as User[];
    expect(curators.map((u) => u.username)).toContain(sandbox.samples.demoUser);
    const comments = (await anon.get(`/api/studios/${id}/comments`)).body as Comment[];
    expect(comments.length).toBeGreaterThan(0);
    expect((await anon.get('/api/studios/123/comments')).body).toEqual(NOT_FOUND);
  });
});

describe('paging', () => {
  it('defaults to 20 and caps limit at 40', async () => {
    const path = `/api/users/${sandbox.samples.popularUser}/followers`;
    expect(((await anon.get(path)).body as User[]).length).toBe(20);
    expect(((await anon.get(`${path}?limit=40`)).body as User[]).length).toBe(40);
    const over = await anon.get(`${path}?limit=41`);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ code: 'BadRequest', message: 'limit must be between 1 and 40' });
    for (const query of [
      'limit=0',
      'limit=-1',
      'limit=abc',
      'limit=2.5',
      'offset=-1',
      'offset=x',
      'offset=1e3',
    ]) {
      const answer = await anon.get(`${path}?${query}`);
      expect(answer.status, query).toBe(400);
      expect((answer.body as ErrorBody).code).toBe('BadRequest');
    }
  });

  it('pages without overlap', async () => {
    const path = `/api/users/${sandbox.samples.popularUser}/followers`;
    const first = (await anon.get(`${path}?limit=5&offset=0`)).body as User[];
    const second = (await anon.get(`${path}?limit=5&offset=5`)).body as User[];
    const both = (await anon.get(`${path}?limit=10`)).body as User[];
    expect([...first, ...second].map((u) => u.id)).toEqual(both.map((u) => u.id));
    expect((await anon.get(`${path}?offset=100000`)).body).toEqual([]);
  });
});

describe('search and explore', () => {
  it('searches title, description and instructions case-insensitively', async () => {
    const rows = (await anon.get('/api/search/projects?q=CLOUD%20variables&limit=40')).body as Project[];
    expect(rows.map((p) => p.id)).toContain(sandbox.samples.fixtureProjects.cloud_variables_simple);
    const byInstructions = (await anon.get('/api/search/projects?q=reach%20the%20flag&limit=40'))
      .body as Project[];
    expect(byInstructions.length).toBeGreaterThan(0);
    expect((await anon.get('/api/search/projects?q=zzqqxx_nothing')).body).toEqual([]);
  });

  it('orders popular by loves and trending differently, deterministically', async () => {
    const popular = (await anon.get('/api/explore/projects?q=*&limit=40')).body as Project[];
    expect(popular).toHaveLength(40);
    const loves = popular.map((p) => p.stats.loves);
    expect(loves).toEqual([...loves].sort((a, b) => b - a));
    const trending = (await anon.get('/api/explore/projects?q=*&mode=trending&limit=40')).body as Project[];
    expect(trending.map((p) => p.id)).not.toEqual(popular.map((p) => p.id));
    const again = (await anon.get('/api/explore/projects?q=*&mode=trending&limit=40')).body as Project[];
    expect(again.map((p) => p.id)).toEqual(trending.map((p) => p.id));
    const bad = await anon.get('/api/explore/projects?mode=random');
    expect(bad.status).toBe(400);
    expect((bad.body as ErrorBody).message).toMatch(/mode/);
  });

  it('filters by category and language', async () => {
    const games = (await anon.get('/api/explore/projects?q=games&limit=40')).body as Project[];
    const all = (await anon.get('/api/explore/projects?q=*&limit=40')).body as Project[];
    expect(games.length).toBeGreaterThan(0);
    expect(games.map((p) => p.id)).not.toEqual(all.map((p) => p.id));
    expect((await anon.get('/api/explore/projects?q=nonsense')).body).toEqual([]);
    const ja = (await anon.get('/api/explore/projects?q=*&language=ja&limit=40')).body as Project[];
    const de = (await anon.get('/api/explore/projects?q=*&language=de&limit=40')).body as Project[];
    expect(ja.length).toBeGreaterThan(0);
    expect(de.length).toBeGreaterThan(0);
    expect(ja.some((p) => /[\u3040-\u30ff]/.test(p.title))).toBe(true);
    expect(de.map((p) => p.id).filter((id) => ja.some((p) => p.id === id))).toEqual([]);
    const english = (await anon.get('/api/search/projects?q=Cloud%20Variables&language=en'))
      .body as Project[];
    expect(english.map((p) => p.id)).toContain(sandbox.samples.fixtureProjects.cloud_variables_simple);
    expect((await anon.get('/api/search/projects?q=Cloud%20Variables&language=ja')).body).toEqual([]);
    expect((await anon.get('/api/search/projects?language=%3Cscript%3E')).status).toBe(400);
  });

  it('searches and explores studios', async () => {
    const found = (await anon.get('/api/search/studios?q=games%20galore')).body as Studio[];
    expect(found.map((s) => s.id)).toEqual([sandbox.samples.studio]);
    const all = (await anon.get('/api/explore/studios?q=*&limit=40')).body as Studio[];
    expect(all.length).toBeGreaterThanOrEqual(10);
    const fr = (await anon.get('/api/explore/studios?q=*&language=fr')).body as Studio[];
    expect(fr.map((s) => s.title)).toEqual(['Le coin des créateurs']);
    const trending = (await anon.get('/api/explore/studios?q=*&mode=trending&limit=40')).body as Studio[];
    expect(trending.map((s) => s.id).sort()).toEqual(all.map((s) => s.id).sort());
  });
});

describe('front page and service', () => {
  it('answers news, featured rows and health', async () => {
    const news = (await anon.get('/api/news')).body as NewsItem[];
    expect(news.length).toBeGreaterThanOrEqual(5);
    expect(Object.keys(news[0]!).sort()).toEqual(['copy', 'headline', 'id', 'image', 'stamp', 'url']);
    const featured = (await anon.get('/api/proxy/featured')).body as Featured;
    for (const row of [
      'community_featured_projects',
      'community_featured_studios',
      'community_most_loved_projects',
      'community_most_remixed_projects',
      'community_newest_projects',
    ]) {
      expect(featured[row]!.length, row).toBeGreaterThan(0);
    }
    expect(featured.community_featured_studios!.every((s) => s.type === 'gallery')).toBe(true);
    const health = await anon.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ version: expect.any(String), uptime: expect.any(Number) });
  });
});

describe('determinism', () => {
  it('gives identical data for one seed and different data for another', async () => {
    const paths = [
      `/api/users/${sandbox.samples.popularUser}/followers?limit=40&offset=1000`,
      '/api/explore/projects?q=*&mode=trending&limit=40',
      `/api/studios/${sandbox.samples.studio}/comments`,
      `/api/users/${sandbox.samples.demoUser}/projects`,
    ];
    const twin = await startSandbox({ seed: 1 });
    const other = await startSandbox({ seed: 2 });
    try {
      expect(twin.samples).toEqual(sandbox.samples);
      expect(other.samples.fixtureProjects).not.toEqual(sandbox.samples.fixtureProjects);
      for (const path of paths) {
        // Image URLs name the port, which differs; the data must not.
        const mine = (await anon.get(path)).text.replaceAll(sandbox.url, 'URL');
        const theirs = (await new Client(twin.url).get(path)).text.replaceAll(twin.url, 'URL');
        expect(theirs, path).toBe(mine);
      }
      const a = (await anon.get('/api/explore/projects?q=*&limit=40')).text.replaceAll(sandbox.url, 'URL');
      const b = (await new Client(other.url).get('/api/explore/projects?q=*&limit=40')).text.replaceAll(
        other.url,
        'URL',
      );
      expect(b).not.toBe(a);
    } finally {
      await Promise.all([twin.close(), other.close()]);
    }
  });
});
