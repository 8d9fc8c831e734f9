/**
 * The front ends' progress without asking (`installAutoProgress`), with real sessions against the
 * sandbox and a sink that keeps what it is told: a caller's `onProgress` (given to the list or to
 * `all()`) always wins, alone; a remix tree opens one display for the whole tree, not one per node.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PageProgress } from '../../src/index.js';
import { installAutoProgress, type ProgressReport } from '../../src/presentation/index.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

interface Opened {
  label: string;
  reports: ProgressReport[];
  finished: boolean;
}
const opened: Opened[] = [];

beforeAll(() => {
  installAutoProgress((label) => {
    const entry: Opened = { label, reports: [], finished: false };
    opened.push(entry);
    return {
      update: (report) => entry.reports.push(report),
      finish: () => {
        entry.finished = true;
      },
    };
  });
});

const opening = async <T>(call: () => Promise<T>): Promise<{ value: T; opened: Opened[] }> => {
  const before = opened.length;
  const value = await call();
  return { value, opened: opened.slice(before) };
};

describe('auto progress', () => {
  it('shows a walk with no onProgress of its own on one display, finished with the last counts', async () => {
    const session = ctx.anonymous();
    const { value, opened } = await opening(() =>
      session.users.followers(ctx.sandbox.samples.popularUser).all(),
    );
    expect(opened.map((o) => o.label)).toEqual(['all pages']);
    expect(opened[0]!.finished).toBe(true);
    expect(opened[0]!.reports.at(-1)).toMatchObject({ items: value.length, done: true });
  });

  it('leaves a walk to the onProgress given to the list: the caller alone gets every report', async () => {
    const session = ctx.anonymous();
    const seen: PageProgress[] = [];
    const { value, opened } = await opening(() =>
      session.users.followers(ctx.sandbox.samples.popularUser, { onProgress: (p) => seen.push(p) }).all(),
    );
    expect(value.length).toBeGreaterThan(40);
    expect(opened).toEqual([]);
    expect(seen.at(-1)).toMatchObject({ items: value.length, done: true });
    expect(seen.length).toBe(Math.ceil((value.length + 1) / 40));
  });

  it('leaves a walk to the onProgress given to all()', async () => {
    const session = ctx.anonymous();
    const seen: PageProgress[] = [];
    const { value, opened } = await opening(() =>
      session.users.followers(ctx.sandbox.samples.popularUser).all({ onProgress: (p) => seen.push(p) }),
    );
    expect(opened).toEqual([]);
    expect(seen.at(-1)).toMatchObject({ items: value.length, done: true });
  });

  it('shows a remix tree on one display for the whole tree, not one per node', async () => {
    const session = ctx.anonymous();
    const { value: tree, opened } = await opening(() =>
      session.projects.remixTree(ctx.sandbox.samples.remixedProject),
    );
    let nodes = 0;
    const count = (node: { children: unknown[] }): void => {
      nodes++;
      for (const child of node.children) count(child as { children: unknown[] });
    };
    count(tree);
    expect(nodes).toBeGreaterThanOrEqual(4); // the seeded chain: root → remix → remix → this
    expect(opened.map((o) => o.label)).toEqual([`remix tree ${ctx.sandbox.samples.remixedProject}`]);
    expect(opened[0]!.finished).toBe(true);
    expect(opened[0]!.reports.at(-1)).toMatchObject({ items: nodes, done: true });
  });

  it('leaves a remix tree to the caller’s onProgress', async () => {
    const session = ctx.anonymous();
    const seen: boolean[] = [];
    const { opened } = await opening(() =>
      session.projects.remixTree(ctx.sandbox.samples.remixedProject, {
        onProgress: (p) => seen.push(p.done),
      }),
    );
    expect(opened).toEqual([]);
    expect(seen.at(-1)).toBe(true);
  });
});
