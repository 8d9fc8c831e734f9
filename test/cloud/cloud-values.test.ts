/** Numbers as cloud values (review finding 17): written out in full, so they pass the numeric rule. */
import { describe, expect, it } from 'vitest';
import { checkValue, isNumericValue, numberText } from '../../src/cloud/cloud-values.js';

const platform = { allowNonNumeric: false, lengthLimit: 256 };

describe('numberText', () => {
  it('writes numbers String() would put in exponent form out in full', () => {
    expect(numberText(1e21)).toBe('1000000000000000000000');
    expect(numberText(-1e21)).toBe('-1000000000000000000000');
    expect(numberText(1e-7)).toBe('0.0000001');
    expect(numberText(-2.5e-8)).toBe('-0.000000025');
    expect(numberText(1.2345e-7)).toBe('0.00000012345');
  });

  it('writes other numbers as String() does', () => {
    for (const n of [0, 42, -3.5, 0.5, 123.456, 1e-6, Number.MAX_SAFE_INTEGER])
      expect(numberText(n)).toBe(String(n));
    expect(numberText(-0)).toBe('0');
  });

  it('gives text that reads back as the same number and passes the numeric rule', () => {
    for (const n of [1e21, 2 ** 70, 1e-7, 9.99e-7, -4.2e-12, 1.7976931348623157e308]) {
      const text = numberText(n);
      expect(Number(text)).toBe(n);
      expect(isNumericValue(text)).toBe(true);
    }
  });
});

describe('checkValue with numbers', () => {
  it('accepts 1e21 and 1e-7 as numbers', () => {
    expect(checkValue(1e21, platform)).toBe('1000000000000000000000');
    expect(checkValue(1e-7, platform)).toBe('0.0000001');
  });

  it('still refuses what does not fit: too long, not finite', () => {
    expect(() => checkValue(1e300, platform)).toThrow(/301 characters long; the limit is 256/);
    expect(() => checkValue(Number.POSITIVE_INFINITY, platform)).toThrow(RangeError);
  });
});
