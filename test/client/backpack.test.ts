/**
 * The backpack (WIRE.md §12.3) through the real client against the sandbox's backpack host: the
 * list in pages of 40, each kind of item's content (JSON for scripts, md5-checked bytes for the
 * rest), deleting, and the refusals.
 */
import { describe, expect, it } from 'vitest';
import { LoginRequiredError, Session } from '../../src/index.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('backpack', () => {
  it('lists every item, 40 a request', async () => {
    const demo = await ctx.login(0);
    const pages: number[] = [];
    const items = await demo.backpack.list().all({ onProgress: ({ pages: n }) => pages.push(n) });
    expect(items).toHaveLength(44);
    expect(pages.at(-1)).toBe(2);
    expect(new Set(items.map((i) => i.type))).toEqual(new Set(['script', 'costume', 'sound', 'sprite']));
    expect(await demo.backpack.list({ limit: 5, offset: 40 })).toHaveLength(4);
  });

  it('downloads a script as JSON and the rest as bytes', async () => {
    const demo = await ctx.login(0);
    const items = await demo.backpack.list().all();
    const script = items.find((i) => i.type === 'script')!;
    const blocks = await demo.backpack.download(script);
    expect(Array.isArray(blocks)).toBe(true);
    expect(blocks).toMatchObject([{ opcode: 'event_whenflagclicked' }]);
    const costume = items.find((i) => i.type === 'costume')!;
    const svg = await ctx.anonymous().backpack.download(costume.body);
    expect(svg).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(svg as Uint8Array)).toMatch(/^<svg /);
  });

  it('deletes an item; the list no longer has it', async () => {
    const demo = await ctx.login(0);
    const [first] = await demo.backpack.list({ limit: 1 });
    await demo.backpack.delete(first!.id);
    const after = await demo.backpack.list().all();
    expect(after).toHaveLength(43);
    expect(after.some((i) => i.id === first!.id)).toBe(false);
    expect((await caught(demo.backpack.delete(first!.id))).status).toBe(404);
  });

  it('refusals: another user, no login, bad arguments', async () => {
    const other = await ctx.login(1);
    expect(await other.backpack.list()).toHaveLength(0);
    const demo = await ctx.login(0);
    // Someone else's backpack, asked for with one's own token: refused.
    const url = `${ctx.sandbox.hosts.backpack}/${demo.username}`;
    const error = await caught(other.authedJson(url));
    expect(error.status).toBe(403);
    expect(error.reason).toBe('This is not your backpack');
    expect(() => ctx.anonymous().backpack.list()).toThrow(LoginRequiredError);
    await expect(demo.backpack.delete('../x')).rejects.toThrow(RangeError);
    await expect(demo.backpack.download('nope.json')).rejects.toThrow(RangeError);
    await expect(demo.backpack.download({} as never)).rejects.toThrow(TypeError);
    expect((await caught(demo.backpack.download(`${'0'.repeat(32)}.svg`))).status).toBe(404);
    expect(new Session({ hosts: ctx.sandbox.hosts }).hosts.backpack).toBe(`${ctx.sandbox.url}/backpack`);
  });
});
