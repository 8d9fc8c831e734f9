/**
 * Issue 11 §1: the sandbox answers in the real service's shapes, quirks included (WIRE.md §10),
 * so that what works offline works online. Read on the wire, and through the client where it
 * gained methods for the new endpoints.
 */
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/index.js';
import type { Comment, Project, Studio, User } from '../../src/records/records.js';
import { toJsonText } from '../../src/sandbox/http-utils.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { placeholderPng } from '../../src/sandbox/views/images.js';
import { decodePng } from '../kernel/png.js';
import { useSandbox } from '../support/sandbox.js';
import { Client } from './helpers.js';

const ctx = useSandbox();
/** A fresh cookie-less client on the wire. */
const anon = () => new Client(ctx.sandbox.url);

/** The sandbox's own host without the scheme, as protocol-relative URLs carry it. */
const bareHost = () => ctx.sandbox.url.replace(/^http:/, '');

describe('project lists and author blocks', () => {
  it("answers a user's projects in thin rows: no author username, no token, remixes 0", async () => {
    // The parent of the sample remix truly has remixes; its row in its owner's list says 0.
    const remix = (await anon().get(`/api/projects/${ctx.sandbox.samples.remixedProject}`)).body as Project;
    const remixed = (await anon().get(`/api/projects/${remix.remix.parent}`)).body as Project;
    expect(remixed.stats.remixes).toBeGreaterThan(0);
    const owner = remixed.author.username;
    const rows: Record<string, unknown>[] = [];
    for (let offset = 0; ; offset += 40) {
      const batch = (await anon().get(`/api/users/${owner}/projects?limit=40&offset=${offset}`))
        .body as Record<string, unknown>[];
      rows.push(...batch);
      if (batch.length < 40) break;
    }
    const row = rows.find((r) => r.id === remixed.id) as unknown as Project;
    expect(row).toBeDefined();
    expect(row.stats.remixes).toBe(0);
    for (const r of rows as unknown as Project[]) {
      expect(r).not.toHaveProperty('project_token');
      expect(r.author).not.toHaveProperty('username');
      expect(r.author).toMatchObject({
        id: remixed.author.id,
        scratchteam: false,
        history: { joined: '1900-01-01T00:00:00.000Z' },
        profile: { id: null, images: expect.any(Object) },
      });
    }
  });

  it('fills every project author block with the real placeholders', async () => {
    const team = (await anon().get('/api/users/MittenMod')).body as User;
    expect(team.scratchteam).toBe(true);
    const [project] = (await anon().get('/api/users/MittenMod/projects?limit=1')).body as Project[];
    const single = (await anon().get(`/api/projects/${project!.id}`)).body as Project;
    // A Scratch Team member's project still says `scratchteam: false` in its author block.
    expect(single.author).toMatchObject({
      username: 'MittenMod',
      scratchteam: false,
      history: { joined: '1900-01-01T00:00:00.000Z' },
      profile: { id: null },
    });
  });

  it('gives some users a null country, deterministically', async () => {
    const followers = (await anon().get(`/api/users/${ctx.sandbox.samples.popularUser}/followers?limit=40`))
      .body as User[];
    const countries = followers.map((u) => u.profile.country);
    expect(countries).toContain(null);
    expect(countries.some((c) => typeof c === 'string')).toBe(true);
    const again = await startSandbox();
    try {
      const same = (
        await new Client(again.url).get(`/api/users/${ctx.sandbox.samples.popularUser}/followers?limit=40`)
      ).body as User[];
      expect(same.map((u) => u.profile.country)).toEqual(countries);
    } finally {
      await again.close();
    }
  });
});

describe('service answers', () => {
  it('answers /health nested as the real one is', async () => {
    const health = (await anon().get('/api/health')).body as Record<string, unknown>;
    expect(health.version).toMatch(/^ \S/);
    expect(health.sql).toMatchObject({
      main: { primary: { numUsed: 0, numFree: 1 }, replica: { numFree: 1 } },
      project_comments: { primary: { pendingAcquires: 0 }, replica: expect.any(Object) },
    });
    expect(Array.isArray(health.load)).toBe(true);
    expect((health.load as unknown[]).every((n) => typeof n === 'number')).toBe(true);
    expect(health.cache).toEqual({ connected: true, ready: true });
  });

  it('answers the front page in snake-case rows with protocol-relative thumbnails', async () => {
    const featured = (await anon().get('/api/proxy/featured')).body as Record<
      string,
      Record<string, unknown>[]
    >;
    const projects = featured.community_featured_projects!;
    expect(projects.length).toBeGreaterThan(0);
    for (const row of projects) {
      expect(row).toMatchObject({
        id: expect.any(Number),
        title: expect.any(String),
        creator: expect.any(String),
        type: 'project',
        love_count: expect.any(Number),
        remixers_count: expect.any(Number),
      });
      expect(row).not.toHaveProperty('author');
      expect(row.thumbnail_url).toBe(`${bareHost()}/get_image/project/${row.id}_144x108.png`);
    }
    const studios = featured.community_featured_studios!;
    expect(studios[0]).toMatchObject({ type: 'gallery' });
    expect(studios[0]!.thumbnail_url).toBe(`${bareHost()}/get_image/gallery/${studios[0]!.id}_170x100.png`);
    // The protocol-relative URL resolves against the sandbox, offline.
    const image = await anon().get(new URL(`http:${projects[0]!.thumbnail_url}`).pathname);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('serves real PNGs: the background colour with an accent band, at any size up to 2000', () => {
    for (const [width, height] of [
      [480, 360],
      [2000, 2000],
      [1, 10],
    ] as const) {
      const image = decodePng(placeholderPng('project', 7, width, height));
      expect([image.width, image.height]).toEqual([width, height]);
      const pixel = (x: number, y: number) =>
        [...image.pixels.subarray((y * width + x) * 3, (y * width + x) * 3 + 3)].join(',');
      const top = pixel(0, 0);
      const band = pixel(width - 1, Math.floor(height / 2));
      expect(band).not.toBe(top);
      expect(pixel(width - 1, 0)).toBe(top);
      expect(pixel(0, height - 1)).toBe(top);
      expect(pixel(Math.floor(width / 2), Math.floor(height / 2))).toBe(band);
    }
  });

  it('sends news ids past 2^53 with their exact digits', async () => {
    const answer = await anon().get('/api/news?limit=5');
    expect(answer.text).toContain('"id":9007199254740997,');
    expect(answer.text).toContain('"id":9007199254740995,');
    // Both round to the same double: a client that parses them as numbers loses them.
    expect(JSON.parse('9007199254740997')).toBe(JSON.parse('9007199254740995'));
    const ids = [...answer.text.matchAll(/"id":(\d+)/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    // The image of a big-id item resolves too.
    const image = await anon().get('/get_image/news/9007199254740997_300x150.png');
    expect(image.status).toBe(200);
  });

  it('writes bigints as exact digits and leaves look-alike text alone', () => {
    const text = toJsonText({ id: 2n ** 64n + 1n, list: [-3n], note: '\u0001bigint-00:5', n: 1 });
    expect(text).toBe('{"id":18446744073709551617,"list":[-3],"note":"\\u0001bigint-00:5","n":1}');
  });

  it('issues project tokens of unix seconds and 128 hex digits', async () => {
    const project = (await anon().get(`/api/projects/${ctx.sandbox.cloudProjectId}`)).body as Project;
    expect(project.project_token).toMatch(/^\d{10}_[0-9a-f]{128}$/);
    const body = await anon().get(`/projects/${project.id}?token=${project.project_token}`);
    expect(body.status).toBe(200);
  });
});

describe('comments one at a time', () => {
  it('answers a studio comment by id, and its replies', async () => {
    const studio = (await anon().get(`/api/studios/${ctx.sandbox.samples.studio}`)).body as Studio;
    const top = (await anon().get(`/api/studios/${studio.id}/comments?limit=40`)).body as Comment[];
    const parent = top.find((c) => c.reply_count > 0)!;
    expect(parent).toBeDefined();
    expect((await anon().get(`/api/studios/${studio.id}/comments/${parent.id}`)).body).toEqual(parent);
    const replies = (await anon().get(`/api/studios/${studio.id}/comments/${parent.id}/replies`))
      .body as Comment[];
    expect(replies.length).toBe(parent.reply_count);
    // A reply can be read by its own id too; an id of another studio or none names nothing.
    const reply = (await anon().get(`/api/studios/${studio.id}/comments/${replies[0]!.id}`)).body as Comment;
    expect(reply).toEqual(replies[0]);
    expect(reply.parent_id).toBe(parent.id);
    expect((await anon().get(`/api/studios/${studio.id}/comments/1`)).status).toBe(404);
    expect((await anon().get(`/api/studios/${studio.id}/comments/abc`)).status).toBe(404);
  });

  it('reads a studio and a project comment by id through the client', async () => {
    const session = new Session({ hosts: ctx.sandbox.hosts });
    const [first] = await session.studios.comments(ctx.sandbox.samples.studio, { limit: 1 });
    expect(await session.studios.comment(ctx.sandbox.samples.studio, first!.id)).toEqual(first);
    const projectId = ctx.sandbox.samples.projectWithComments;
    const [comment] = await session.projects.comments(projectId, { limit: 1 });
    expect(await session.projects.comment(projectId, comment!.id)).toEqual(comment);
  });
});
