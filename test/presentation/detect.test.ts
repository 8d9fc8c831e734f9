import { describe, expect, it } from 'vitest';
import { isRecordOfKind, recordKind } from '../../src/presentation/index.js';
import { useSandbox } from '../support/sandbox.js';
import { comment, logEntry, project, studio, studioProject, user } from './records.js';

describe('recordKind', () => {
  it('tells each kind of record by its shape', () => {
    expect(recordKind(user(1, 'alice'))).toBe('user');
    expect(recordKind(project(10, 'Platformer'))).toBe('project');
    expect(recordKind(studio(20, 'Best games'))).toBe('studio');
    expect(recordKind(comment(30, 'Nice!'))).toBe('comment');
    expect(recordKind(studioProject(40, 'Racer'))).toBe('studioProject');
    expect(recordKind(logEntry(1_700_000_000_000, 'alice', 'score', '12'))).toBe('logEntry');
  });

  it('works on parsed JSON (plain objects), not classes', () => {
    expect(recordKind(JSON.parse(JSON.stringify(project(1, 'x'))))).toBe('project');
  });

  it('does not take a project author block for a user (it has no status)', () => {
    expect(recordKind(project(1, 'x').author)).toBeNull();
  });

  it('gives the shared kind of an array, e.g. search results', () => {
    expect(recordKind([project(1, 'a'), project(2, 'b'), project(3, 'c')])).toBe('project');
    expect(recordKind([studio(1, 'a'), studio(2, 'b')])).toBe('studio');
    expect(recordKind([user(1, 'a')])).toBe('user');
  });

  it('gives null for mixed, empty or foreign arrays', () => {
    expect(recordKind([project(1, 'a'), studio(2, 'b')])).toBeNull();
    expect(recordKind([project(1, 'a'), null])).toBeNull();
    expect(recordKind([])).toBeNull();
    expect(recordKind([1, 2, 3])).toBeNull();
  });

  it('gives null for anything else', () => {
    for (const x of [null, undefined, 42, 'alice', {}, { id: 1 }, { id: 1, title: 'x' }]) {
      expect(recordKind(x)).toBeNull();
    }
    // A log entry with an unknown verb is not a log entry.
    expect(recordKind({ ...logEntry(1, 'a', 'n', '1'), verb: 'set_var' })).toBeNull();
    // Wrong field types.
    expect(recordKind({ ...project(1, 'x'), id: '1' })).toBeNull();
  });

  it('isRecordOfKind narrows single records', () => {
    const x: unknown = studio(5, 'Art');
    expect(isRecordOfKind(x, 'studio')).toBe(true);
    expect(isRecordOfKind(x, 'project')).toBe(false);
    expect(isRecordOfKind([x], 'studio')).toBe(false);
  });
});

describe('recordKind on the records the client reads from the sandbox', () => {
  const ctx = useSandbox();

  it('knows each, and takes none that lacks its history (the dates its table shows) for that kind', async () => {
    const session = ctx.anonymous();
    const { samples } = ctx.sandbox;
    const records = {
      user: await session.users.get(samples.demoUser),
      project: await session.projects.get(samples.assetHeavyProject),
      projectRow: (await session.users.projects(samples.demoUser, { limit: 1 }))[0]!,
      studio: await session.studios.get(samples.studio),
    };
    expect(recordKind(records.user)).toBe('user');
    expect(recordKind(records.project)).toBe('project');
    expect(recordKind(records.projectRow)).toBe('project');
    expect(recordKind(records.studio)).toBe('studio');
    for (const [name, record] of Object.entries(records)) {
      const { history, ...rest } = record;
      expect({ name, history: typeof history }).toEqual({ name, history: 'object' });
      expect({ name, kind: recordKind(rest) }).toEqual({ name, kind: null });
    }
  });
});
