import { describe, expect, it } from 'vitest';
import { MemoryDatabase } from '../../src/databases/memory-database.js';
import { databaseContract } from '../support/database-contract.js';

describe('MemoryDatabase', () => {
  databaseContract(() => new MemoryDatabase());

  it('is named default unless told otherwise', () => {
    expect(new MemoryDatabase().name).toBe('default');
    expect(new MemoryDatabase({ name: 'scores' }).name).toBe('scores');
  });

  it('refuses a bad name or options', () => {
    expect(() => new MemoryDatabase({ name: '' })).toThrow(RangeError);
    expect(() => new MemoryDatabase({ name: 3 as unknown as string })).toThrow(/name must be a string/);
    expect(() => new MemoryDatabase(null as unknown as object)).toThrow(TypeError);
  });

  it('keeps instances apart', async () => {
    const a = new MemoryDatabase();
    const b = new MemoryDatabase();
    await a.set('k', '1');
    expect(await b.get('k')).toBeUndefined();
  });
});
