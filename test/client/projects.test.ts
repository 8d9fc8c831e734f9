import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  LoginRequiredError,
  md5ext,
  projectAssetNames,
  readSb3,
  type TransferProgress,
  writeSb3,
} from '../../src/index.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();
const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../../src/sandbox/fixtures/${name}`, import.meta.url)));

describe('project reads', () => {
  it('get returns the typed record with a project token', async () => {
    const session = ctx.anonymous();
    const id = ctx.sandbox.samples.fixtureProjects.cloud_variables_simple!;
    const project = await session.projects.get(id);
    expect(project.id).toBe(id);
    expect(project.author.username).toBe(ctx.sandbox.samples.demoUser);
    expect(project.stats).toMatchObject({ views: expect.any(Number), loves: expect.any(Number) });
    expect(project.project_token).toMatch(/^\d+_[0-9a-f]+$/);
    expect(await session.projects.token(id)).toMatch(/^\d+_[0-9a-f]+$/);
  });

  it('an unshared project is 404 to others and readable by its owner', async () => {
    const id = ctx.sandbox.samples.unsharedProject;
    const error = await ctx
      .anonymous()
      .projects.get(id)
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    const owner = await ctx.login(0);
    const project = await owner.projects.get(id);
    expect(project.public).toBe(false);
    expect((await owner.projects.getJson(id)).targets.length).toBeGreaterThan(0);
  });

  it('remixes and comments with replies', async () => {
    const session = ctx.anonymous();
    const remixed = await session.projects.get(ctx.sandbox.samples.remixedProject);
    expect(remixed.remix.parent).not.toBeNull();
    expect(remixed.remix.root).not.toBeNull();
    const remixes = await session.projects.remixes(remixed.remix.parent!, { limit: 40 });
    expect(remixes.map((p) => p.id)).toContain(remixed.id);

    const commented = ctx.sandbox.samples.projectWithComments;
    const comments = await session.projects.comments(commented);
    expect(comments.length).toBeGreaterThan(0);
    const withReplies = comments.find((c) => c.reply_count > 0)!;
    expect(withReplies).toBeDefined();
    const project = await session.projects.get(commented);
    const replies = await session.projects.replies(commented, withReplies.id, {
      author: project.author.username,
    });
    expect(replies.length).toBe(Math.min(withReplies.reply_count, 40));
    expect(replies.every((r) => r.parent_id === withReplies.id)).toBe(true);
  });

  it('getJson reads the real fixture body', async () => {
    const id = ctx.sandbox.samples.fixtureProjects.cloud_variables_simple!;
    const json = await ctx.anonymous().projects.getJson(id);
    const expected = readSb3(fixture('cloud_variables_simple.sb3')).json;
    expect(json).toEqual(expected);
  });

  it('a missing project is ApiError 404; bad ids are caller errors', async () => {
    const session = ctx.anonymous();
    await expect(session.projects.get(999_999_999)).rejects.toMatchObject({ status: 404 });
    // Methods that answer a promise reject; no request is sent.
    await expect(session.projects.get(-1)).rejects.toThrow(RangeError);
    await expect(session.projects.get('abc')).rejects.toThrow(TypeError);
    await expect(session.projects.get(1.5)).rejects.toThrow(TypeError);
    // Methods that answer a list throw when called.
    expect(() => session.projects.remixes(0)).toThrow(RangeError);
    await expect(session.projects.downloadAsset('nope.png')).rejects.toThrow(RangeError);
  });
});

describe('download', () => {
  it('fetches each distinct asset once, md5-checked, with progress', async () => {
    const id = ctx.sandbox.samples.fixtureProjects.monitored_variables!;
    const progress: TransferProgress[] = [];
    const { json, assets } = await ctx
      .anonymous()
      .projects.download(id, { onProgress: (p) => progress.push(p) });
    const expected = readSb3(fixture('monitored_variables.sb3'));
    const names = projectAssetNames(json);
    expect(new Set(names).size).toBe(names.length);
    expect([...assets.keys()]).toEqual(names);
    for (const [name, bytes] of assets) expect(bytes).toEqual(expected.assets.get(name));
    // 3 sound references name one shared wav: fewer files than references.
    const references = json.targets.flatMap((t) => [...(t.costumes ?? []), ...(t.sounds ?? [])]).length;
    expect(assets.size).toBeLessThan(references);
    expect(progress.at(0)).toMatchObject({ done: 0, total: names.length });
    expect(progress.at(-1)).toMatchObject({ done: names.length, total: names.length });
  });

  it('round-trips through .sb3 bytes', async () => {
    const id = ctx.sandbox.samples.fixtureProjects.cloud_variables_simple!;
    const project = await ctx.anonymous().projects.download(id);
    const again = readSb3(writeSb3(project));
    expect(again.json).toEqual(project.json);
    expect([...again.assets.keys()].sort()).toEqual([...project.assets.keys()].sort());
  });
});

describe('writes', () => {
  it('save round trip in every input form', async () => {
    const owner = await ctx.login(0);
    const target = ctx.sandbox.samples.unsharedProject;
    const sb3 = fixture('cloud_variables_simple.sb3');
    const loaded = readSb3(sb3);
    const asMap = new Map<string, unknown>([['project.json', loaded.json], ...loaded.assets]);
    const forms: unknown[] = [
      sb3,
      loaded,
      { json: JSON.stringify(loaded.json), assets: Object.fromEntries(loaded.assets) },
      asMap,
      Object.fromEntries(asMap),
      [...asMap],
    ];
    for (const [index, form] of forms.entries()) {
      const json = { ...loaded.json, meta: { ...loaded.json.meta, form: index } };
      const input =
        form instanceof Map
          ? new Map([...form, ['project.json', json]])
          : Array.isArray(form)
            ? [...form.filter(([n]) => n !== 'project.json'), ['project.json', json]]
            : form;
      // biome-ignore lint/suspicious/noExplicitAny: every input form goes through one call
      const answer = await owner.projects.save(target, input as any);
      expect(answer).toMatchObject({ status: 'ok', 'content-name': String(target) });
      const back = await owner.projects.download(target);
      expect([...back.assets.keys()].sort()).toEqual([...loaded.assets.keys()].sort());
      if (form instanceof Map || Array.isArray(form)) expect(back.json.meta?.form).toBe(index);
    }
  });

  it('refuses a bad md5 before any upload: nothing is written', async () => {
    const owner = await ctx.login(0);
    const target = ctx.sandbox.samples.unsharedProject;
    const before = await owner.projects.getJson(target);
    const good = new TextEncoder().encode(`<svg xmlns="http://www.w3.org/2000/svg" id="${Date.now()}"/>`);
    const goodName = md5ext(good, 'svg');
    const bad = new TextEncoder().encode('tampered');
    const badName = md5ext(new TextEncoder().encode('original'), 'svg');
    const json = { ...before, meta: { changed: true } };
    const attempt = owner.projects.save(target, {
      json,
      assets: new Map([
        [goodName, good],
        [badName, bad],
      ]),
    });
    await expect(attempt).rejects.toThrow(/does not match its bytes/);
    // The good asset was not uploaded either, and the body is unchanged.
    await expect(owner.projects.downloadAsset(goodName)).rejects.toMatchObject({ status: 404 });
    expect(await owner.projects.getJson(target)).toEqual(before);
    await expect(owner.projects.save(target, { json, assets: { 'x.png': good } })).rejects.toThrow(
      /not an md5ext/,
    );
  });

  it('uploadAsset computes or checks the name', async () => {
    const owner = await ctx.login(0);
    const bytes = new TextEncoder().encode(
      `<svg xmlns="http://www.w3.org/2000/svg" data-n="upload-${Math.random()}"/>`,
    );
    const name = await owner.projects.uploadAsset('svg', bytes);
    expect(name).toBe(md5ext(bytes, 'svg'));
    expect(await owner.projects.downloadAsset(name)).toEqual(bytes);
    // A name whose md5 differs from the bytes' (flip the first hex digit).
    const real = md5ext(bytes, 'png');
    const wrong = `${real[0] === '0' ? '1' : '0'}${real.slice(1)}`;
    await expect(owner.projects.uploadAsset(wrong, bytes)).rejects.toThrow(/does not match/);
  });

  it('metadata, share and unshare, owner only', async () => {
    const owner = await ctx.login(0);
    const id = ctx.sandbox.samples.unsharedProject;
    const updated = await owner.projects.setMetadata(id, { title: 'Renamed 🚀', description: 'd' });
    expect(updated).toMatchObject({ id, title: 'Renamed 🚀', description: 'd' });
    expect((await owner.projects.setInstructions(id, 'Press space')).instructions).toBe('Press space');
    expect((await owner.projects.setTitle(id, 'T')).title).toBe('T');
    expect((await owner.projects.setDescription(id, 'D')).description).toBe('D');
    const shared = await owner.projects.share(id);
    expect(shared.public).toBe(true);
    expect((await ctx.anonymous().projects.get(id)).title).toBe('T');
    const unshared = await owner.projects.unshare(id);
    expect(unshared.public).toBe(false);
    await expect(ctx.anonymous().projects.get(id)).rejects.toMatchObject({ status: 404 });
    await expect(owner.projects.setMetadata(id, {})).rejects.toThrow(TypeError);
    // @ts-expect-error: not editable
    await expect(owner.projects.setMetadata(id, { views: 5 })).rejects.toThrow(/not editable/);
  });

  it('401 logged out, 403 not the owner, and the failed write changed nothing', async () => {
    const other = await ctx.login(1);
    const id = ctx.sandbox.samples.fixtureProjects.cloud_variables_simple!;
    const before = await other.projects.get(id);
    for (const write of [
      () => other.projects.setTitle(id, 'hijacked'),
      () => other.projects.share(id),
      () => other.projects.setJson(id, { targets: [] }),
    ]) {
      const error = await write().catch((e) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(403);
    }
    expect((await other.projects.get(id)).title).toBe(before.title);
    const anonymous = ctx.anonymous();
    await expect(anonymous.projects.setJson(id, { targets: [] })).rejects.toThrow(LoginRequiredError);
    // A raw request without login gets the server's 401.
    const raw = await anonymous.http
      .request(`${ctx.sandbox.hosts.projects}/${id}`, { method: 'PUT', json: { targets: [] } })
      .catch((e) => e);
    expect(raw).toMatchObject({ status: 401 });
  });
});
