/** Caller mistakes read as a person would say them (issue 12 §4). */
import { PagedList } from 'scratchlab';
import { describe, expect, it } from 'vitest';
import { assertInteger } from '../../src/records/validate.js';

const list = (page: object) => new PagedList(async () => [], page);

describe('validation messages', () => {
  it('says "at least", "at most" or "between", with the value given', () => {
    expect(() => list({ limit: 0 })).toThrow(new RangeError('limit must be at least 1, got 0'));
    expect(() => list({ offset: -1 })).toThrow(new RangeError('offset must be at least 0, got -1'));
    expect(() => assertInteger(51, 'prefetch', 1, 50)).toThrow(
      new RangeError('prefetch must be between 1 and 50, got 51'),
    );
    expect(() => assertInteger(5, 'x', Number.MIN_SAFE_INTEGER, 4)).toThrow(
      new RangeError('x must be at most 4, got 5'),
    );
    expect(() => assertInteger(0, 'size', 1, 10_000)).toThrow('size must be between 1 and 10,000, got 0');
  });

  it('says "whole number" for fractions and other kinds of values', () => {
    expect(() => list({ limit: 2.5 })).toThrow(new TypeError('limit must be a whole number, got 2.5'));
    expect(() => list({ limit: '3' })).toThrow(new TypeError('limit must be a whole number, got "3"'));
  });
});
