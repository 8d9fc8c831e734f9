/**
 * Creating projects and their metadata writes (WIRE.md §12.4) through the real client against the
 * sandbox: a new empty project, one with a body and assets, a remix, the thumbnail, comments on and
 * off; and the refusals (not the owner, bad CSRF, bad arguments).
 */
import { describe, expect, it } from 'vitest';
import { LoginRequiredError, md5ext, Session } from '../../src/index.js';
import { placeholderPng } from '../../src/sandbox/views/images.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('project creation', () => {
  it('create: an empty project of the caller, unshared, that downloads whole', async () => {
    const demo = await ctx.login(0);
    const id = await demo.projects.create({ title: 'Brand new' });
    const project = await demo.projects.get(id);
    expect(project).toMatchObject({
      id,
      title: 'Brand new',
      public: false,
      author: { username: demo.username },
    });
    const { json, assets } = await demo.projects.download(id);
    expect(json.targets).toHaveLength(1);
    expect(assets.size).toBe(1);
    // Unshared: others do not see it.
    expect((await caught(ctx.anonymous().projects.get(id))).status).toBe(404);
    expect((await demo.projects.get(await demo.projects.create())).title).toBe('Untitled');
  });

  it('create with a body and assets uploads the assets first', async () => {
    const demo = await ctx.login(0);
    const sound = new TextEncoder().encode(`RIFF sound ${Date.now()}`);
    const name = md5ext(sound, 'wav');
    const json = {
      targets: [
        {
          isStage: true,
          name: 'Stage',
          costumes: [],
          sounds: [{ name: 's', md5ext: name, dataFormat: 'wav' }],
        },
      ],
      meta: { semver: '3.0.0' },
    };
    const id = await demo.projects.create({ title: 'With a sound', json, assets: { [name]: sound } });
    const files = await demo.projects.download(id);
    expect(files.assets.get(name)).toEqual(sound);
    await expect(
      demo.projects.create({ json, assets: { [`${'0'.repeat(32)}.wav`]: sound } }),
    ).rejects.toThrow(RangeError);
  });

  it('remix: a new project of the caller with the parent’s body and remix links', async () => {
    const other = await ctx.login(1);
    const parent = ctx.sandbox.samples.fixtureProjects.cloud_variables_simple;
    const id = await other.projects.remix(parent, { title: 'My remix' });
    const remix = await other.projects.get(id);
    expect(remix).toMatchObject({
      title: 'My remix',
      remix: { parent, root: parent },
      author: { username: other.username },
    });
    expect(await other.projects.getJson(id)).toEqual(await other.projects.getJson(parent));
    await other.projects.share(id);
    expect((await ctx.anonymous().projects.remixes(parent).all()).map((p) => p.id)).toContain(id);
  });

  it('setThumbnail: the project image shows the uploaded PNG', async () => {
    const demo = await ctx.login(0);
    const id = await demo.projects.create({ title: 'Pictured' });
    const png = placeholderPng('project', 7, 12, 9);
    await demo.projects.setThumbnail(id, png);
    const image = await fetch((await demo.projects.get(id)).image);
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    // GIFs (animated thumbnails) are taken, as the site takes them (WIRE.md §12.7).
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    await demo.projects.setThumbnail(id, gif);
    const animated = await fetch((await demo.projects.get(id)).image);
    expect(animated.headers.get('content-type')).toBe('image/gif');
    expect(Buffer.from(await animated.arrayBuffer()).equals(gif)).toBe(true);
    await expect(demo.projects.setThumbnail(id, new TextEncoder().encode('BM6\0\0\0'))).rejects.toThrow(
      RangeError,
    );
    await expect(demo.projects.setThumbnail(id, new Uint8Array(600_000))).rejects.toThrow(RangeError);
  });

  it('setCommentsAllowed beside the other metadata writes', async () => {
    const demo = await ctx.login(0);
    const id = await demo.projects.create({ title: 'Quiet' });
    expect((await demo.projects.setCommentsAllowed(id, false)).comments_allowed).toBe(false);
    expect((await demo.projects.get(id)).comments_allowed).toBe(false);
    expect((await demo.projects.setCommentsAllowed(id, true)).comments_allowed).toBe(true);
    await expect(demo.projects.setCommentsAllowed(id, 'no' as unknown as boolean)).rejects.toThrow(TypeError);
  });

  it('refusals: not the owner, bad CSRF, no login, bad arguments', async () => {
    const demo = await ctx.login(0);
    const other = await ctx.login(1);
    const id = await demo.projects.create({ title: 'Mine' });
    await demo.projects.share(id);
    const notOwner = await caught(other.projects.setCommentsAllowed(id, false));
    expect(notOwner.status).toBe(403);
    expect(notOwner.reason).toBe('Only the owner can change this project');
    const thumb = await caught(other.projects.setThumbnail(id, placeholderPng('project', 1, 4, 4)));
    expect(thumb.status).toBe(403);
    expect(thumb.reason).toBe('Only the owner can change the thumbnail');

    const forged = new Session({ hosts: ctx.sandbox.hosts, jar: demo.jar });
    const error = await caught(
      forged.http.request(`${ctx.sandbox.hosts.projects}/`, { method: 'POST', json: { targets: [] } }),
    );
    expect(error.status).toBe(403);
    expect(error.reason).toBe('CSRF verification failed');

    await expect(ctx.anonymous().projects.create()).rejects.toThrow(LoginRequiredError);
    await expect(demo.projects.create({ title: '' })).rejects.toThrow(RangeError);
    await expect(demo.projects.create({ title: 'x'.repeat(101) })).rejects.toThrow(RangeError);
    await expect(demo.projects.create({ json: { nope: true } as never })).rejects.toThrow(TypeError);
    await expect(demo.projects.remix(0)).rejects.toThrow(RangeError);
    expect((await caught(demo.projects.remix(999_999_999))).status).toBe(404);
  });
});
