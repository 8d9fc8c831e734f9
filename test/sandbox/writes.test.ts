import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody, Project, ProjectSaveAnswer } from '../../src/records/records.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { Client, loggedIn } from './helpers.js';

let sandbox: Sandbox;
let owner: Client;
let stranger: Client;
beforeAll(async () => {
  sandbox = await startSandbox();
  [owner, stranger] = await Promise.all([loggedIn(sandbox, 0), loggedIn(sandbox, 1)]);
});
afterAll(() => sandbox.close());

const md5 = (data: Uint8Array | string) => createHash('md5').update(data).digest('hex');

async function project(id: number, client = owner): Promise<Project> {
  return (await client.get(`/api/projects/${id}`)).body as Project;
}

async function body(id: number, client = owner): Promise<string> {
  const { project_token } = await project(id, client);
  return (await client.get(`/projects/${id}?token=${project_token}`)).text;
}

/** A client with a CSRF cookie but no session. */
async function anonymousWithCsrf(): Promise<Client> {
  const client = new Client(sandbox.url);
  await client.csrf();
  return client;
}

describe('auth on every write host', () => {
  const writes = () => {
    const id = sandbox.samples.fixtureProjects.monitored_variables;
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    return [
      { name: 'api metadata', method: 'PUT', path: `/api/projects/${id}`, json: { title: 'Hacked' } },
      { name: 'api share', method: 'PUT', path: `/api/proxy/projects/${id}/unshare` },
      { name: 'project host', method: 'PUT', path: `/projects/${id}`, json: { targets: [] } },
      { name: 'asset host', method: 'POST', path: `/assets/${md5(svg)}.svg`, body: svg },
    ];
  };

  it('answers 401 without a session', async () => {
    const client = await anonymousWithCsrf();
    for (const w of writes()) {
      const answer = await client.write(w.method, w.path, w);
      expect(answer.status, w.name).toBe(401);
      expect((answer.body as ErrorBody).code).toBe('Unauthorized');
    }
  });

  it('answers 403 without a matching CSRF header', async () => {
    for (const w of writes()) {
      for (const csrf of [undefined, 'wrong']) {
        const headers: Record<string, string> = { 'x-token': owner.token! };
        if (csrf) headers['x-csrftoken'] = csrf;
        const answer = await owner.request(w.method, w.path, { ...w, headers });
        expect(answer.status, w.name).toBe(403);
        expect(answer.body).toEqual({ code: 'Forbidden', message: 'CSRF verification failed' });
      }
    }
  });

  it('checks the X-Token: required on the API, checked when sent elsewhere', async () => {
    for (const w of writes()) {
      const wrong = await owner.write(w.method, w.path, { ...w, headers: { 'x-token': stranger.token! } });
      expect(wrong.status, w.name).toBe(403);
    }
    const id = sandbox.samples.fixtureProjects.monitored_variables;
    const bare = new Client(sandbox.url);
    for (const [k, v] of owner.cookies) bare.cookies.set(k, v);
    const missing = await bare.write('PUT', `/api/projects/${id}`, { json: { title: 'No token' } });
    expect(missing.status).toBe(401);
    expect((await project(id)).title).toBe('Monitored Variables');
  });

  it('answers 403 to someone else than the owner', async () => {
    for (const w of writes().slice(0, 3)) {
      const answer = await stranger.write(w.method, w.path, w);
      expect(answer.status, w.name).toBe(403);
      expect((answer.body as ErrorBody).code).toBe('Forbidden');
    }
    const after = await project(sandbox.samples.fixtureProjects.monitored_variables, stranger);
    expect(after).toMatchObject({ title: 'Monitored Variables', public: true });
    // Someone else's unshared project does not even exist for them.
    const hidden = await stranger.write('PUT', `/api/projects/${sandbox.samples.unsharedProject}`, {
      json: { title: 'x' },
    });
    expect(hidden.status).toBe(404);
  });
});

describe('metadata, share and unshare', () => {
  it('updates title, description and instructions', async () => {
    const id = sandbox.samples.fixtureProjects.cloud_variables_simple;
    const before = await project(id);
    const answer = await owner.write('PUT', `/api/projects/${id}`, {
      json: { title: 'Cloud Demo ☁', instructions: 'Press the flag.' },
    });
    expect(answer.status).toBe(200);
    const updated = answer.body as Project;
    expect(updated).toMatchObject({ id, title: 'Cloud Demo ☁', instructions: 'Press the flag.' });
    expect(updated.description).toBe(before.description);
    expect(Date.parse(updated.history.modified)).toBeGreaterThan(Date.parse(before.history.modified));
    expect((await project(id, stranger)).title).toBe('Cloud Demo ☁');
  });

  it('changes nothing when any part of a write is invalid', async () => {
    const id = sandbox.samples.fixtureProjects.cloud_variables_simple;
    const before = await project(id);
    const bad: unknown[] = [
      { title: 'Fine', color: 'red' },
      { title: 'Fine', description: 42 },
      { title: '' },
      { title: 'x'.repeat(101) },
      { description: 'x'.repeat(5001) },
      ['title'],
      'title',
    ];
    for (const json of bad) {
      const answer = await owner.write('PUT', `/api/projects/${id}`, { json });
      expect(answer.status, JSON.stringify(json).slice(0, 40)).toBe(400);
      expect((answer.body as ErrorBody).code).toBe('BadRequest');
    }
    const malformed = await owner.write('PUT', `/api/projects/${id}`, {
      body: '{"title": "Half',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const after = await project(id);
    const { project_token: _a, ...restBefore } = before;
    const { project_token: _b, ...restAfter } = after;
    expect(restAfter).toEqual(restBefore);
  });

  it('unshares and shares again', async () => {
    const id = sandbox.samples.assetHeavyProject;
    const sharedFirst = Date.parse((await project(id)).history.shared!);
    const unshared = await owner.write('PUT', `/api/proxy/projects/${id}/unshare`);
    expect(unshared.status).toBe(200);
    expect(unshared.body).toMatchObject({
      id,
      public: false,
      is_published: false,
      history: { shared: null },
    });
    expect((await new Client(sandbox.url).get(`/api/projects/${id}`)).status).toBe(404);
    const listed = (await stranger.get(`/api/users/${sandbox.samples.demoUser}/projects?limit=40`))
      .body as Project[];
    expect(listed.map((p) => p.id)).not.toContain(id);

    const shared = await owner.write('PUT', `/api/proxy/projects/${id}/share`);
    expect(shared.status).toBe(200);
    const record = shared.body as Project;
    expect(record).toMatchObject({ public: true, is_published: true });
    // Shared anew: a later stamp than its first sharing (the sandbox's own record of both).
    expect(Date.parse(record.history.shared!)).toBeGreaterThan(sharedFirst);
    expect((await new Client(sandbox.url).get(`/api/projects/${id}`)).status).toBe(200);
  });
});

describe('project host', () => {
  it('serves the fixture body only with a valid project token', async () => {
    const id = sandbox.samples.fixtureProjects.monitored_variables;
    const { project_token } = await project(id, stranger);
    const answer = await stranger.get(`/projects/${id}?token=${project_token}`);
    expect(answer.status).toBe(200);
    const json = answer.body as {
      targets: { name: string }[];
      monitors: unknown[];
      meta: { semver: string };
    };
    expect(json.targets.map((t) => t.name)).toEqual(['Stage', 'Referee', 'Jamal']);
    expect(json.monitors).toHaveLength(2);
    expect(json.meta.semver).toBe('3.0.0');

    const other = sandbox.samples.fixtureProjects.cloud_variables_simple;
    for (const path of [
      `/projects/${id}`,
      `/projects/${id}?token=`,
      `/projects/${id}?token=123_abc`,
      `/projects/${other}?token=${project_token}`,
      `/projects/${id}?token=${project_token!.replace(/^\d+/, (s) => String(Number(s) + 1))}`,
    ]) {
      const refused = await stranger.get(path);
      expect(refused.status, path).toBe(403);
      expect((refused.body as ErrorBody).code).toBe('Forbidden');
    }
  });

  it('gives an unshared project token to its owner only', async () => {
    const id = sandbox.samples.unsharedProject;
    const text = await body(id);
    expect((JSON.parse(text) as { targets: unknown[] }).targets.length).toBeGreaterThan(0);
  });

  it('expires tokens after projectTokenTtl', async () => {
    const short = await startSandbox({ projectTokenTtl: 1 });
    try {
      const client = new Client(short.url);
      const id = short.samples.fixtureProjects.cloud_variables_simple;
      const { project_token } = (await client.get(`/api/projects/${id}`)).body as Project;
      expect((await client.get(`/projects/${id}?token=${project_token}`)).status).toBe(200);
      // Issued in a whole second (its first digits), it lives to the end of its last second: until
      // the sandbox's clock (this process's) is past that.
      const end = (Number(project_token!.split('_')[0]) + 1 + 1) * 1000;
      while (Date.now() < end) await delay(end - Date.now());
      expect((await client.get(`/projects/${id}?token=${project_token}`)).status).toBe(403);
    } finally {
      await short.close();
    }
  });

  it('saves a project body and answers like the real host', async () => {
    const id = sandbox.samples.fixtureProjects.cloud_variables_simple;
    const original = JSON.parse(await body(id)) as { targets: { name: string }[] };
    original.targets[1]!.name = 'Renamed';
    const before = await project(id);
    // Until the sandbox's clock (this process's) is past the time it last stamped.
    while (Date.now() <= Date.parse(before.history.modified)) await delay(1);
    const answer = await owner.write('PUT', `/projects/${id}`, { json: original });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'ok',
      'autosave-interval': '120',
      'content-name': String(id),
    } satisfies ProjectSaveAnswer);
    expect(JSON.parse(await body(id, stranger)).targets[1].name).toBe('Renamed');
    expect(Date.parse((await project(id)).history.modified)).toBeGreaterThan(
      Date.parse(before.history.modified),
    );
  });

  it('refuses bodies that are not projects, and oversized ones, changing nothing', async () => {
    const id = sandbox.samples.unsharedProject;
    const before = await body(id);
    for (const json of [{}, { targets: {} }, [], { targets: [1] }, 'x']) {
      const answer = await owner.write('PUT', `/projects/${id}`, { json });
      expect(answer.status, JSON.stringify(json)).toBe(400);
    }
    const huge = JSON.stringify({ targets: [], pad: 'x'.repeat(5 * 1024 * 1024) });
    const tooBig = await owner.write('PUT', `/projects/${id}`, {
      body: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(tooBig.status).toBe(413);
    expect((tooBig.body as ErrorBody).code).toBe('PayloadTooLarge');
    expect(await body(id)).toBe(before);
  });
});

describe('asset host', () => {
  it('takes lowercase hex names only: an uppercase name is a 400 on upload and a 404 on download', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><!-- upper ${Date.now()} --></svg>`;
    const lower = `${md5(svg)}.svg`;
    for (const name of [lower.toUpperCase(), `${md5(svg).toUpperCase()}.svg`, `${md5(svg)}.SVG`]) {
      const answer = await owner.write('POST', `/assets/${name}`, { body: svg });
      expect(answer.status, name).toBe(400);
      expect((answer.body as ErrorBody).code).toBe('BadRequest');
    }
    // Nothing was stored under either spelling.
    expect((await fetch(`${sandbox.url}/assets/${lower}`)).status).toBe(404);

    // An asset that exists is not found under an uppercase spelling of its name, by either path.
    const known = '83a9787d4cb6f3b7632b4ddfebf74367.wav';
    expect((await fetch(`${sandbox.url}/assets/${known}`)).status).toBe(200);
    for (const name of [
      known.toUpperCase(),
      `${known.slice(0, 32).toUpperCase()}.wav`,
      known.replace('wav', 'WAV'),
    ]) {
      for (const path of [`/assets/${name}`, `/assets/internalapi/asset/${name}/get/`]) {
        const res = await fetch(sandbox.url + path);
        expect(res.status, path).toBe(404);
        expect(await res.json()).toEqual({ code: 'NotFound', message: '' });
      }
    }
  });

  it('serves uploads with the shared content types (bmp included)', async () => {
    const cases: [string, string][] = [
      ['bmp', 'image/bmp'],
      ['wav', 'audio/x-wav'],
      ['mp3', 'audio/mpeg'],
      ['gif', 'image/gif'],
      ['jpeg', 'image/jpeg'],
    ];
    for (const [extension, type] of cases) {
      const data = new TextEncoder().encode(`fake ${extension} ${Date.now()}`);
      const name = `${md5(data)}.${extension}`;
      expect((await owner.write('POST', `/assets/${name}`, { body: data })).status, name).toBe(200);
      const back = await fetch(`${sandbox.url}/assets/${name}`);
      expect(back.headers.get('content-type'), name).toBe(type);
    }
  });

  it('serves fixture assets with fitting types, by both paths', async () => {
    const anon = new Client(sandbox.url);
    const cases: [string, string][] = [
      ['83a9787d4cb6f3b7632b4ddfebf74367.wav', 'audio/x-wav'],
      ['797b03bdb8cf6ccfc30c0692d533d998.png', 'image/png'],
      ['cd21514d0531fdffb22204e0ec5ed84a.svg', 'image/svg+xml'],
    ];
    for (const [name, type] of cases) {
      for (const path of [`/assets/${name}`, `/assets/internalapi/asset/${name}/get/`]) {
        const res = await fetch(sandbox.url + path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type')).toBe(type);
        expect(md5(new Uint8Array(await res.arrayBuffer()))).toBe(name.slice(0, 32));
      }
    }
    const missing = await anon.get(`/assets/${'0'.repeat(32)}.png`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'NotFound', message: '' });
  });

  it('names every asset of every project it serves', async () => {
    const heavy = JSON.parse(await body(sandbox.samples.assetHeavyProject)) as {
      targets: { costumes: { md5ext: string }[]; sounds: { md5ext: string }[] }[];
    };
    const names = new Set(heavy.targets.flatMap((t) => [...t.costumes, ...t.sounds].map((a) => a.md5ext)));
    expect(names.size).toBe(100);
    for (const name of [...names].slice(0, 10)) {
      const res = await fetch(`${sandbox.url}/assets/${name}`);
      expect(md5(new Uint8Array(await res.arrayBuffer()))).toBe(name.slice(0, 32));
    }
  });

  it('takes uploads whose md5 matches the name', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><!-- ${Date.now()} --></svg>`;
    const name = `${md5(svg)}.svg`;
    const answer = await owner.write('POST', `/assets/${name}`, { body: svg });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok', 'content-name': name });
    const back = await fetch(`${sandbox.url}/assets/${name}`);
    expect(back.headers.get('content-type')).toBe('image/svg+xml');
    expect(await back.text()).toBe(svg);
  });

  it('refuses wrong names, wrong md5s, empty and oversized uploads', async () => {
    const data = 'some bytes';
    const cases: [string, string | Uint8Array, number][] = [
      [`${md5('other')}.svg`, data, 400],
      [`${md5(data)}`, data, 400],
      [`${md5(data)}.toolongext`, data, 400],
      [`${md5(data).slice(1)}.svg`, data, 400],
      [`${md5('')}.svg`, '', 400],
    ];
    for (const [name, payload, status] of cases) {
      const answer = await owner.write('POST', `/assets/${name}`, { body: payload });
      expect(answer.status, name).toBe(status);
      expect((answer.body as ErrorBody).code).toBe('BadRequest');
      expect((await fetch(`${sandbox.url}/assets/${name}`)).status).toBe(404);
    }
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    const tooBig = await owner.write('POST', `/assets/${md5(big)}.wav`, { body: big });
    expect(tooBig.status).toBe(413);
    expect((await fetch(`${sandbox.url}/assets/${md5(big)}.wav`)).status).toBe(404);
  });
});
