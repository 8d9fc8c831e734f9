/**
 * Reads data explorers ask for (issue 32 §3), through the real client against the sandbox: the
 * studios a project is in, the studios a user curates, and a studio's exact project count found by
 * reading single pages at chosen offsets.
 */
import { describe, expect, it } from 'vitest';
import { toTable } from '../../src/presentation/index.js';
import { storeOf } from '../../src/sandbox/store-access.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';
import { useTempStore } from '../support/temp-store.js';

const ctx = useSandbox();
const temp = useTempStore('studio-reads-');

describe("a project's studios and a user's curated studios", () => {
  it('answer the studios that hold the project, and those the user hosts, manages or curates', async () => {
    const store = storeOf(ctx.sandbox);
    const session = ctx.anonymous();
    const studio = ctx.sandbox.samples.studio;
    const row = store.studios.get(studio)!;
    const projectId = (await session.studios.projects(studio, { limit: 1 }))[0]!.id;
    const expected = [...store.studios.values()]
      .filter((s) => s.projects.some((e) => e.projectId === projectId))
      .map((s) => s.id);
    const studios = await session.projects.studios(projectId).all();
    expect(studios.map((s) => s.id)).toEqual(expected);
    expect(studios.map((s) => s.id)).toContain(studio);
    expect(studios.find((s) => s.id === studio)).toEqual(await session.studios.get(studio));

    const host = store.users.get(row.hostId)!.username;
    const curated = await session.users.curatedStudios(host).all();
    expect(curated.map((s) => s.id)).toContain(studio);
    const member = (id: number) => store.studios.get(id)!;
    const hostId = row.hostId;
    expect(
      curated.every(
        (s) =>
          member(s.id).hostId === hostId ||
          member(s.id).managers.includes(hostId) ||
          member(s.id).curators.includes(hostId),
      ),
    ).toBe(true);
    // A project's studios, given its author, skip the author's lookup.
    const author = (await session.projects.get(projectId)).author.username;
    expect((await session.projects.studios(projectId, { author }).all()).map((s) => s.id)).toEqual(expected);
    expect((await caught(session.users.curatedStudios('no_such_user_x').all())).status).toBe(404);

    // A table in both front ends, and a table of the store.
    expect(toTable(curated).columns.map((c) => c.key)).toContain('title');
    const loaded = await temp.store.load('curated', session.users.curatedStudios(host));
    expect(loaded.rows).toBe(curated.length);
    const stored = await temp.store.query<{ n: number }>('select count(*)::int as n from curated');
    expect(stored[0]!.n).toBe(curated.length);
  });
});

describe("a studio's exact project count", () => {
  it('counts 0, a short page, and 1,234 projects in about 2·log2(n/40) requests', async () => {
    const store = storeOf(ctx.sandbox);
    const session = ctx.anonymous();
    const shared = [...store.projects.values()].filter((p) => p.shared !== null).map((p) => p.id);
    const template = store.studios.get(ctx.sandbox.samples.studio)!;
    const make = (count: number) => {
      const id = Math.max(...store.studios.keys()) + 1;
      const projects = Array.from({ length: count }, (_, i) => ({
        projectId: shared[i % shared.length]!,
        actorId: template.hostId,
      }));
      store.studios.set(id, { ...template, id, projects, managers: [...template.managers] });
      return id;
    };
    for (const count of [0, 7, 40, 80, 1_234]) {
      const id = make(count);
      const offsets: number[] = [];
      const counted = await session.studios.projectCount(id, { onRequest: (offset) => offsets.push(offset) });
      expect([count, counted]).toEqual([count, count]);
      expect((await session.studios.projects(id).all()).length).toBe(count);
      if (count === 1_234) {
        // Doubling to the first empty page (1280), then halving the gap until a page comes back short:
        // 10 requests, not the 31 pages of a walk.
        expect(offsets).toEqual([0, 40, 80, 160, 320, 640, 1280, 960, 1120, 1200]);
      }
    }
    // Projects removed or added between two reads: the answer stays between the least and the
    // most the studio held meanwhile (each page is read at its own moment).
    for (const [count, change] of [
      [100, -100],
      [1_234, -500],
      [1_234, 500],
      [40, 1],
    ] as const) {
      const id = make(count);
      let changed = false;
      const counted = await session.studios.projectCount(id, {
        onRequest: (offset) => {
          if (changed || offset === 0) return;
          changed = true;
          const studio = store.studios.get(id)!;
          if (change < 0) studio.projects.splice(0, -change);
          else studio.projects.push(...studio.projects.slice(0, change));
        },
      });
      expect(counted).toBeGreaterThanOrEqual(Math.min(count, count + change));
      expect(counted).toBeLessThanOrEqual(Math.max(count, count + change));
    }
    expect((await caught(session.studios.projectCount(999_999_999))).status).toBe(404);
    await expect(session.studios.projectCount(-1)).rejects.toThrow(RangeError);
    await expect(session.studios.projectCount(1, { onRequest: 5 as unknown as () => void })).rejects.toThrow(
      TypeError,
    );
  });
});
