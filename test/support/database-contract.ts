/**
 * The behaviour every `Database` adapter shares (src/databases/database.ts), as one suite that
 * each adapter's test file runs against its own instances.
 */
import { expect, it } from 'vitest';
import type { Database } from '../../src/databases/database.js';

/** Makes a fresh, empty database for one test. */
export type MakeDatabase = () => Promise<Database> | Database;

/** Registers the shared tests in the current `describe` block. */
export function databaseContract(make: MakeDatabase): void {
  it('answers undefined for a missing key and lists no keys when empty', async () => {
    const db = await make();
    expect(await db.get('missing')).toBeUndefined();
    expect(await db.keys()).toEqual([]);
  });

  it('sets, gets and overwrites', async () => {
    const db = await make();
    await db.set('score', '10');
    expect(await db.get('score')).toBe('10');
    await db.set('score', '11');
    expect(await db.get('score')).toBe('11');
    await db.set('score', '');
    expect(await db.get('score')).toBe('');
    expect(await db.keys()).toEqual(['score']);
  });

  it('lists keys sorted', async () => {
    const db = await make();
    for (const key of ['b', 'a', 'C', 'a1', '10', '9', 'é', '😀']) await db.set(key, key);
    expect(await db.keys()).toEqual(['10', '9', 'C', 'a', 'a1', 'b', 'é', '😀']);
  });

  it('stores a finite number as its string, refuses other values', async () => {
    const db = await make();
    await db.set('n', 42);
    await db.set('x', -1.5);
    expect(await db.get('n')).toBe('42');
    expect(await db.get('x')).toBe('-1.5');
    await expect(db.set('n', Number.NaN)).rejects.toThrow(RangeError);
    await expect(db.set('n', Number.POSITIVE_INFINITY)).rejects.toThrow(/finite number/);
    await expect(db.set('n', null as unknown as string)).rejects.toThrow(TypeError);
    await expect(db.set('n', { a: 1 } as unknown as string)).rejects.toThrow(/value must be a string/);
    await expect(db.set('n', 'a\u0000b')).rejects.toThrow(/NUL/);
    await expect(db.set('n', 'a\ud800b')).rejects.toThrow(/lone surrogate/);
    expect(await db.get('n')).toBe('42');
  });

  it('refuses bad keys without storing anything', async () => {
    const db = await make();
    await expect(db.set('', 'v')).rejects.toThrow(/key must not be empty/);
    await expect(db.set(5 as unknown as string, 'v')).rejects.toThrow(TypeError);
    await expect(db.get(undefined as unknown as string)).rejects.toThrow(/key must be a string/);
    await expect(db.set('a\u0000', 'v')).rejects.toThrow(/NUL/);
    await expect(db.set('\udc00x', 'v')).rejects.toThrow(/lone surrogate/);
    await expect(db.set('k'.repeat(256), 'v')).rejects.toThrow(/256 characters long; the limit is 255/);
    expect(await db.keys()).toEqual([]);
  });

  it('takes keys of 255 characters, counted in code points', async () => {
    const db = await make();
    const ascii = 'k'.repeat(255);
    const astral = '😀'.repeat(255); // 510 UTF-16 units, 1020 UTF-8 bytes
    await db.set(ascii, 'a');
    await db.set(astral, 'b');
    expect(await db.get(ascii)).toBe('a');
    expect(await db.get(astral)).toBe('b');
    await expect(db.set(`${astral}😀`, 'c')).rejects.toThrow(RangeError);
  });

  it('keeps unicode keys and values intact', async () => {
    const db = await make();
    const value = 'Ünïcödé 日本語 😀 \n\t\r "quotes" \'single\' \\ back`tick` ␀';
    await db.set('日本語 😀', value);
    expect(await db.get('日本語 😀')).toBe(value);
    expect(await db.keys()).toEqual(['日本語 😀']);
  });

  it('tells apart keys that differ by case or trailing spaces', async () => {
    const db = await make();
    await db.set('a', '1');
    await db.set('A', '2');
    await db.set('a ', '3');
    await db.set(' a', '4');
    expect([await db.get('a'), await db.get('A'), await db.get('a '), await db.get(' a')]).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(await db.keys()).toEqual([' a', 'A', 'a', 'a ']);
  });

  it('stores a large value', async () => {
    const db = await make();
    const big = 'Hello, World! 😀 '.repeat(70_000); // about 1.2 MB in UTF-8
    await db.set('big', big);
    expect(await db.get('big')).toBe(big);
  });

  it('treats injection-looking and special keys as plain text', async () => {
    const db = await make();
    const keys = [
      "'; DROP TABLE x; --",
      '"; DROP TABLE x; --',
      '`x`',
      '$1',
      '?',
      '%',
      '_',
      '__proto__',
      'constructor',
    ];
    for (const [i, key] of keys.entries()) await db.set(key, `v${i}`);
    for (const [i, key] of keys.entries()) expect(await db.get(key)).toBe(`v${i}`);
    expect(await db.get('x')).toBeUndefined();
    expect((await db.keys()).sort()).toEqual([...keys].sort());
    await db.set('v', "'); DELETE FROM x; --");
    expect(await db.get('v')).toBe("'); DELETE FROM x; --");
  });

  it('survives concurrent sets', async () => {
    const db = await make();
    const many = Array.from({ length: 40 }, (_, i) =>
      db.set(`key${String(i).padStart(2, '0')}`, `value${i}`),
    );
    const same = Array.from({ length: 20 }, (_, i) => db.set('same', `v${i}`));
    await Promise.all([...many, ...same]);
    const keys = await db.keys();
    expect(keys).toHaveLength(41);
    expect(await db.get('key07')).toBe('value7');
    expect(await db.get('same')).toMatch(/^v\d+$/);
  });
}
