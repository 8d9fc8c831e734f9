/** The alignment that lets log polls report each entry once (src/cloud/log-anchor.ts). */
import { describe, expect, it } from 'vitest';
import { anchorOf, countNew, entryKey } from '../../src/cloud/log-anchor.js';
import type { CloudLogEntry } from '../../src/records/records.js';

const entry = (timestamp: number, value: string, name = 'x', user = 'u'): CloudLogEntry => ({
  user,
  verb: 'set',
  name,
  value,
  timestamp,
});
const keys = (entries: CloudLogEntry[]) => entries.map(entryKey);

describe('log anchor', () => {
  it('runs from the newest entry to the first entry of an older millisecond', () => {
    const read = [entry(5, 'a'), entry(5, 'a'), entry(5, 'b'), entry(4, 'c'), entry(3, 'd')];
    expect(anchorOf(read, 100)).toEqual(keys(read.slice(0, 4)));
    expect(anchorOf(read, 2)).toEqual(keys(read.slice(0, 2)));
    expect(anchorOf([], 10)).toEqual([]);
  });

  it('counts identical entries of the same millisecond by their place', () => {
    const before = [entry(5, 'a'), entry(5, 'a'), entry(4, 'b')];
    const anchor = anchorOf(before, 100);
    const after = [entry(5, 'a'), entry(5, 'a'), entry(5, 'a'), ...before];
    expect(countNew(anchor, keys(after), false)).toBe(3);
    expect(countNew(anchor, keys(before), false)).toBe(0);
  });

  it('asks for another page when the read is too short to tell', () => {
    const anchor = keys([entry(9, 'z'), entry(8, 'y')]);
    const page = keys([entry(10, '1'), entry(10, '2'), entry(9, 'z')]);
    expect(countNew(anchor, page, false)).toBeNull();
    expect(countNew(anchor, [...page, ...keys([entry(8, 'y')])], false)).toBe(2);
  });

  it('treats everything as new once the log is read to its start', () => {
    expect(countNew([], keys([entry(1, 'a')]), true)).toBe(1);
    expect(countNew([], keys([entry(1, 'a')]), false)).toBeNull();
    expect(countNew(keys([entry(0, 'gone')]), keys([entry(1, 'a'), entry(1, 'b')]), true)).toBe(2);
  });

  it('matches what is left of an anchor in a trimmed log', () => {
    const anchor = keys([entry(3, 'c'), entry(2, 'b'), entry(1, 'a')]);
    expect(countNew(anchor, keys([entry(4, 'd'), entry(3, 'c'), entry(2, 'b')]), true)).toBe(1);
  });
});
