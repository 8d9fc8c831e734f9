import { describe, expect, it } from 'vitest';
import { RequestAssembler } from '../../src/cloud/requests/request-assembler.js';
import {
  checkRequestName,
  encodeRequest,
  parseRequestValue,
} from '../../src/cloud/requests/request-protocol.js';
import { encode } from '../../src/encoding.js';
import { refusal } from '../support/refusals.js';

// The edges of the request protocol and the assembler's bounds, with exact messages; the clock of
// the assembler is passed in, so staleness is counted without reading a real one.

describe('request protocol edges', () => {
  it('reads only values of the request form', () => {
    expect(parseRequestValue(5 as never)).toBeNull();
    expect(parseRequestValue('12')).toBeNull();
    expect(parseRequestValue('-1234.567')).toEqual({ rid: '567', digits: '1234', last: false });
    expect(parseRequestValue('1234.567')).toEqual({ rid: '567', digits: '1234', last: true });
  });

  it('encodes a request and refuses names and arguments that cannot travel', () => {
    expect(encodeRequest('ping')).toBe(encode('ping'));
    expect(encodeRequest('add', ['1', '2'])).toBe(encode('add&1&2'));
    expect(refusal(() => encodeRequest('add', '1' as never))).toBe(
      'TypeError: encodeRequest: args must be an array of strings',
    );
    expect(refusal(() => encodeRequest('add', ['1', 2 as never]))).toBe(
      'TypeError: encodeRequest: args[1] must be a string, got number',
    );
    expect(refusal(() => encodeRequest('add', ['1', 'a&b']))).toBe(
      'RangeError: encodeRequest: args[1] must not contain "&" (it separates the arguments)',
    );
    expect(refusal(() => encodeRequest('a&b'))).toBe(
      'RangeError: encodeRequest: name must not contain "&" (it separates a request\'s arguments): "a&b"',
    );
    expect(refusal(() => checkRequestName(3))).toBe('TypeError: name must be a string, got number');
    expect(refusal(() => checkRequestName('', 'request name'))).toBe(
      'RangeError: request name must not be empty',
    );
  });
});

describe('request assembler bounds', () => {
  it('checks its bounds and clock', () => {
    expect(refusal(() => new RequestAssembler({ memory: 0 }))).toBe(
      'RangeError: memory must be at least 1, got 0',
    );
    expect(refusal(() => new RequestAssembler({ maxPending: 0 }))).toBe(
      'RangeError: maxPending must be at least 1, got 0',
    );
    expect(refusal(() => new RequestAssembler({ maxDigits: 0 }))).toBe(
      'RangeError: maxDigits must be at least 1, got 0',
    );
    expect(refusal(() => new RequestAssembler({ staleAfterMs: 0 }))).toBe(
      'RangeError: staleAfterMs must be at least 1, got 0',
    );
    expect(refusal(() => new RequestAssembler({ now: 5 as never }))).toBe(
      'TypeError: now must be a function returning milliseconds',
    );
    const defaults = new RequestAssembler();
    expect([defaults.memory, defaults.maxPending, defaults.maxDigits, defaults.staleAfterMs]).toEqual([
      64, 256, 1_000_000, 30_000,
    ]);
  });

  it('takes a request of exactly maxDigits, and refuses one digit more', () => {
    const assembler = new RequestAssembler({ maxDigits: 4 });
    expect(assembler.accept({ rid: '1', digits: '12', last: false })).toEqual({
      status: 'partial',
      rid: '1',
      pieces: 1,
    });
    expect(assembler.accept({ rid: '1', digits: '34', last: true })).toEqual({
      status: 'complete',
      rid: '1',
      digits: '1234',
      pieces: 2,
    });
    expect(assembler.accept({ rid: '2', digits: '123', last: false }).status).toBe('partial');
    expect(assembler.accept({ rid: '2', digits: '45', last: true })).toEqual({
      status: 'too-long',
      rid: '2',
      digits: 5,
    });
    expect(assembler.accept({ rid: '2', digits: '1', last: true })).toEqual({
      status: 'duplicate',
      rid: '2',
    });
  });

  it('drops a partial request once it is stale, exactly at staleAfterMs', () => {
    let now = 0;
    const assembler = new RequestAssembler({ staleAfterMs: 100, now: () => now });
    assembler.accept({ rid: '1', digits: '12', last: false });
    now = 99;
    expect(assembler.accept({ rid: '1', digits: '34', last: false })).toEqual({
      status: 'partial',
      rid: '1',
      pieces: 2,
    });
    now = 198;
    expect(assembler.accept({ rid: '2', digits: '56', last: false }).status).toBe('partial');
    now = 199;
    // Request 1 was last added to at 99: at 199 it is 100 ms old, stale, and starts again.
    expect(assembler.accept({ rid: '1', digits: '78', last: true })).toEqual({
      status: 'complete',
      rid: '1',
      digits: '78',
      pieces: 1,
    });
    expect(assembler.accept({ rid: '2', digits: '9', last: true })).toEqual({
      status: 'complete',
      rid: '2',
      digits: '569',
      pieces: 2,
    });
  });
});
