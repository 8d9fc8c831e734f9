/**
 * Classes, an educator's class list and backpack items show as tables (WIRE.md §12.2-12.3): read
 * from the sandbox through the real client, then laid out as the REPL and the kernel lay them out.
 */
import { describe, expect, it } from 'vitest';
import { recordKind, renderTable, toTable } from '../../src/presentation/index.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

describe('class and backpack tables', () => {
  it('a class and a closed class', async () => {
    const session = ctx.anonymous();
    const open = await session.classrooms.get(ctx.sandbox.samples.classroom);
    const closed = await session.classrooms.get(ctx.sandbox.samples.closedClassroom);
    expect(recordKind([open, closed])).toBe('classroom');
    const table = toTable([open, closed]);
    expect(table.columns.map((c) => c.key)).toEqual([
      'id',
      'title',
      'educator',
      'workingOn',
      'started',
      'state',
    ]);
    expect(table.rows[0]).toEqual([
      String(open.id),
      'Grade 6 Coding Club',
      ctx.sandbox.samples.educator,
      'Unit 2: making a platformer',
      open.date_start!.slice(0, 10),
      'open',
    ]);
    expect(table.rows[1]!.at(-1)).toBe('closed');
    expect(table.rows[1]![4]).toBe('');
    expect(table.links[0]![1]).toBe(`/classes/${open.id}/`);
    expect(renderTable(table, { width: 100 })).toContain('Grade 6 Coding Club');
  });

  it("an educator's classes leave the sign-up token out", async () => {
    const teacher = await ctx.login(3);
    const rows = await teacher.classrooms.mine();
    const table = toTable(rows);
    expect(table.kind).toBe('classroomRow');
    expect(table.columns.map((c) => c.key)).toEqual(['id', 'title', 'students', 'created']);
    expect(table.rows.find((r) => r[1] === 'Grade 6 Coding Club')![2]).toBe('45');
    expect(JSON.stringify(table.rows)).not.toContain(ctx.sandbox.samples.classroomToken);
  });

  it('backpack items', async () => {
    const demo = await ctx.login(0);
    const items = await demo.backpack.list({ limit: 4 });
    const table = toTable(items);
    expect(table.kind).toBe('backpackItem');
    expect(table.columns.map((c) => c.key)).toEqual(['name', 'type', 'mime', 'file', 'id']);
    expect(table.rows.map((r) => r[1])).toEqual(['script', 'costume', 'sound', 'sprite']);
    expect(table.rows[0]![3]).toMatch(/^[0-9a-f]{32}\.json$/);
  });
});
