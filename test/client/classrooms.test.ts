/**
 * Classrooms (WIRE.md §12.2) through the real client against the sandbox: the public reads (API
 * record, token, students and studios pages, public activity, a closed class's page), the
 * educator's reads and writes, and the refusals (not an educator, another educator's class,
 * no CSRF, bad arguments).
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { classActivityName, LoginRequiredError, Session } from '../../src/index.js';
import { storeOf } from '../../src/sandbox/store-access.js';
import { caught } from '../support/caught.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();
const EDUCATOR = 3;
const samples = () => ctx.sandbox.samples;

describe('classroom reads (no login)', () => {
  it('get and byToken read the API record of an open class', async () => {
    const session = ctx.anonymous();
    const { classroom, classroomToken, educator } = samples();
    const row = await session.classrooms.get(classroom);
    expect(row).toMatchObject({
      id: classroom,
      title: 'Grade 6 Coding Club',
      status: 'Unit 2: making a platformer',
      closed: false,
      date_end: null,
      educator: { username: educator },
    });
    expect(Date.parse(row.date_start!)).toBeGreaterThan(0);
    expect((await session.classrooms.byToken(classroomToken)).id).toBe(classroom);
  });

  it('a closed class is read from its page: title, texts, educator, counts', async () => {
    const row = await ctx.anonymous().classrooms.get(samples().closedClassroom);
    expect(row).toEqual({
      id: samples().closedClassroom,
      title: 'Summer Camp 2025',
      description: 'Two weeks of Scratch.',
      status: 'All done: thank you!',
      date_start: null,
      date_end: null,
      closed: true,
      educator: { username: samples().educator },
      student_count: 6,
      studio_count: 0,
    });
  });

  it('students and studios walk every page', async () => {
    const session = ctx.anonymous();
    const pages: number[] = [];
    const students = await session.classrooms.students(samples().classroom, {
      onProgress: ({ pages: n }) => pages.push(n),
    });
    expect(students).toHaveLength(45);
    expect(new Set(students.map((s) => s.username)).size).toBe(45);
    expect(pages).toEqual([1, 2, 3]);
    const studios = await session.classrooms.studios(samples().classroom);
    expect(studios.map((s) => s.title)).toEqual(['Unit 1: Animation', 'Unit 2: Games']);
    expect((await session.studios.get(studios[0]!.id)).title).toBe('Unit 1: Animation');
    const cut = await session.classrooms.students(samples().classroom, { maxPages: 1 });
    expect(cut).toHaveLength(20);
  });

  it('activity reads the public HTML into typed activity rows', async () => {
    const rows = await ctx.anonymous().classrooms.activity(samples().classroom, { limit: 15 });
    expect(rows).toHaveLength(15);
    const students = new Set(
      (await ctx.anonymous().classrooms.students(samples().classroom)).map((s) => s.username),
    );
    for (const row of rows) {
      expect(students.has(row.actor_username)).toBe(true);
      expect(row.type).not.toBe('other');
      expect(row.ago).toMatch(/ago$/);
      expect(Number.isNaN(Date.parse(row.datetime_created))).toBe(false);
    }
  });

  it('unknown classes and bad arguments', async () => {
    const session = ctx.anonymous();
    expect((await caught(session.classrooms.get(999_999_999))).status).toBe(404);
    const unknown = await caught(session.classrooms.byToken('nosuchtoken'));
    expect(unknown.status).toBe(404);
    expect(unknown.message).not.toContain('nosuchtoken');
    await expect(session.classrooms.get(-1)).rejects.toThrow(RangeError);
    await expect(session.classrooms.byToken('a/../b')).rejects.toThrow(RangeError);
    await expect(session.classrooms.students(1, { maxPages: 0 })).rejects.toThrow(RangeError);
    await expect(session.classrooms.activity(1, { limit: 101 })).rejects.toThrow(RangeError);
    await expect(session.classrooms.mine()).rejects.toThrow(LoginRequiredError);
  });
});

describe('the educator', () => {
  it('logs in as an educator; mine lists open and closed classes with tokens', async () => {
    const teacher = await ctx.login(EDUCATOR);
    const info = await teacher.refreshSession();
    expect(info.permissions?.educator).toBe(true);
    const open = await teacher.classrooms.mine();
    expect(open.map((c) => c.pk)).toContain(samples().classroom);
    const row = open.find((c) => c.pk === samples().classroom)!;
    expect(row.fields.token).toBe(samples().classroomToken);
    // Printed or serialized, the sign-up token is hidden; an error naming it would hide it too.
    expect(inspect(row)).not.toContain(samples().classroomToken);
    expect(JSON.stringify(open)).not.toContain(samples().classroomToken);
    const closed = await teacher.classrooms.mine({ closed: true });
    expect(closed.map((c) => c.pk)).toEqual([samples().closedClassroom]);
    await expect(teacher.classrooms.mine({ sort: 'size' as 'title' })).rejects.toThrow(RangeError);
  });

  it('privateActivity and alerts', async () => {
    const teacher = await ctx.login(EDUCATOR);
    const all = await teacher.classrooms.privateActivity(samples().classroom);
    expect(all).toHaveLength(60);
    expect(typeof all[0]!.type).toBe('number');
    const names = new Set(all.map((row) => classActivityName(row.type)));
    expect([...names].every((name) => name !== 'performaction')).toBe(true);
    expect(names.has('loveproject')).toBe(true);
    const name = all[0]!.actor.username;
    const one = await teacher.classrooms.privateActivity(samples().classroom, { student: name });
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((row) => row.actor.username === name)).toBe(true);
    const alerts = await teacher.classrooms.alerts();
    expect(alerts.map((a) => a.fields.admin_action.type)).toEqual([6, 9, 4]);
    expect(JSON.parse(alerts[1]!.fields.admin_action.extra_data)).toEqual({ project_title: 'My first game' });
    expect(await teacher.classrooms.alerts({ classroom: samples().classroom })).toHaveLength(3);
  });

  it('create, edit, add a studio, close and reopen', async () => {
    const teacher = await ctx.login(EDUCATOR);
    const made = await teacher.classrooms.create({ title: 'Robotics 101', description: 'Sensors & motors' });
    expect(made).toMatchObject({ title: 'Robotics 101', description: 'Sensors & motors', closed: false });
    await teacher.classrooms.setTitle(made.id, 'Robotics 102');
    await teacher.classrooms.setDescription(made.id, 'Now with <b>servos</b>');
    await teacher.classrooms.setWorkingOn(made.id, 'Line followers');
    expect(await ctx.anonymous().classrooms.get(made.id)).toMatchObject({
      title: 'Robotics 102',
      description: 'Now with <b>servos</b>',
      status: 'Line followers',
    });
    const studio = await teacher.classrooms.addStudio(made.id, { title: 'Robot gallery' });
    expect(await ctx.anonymous().classrooms.studios(made.id)).toEqual([
      { id: studio, title: 'Robot gallery' },
    ]);

    await teacher.classrooms.close(made.id);
    const closed = await ctx.anonymous().classrooms.get(made.id);
    expect(closed).toMatchObject({ closed: true, title: 'Robotics 102', studio_count: 1 });
    expect((await teacher.classrooms.mine({ closed: true })).map((c) => c.pk)).toContain(made.id);
    await teacher.classrooms.reopen(made.id);
    expect((await ctx.anonymous().classrooms.get(made.id)).closed).toBe(false);
  });

  it('refusals: not an educator, another educator, no CSRF, bad arguments', async () => {
    const demo = await ctx.login(0);
    for (const call of [
      () => demo.classrooms.mine(),
      () => demo.classrooms.alerts(),
      () => demo.classrooms.privateActivity(samples().classroom),
      () => demo.classrooms.create({ title: 'Mine now' }),
      () => demo.classrooms.setTitle(samples().classroom, 'Taken over'),
      () => demo.classrooms.close(samples().classroom),
    ]) {
      // Each call made only when awaited: made all at once, a refusal that came before the loop
      // reached it was an unhandled rejection (vitest failed the run on it).
      const error = await caught(call());
      expect(error.status).toBe(403);
      expect(error.reason).toBe('Only educator accounts can do this');
    }
    expect((await ctx.anonymous().classrooms.get(samples().classroom)).title).toBe('Grade 6 Coding Club');

    const teacher = await ctx.login(EDUCATOR);
    await expect(teacher.classrooms.create({ title: '   ' })).rejects.toThrow(RangeError);
    await expect(teacher.classrooms.create({ title: 'x'.repeat(101) })).rejects.toThrow(RangeError);
    await expect(
      teacher.classrooms.setDescription(samples().classroom, 42 as unknown as string),
    ).rejects.toThrow(TypeError);
    await expect(
      teacher.classrooms.privateActivity(samples().classroom, { student: 'no such' }),
    ).rejects.toThrow(RangeError);

    // A forged request without the CSRF header: refused, nothing changed.
    const forged = new Session({ hosts: ctx.sandbox.hosts, jar: teacher.jar });
    const url = `${ctx.sandbox.url}/site-api/classrooms/close_classroom/${samples().classroom}/`;
    const error = await caught(forged.http.request(url, { method: 'POST' }));
    expect(error.status).toBe(403);
    expect(error.reason).toBe('CSRF verification failed');
    expect((await ctx.anonymous().classrooms.get(samples().classroom)).closed).toBe(false);
  });

  it('another educator may not read or change the class', async () => {
    // A second educator: the seed has one, so the other demo account is made one here.
    const store = storeOf(ctx.sandbox);
    const rival = await ctx.login(1);
    store.classrooms.educators.add(rival.userId!);
    try {
      for (const call of [
        () => rival.classrooms.privateActivity(samples().classroom),
        () => rival.classrooms.alerts({ classroom: samples().classroom }),
        () => rival.classrooms.setWorkingOn(samples().classroom, 'Mine now'),
        () => rival.classrooms.close(samples().classroom),
      ]) {
        const error = await caught(call());
        expect(error.status).toBe(403);
        expect(error.reason).toBe('This class belongs to another educator');
      }
      expect(await rival.classrooms.mine()).toHaveLength(0);
      expect((await ctx.anonymous().classrooms.get(samples().classroom)).status).toBe(
        'Unit 2: making a platformer',
      );
    } finally {
      store.classrooms.educators.delete(rival.userId!);
    }
  });
});
