import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRequestValue, RequestAssembler, RequesterLookup } from '../../src/cloud/requests/index.js';

const piece = (value: string) => parseRequestValue(value)!;

/** Whether a promise has settled yet (after the microtasks already queued). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([promise, Promise.resolve(pending)])) !== pending;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RequestAssembler', () => {
  it('completes a short request at once and ignores it when it comes again', () => {
    const assembler = new RequestAssembler();
    expect(assembler.accept(piece('3537.417950'))).toEqual({
      status: 'complete',
      rid: '417950',
      digits: '3537',
      pieces: 1,
    });
    expect(assembler.accept(piece('3537.417950'))).toEqual({ status: 'duplicate', rid: '417950' });
    expect(assembler.has('417950')).toBe(true);
  });

  it('joins the pieces of one rid in order, digit for digit (pieces need not be even)', () => {
    const assembler = new RequestAssembler();
    expect(assembler.accept(piece('-353.123450'))).toEqual({ status: 'partial', rid: '123450', pieces: 1 });
    expect(assembler.accept(piece('-7.123450'))).toEqual({ status: 'partial', rid: '123450', pieces: 2 });
    expect(assembler.pending).toBe(1);
    expect(assembler.accept(piece('12.123450'))).toEqual({
      status: 'complete',
      rid: '123450',
      digits: '353712',
      pieces: 3,
    });
    expect(assembler.pending).toBe(0);
    // A late repeat of a piece of a finished request is ignored too.
    expect(assembler.accept(piece('-353.123450')).status).toBe('duplicate');
  });

  it('keeps interleaved requests of different rids apart', () => {
    const assembler = new RequestAssembler();
    assembler.accept(piece('-11.100010'));
    assembler.accept(piece('-21.200020'));
    assembler.accept(piece('-12.100010'));
    expect(assembler.accept(piece('22.200020'))).toMatchObject({ status: 'complete', digits: '2122' });
    expect(assembler.accept(piece('13.100010'))).toMatchObject({ status: 'complete', digits: '111213' });
  });

  it('remembers the last `memory` rids only', () => {
    const assembler = new RequestAssembler({ memory: 3 });
    for (const rid of ['10', '20', '30', '40']) assembler.accept(piece(`11.${rid}`));
    expect(assembler.has('10')).toBe(false);
    expect(assembler.has('20')).toBe(true);
    expect(assembler.accept(piece('11.10')).status).toBe('complete');
  });

  it('takes a rid without handling it', () => {
    const assembler = new RequestAssembler();
    assembler.accept(piece('-11.50'));
    assembler.take('50');
    expect(assembler.pending).toBe(0);
    expect(assembler.accept(piece('11.50')).status).toBe('duplicate');
  });

  it('drops a request that grows over maxDigits and takes its rid', () => {
    const assembler = new RequestAssembler({ maxDigits: 6 });
    assembler.accept(piece('-1111.70'));
    expect(assembler.accept(piece('-111.70'))).toEqual({ status: 'too-long', rid: '70', digits: 7 });
    expect(assembler.accept(piece('11.70')).status).toBe('duplicate');
    expect(assembler.pending).toBe(0);
  });

  it('keeps at most maxPending unfinished requests, dropping the least recently extended', () => {
    const assembler = new RequestAssembler({ maxPending: 2 });
    assembler.accept(piece('-11.10'));
    assembler.accept(piece('-21.20'));
    assembler.accept(piece('-12.10')); // 10 is now the most recent
    assembler.accept(piece('-31.30')); // 20 goes
    expect(assembler.pending).toBe(2);
    expect(assembler.accept(piece('22.20'))).toMatchObject({ status: 'complete', digits: '22' });
    expect(assembler.accept(piece('13.10'))).toMatchObject({ status: 'complete', digits: '111213' });
  });

  it('forgets an unfinished request after staleAfterMs without a piece', () => {
    let now = 0;
    const assembler = new RequestAssembler({ staleAfterMs: 1000, now: () => now });
    assembler.accept(piece('-11.10'));
    now = 999;
    assembler.accept(piece('-12.10'));
    now = 1998;
    expect(assembler.accept(piece('-21.20')).status).toBe('partial');
    expect(assembler.pending).toBe(2);
    now = 3000;
    expect(assembler.accept(piece('13.10'))).toMatchObject({ status: 'complete', digits: '13', pieces: 1 });
    expect(assembler.pending).toBe(0);
  });

  it('refuses bad bounds', () => {
    expect(() => new RequestAssembler({ memory: 0 })).toThrow(RangeError);
    expect(() => new RequestAssembler({ maxDigits: 1.5 })).toThrow(TypeError);
    expect(() => new RequestAssembler({ now: 3 as unknown as () => number })).toThrow(TypeError);
  });
});

describe('RequesterLookup', () => {
  const entry = (user: string, value: string, name = 'TO_HOST', verb = 'set') => ({
    user,
    verb,
    name,
    value,
  });

  it('finds the newest setter of the value, sharing one log read between lookups', async () => {
    let reads = 0;
    const lookup = new RequesterLookup(async () => {
      reads++;
      return [
        entry('carol', '11.30'),
        entry('bob', '11.20'),
        entry('old', '11.20'),
        entry('x', '11.30', 'OTHER'),
      ];
    });
    const [bob, carol] = await Promise.all([
      lookup.find('TO_HOST', '11.20'),
      lookup.find('TO_HOST', '11.30'),
    ]);
    expect([bob, carol]).toEqual(['bob', 'carol']);
    expect(reads).toBe(1);
  });

  it('reads again until the entry shows up, and gives null after its timeout', async () => {
    const log: ReturnType<typeof entry>[] = [];
    let reads = 0;
    const lookup = new RequesterLookup(
      async () => {
        reads++;
        if (reads === 3) log.unshift(entry('late', '11.40'));
        return [...log];
      },
      { intervalMs: 10, timeoutMs: 300 },
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const late = lookup.find('TO_HOST', '11.40');
    await vi.advanceTimersByTimeAsync(20);
    expect(await late).toBe('late');
    expect(reads).toBe(3);
    const missing = lookup.find('TO_HOST', '99.90');
    await vi.advanceTimersByTimeAsync(299);
    expect(await settled(missing)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await missing).toBeNull();
    expect(lookup.pending).toBe(0);
  });

  it('survives a failing or hanging log: null within the timeout', async () => {
    const failing = new RequesterLookup(
      () => {
        throw new Error('no logs endpoint');
      },
      { intervalMs: 10, timeoutMs: 50 },
    );
    expect(await failing.find('TO_HOST', '1.10')).toBeNull();
    const hanging = new RequesterLookup(() => new Promise(() => undefined), { timeoutMs: 50 });
    expect(await hanging.find('TO_HOST', '1.10')).toBeNull();
  });

  it('checks its reader and options when it is made', () => {
    const read = async () => [];
    expect(() => new RequesterLookup(undefined as unknown as typeof read)).toThrow(TypeError);
    expect(() => new RequesterLookup(read, null as unknown as object)).toThrow(TypeError);
    expect(() => new RequesterLookup(read, { timeoutMs: -1 })).toThrow(RangeError);
    expect(() => new RequesterLookup(read, { timeoutMs: Number.NaN })).toThrow(TypeError);
    expect(() => new RequesterLookup(read, { intervalMs: 0 })).toThrow(RangeError);
    expect(() => new RequesterLookup(read, { intervalMs: '10' as unknown as number })).toThrow(TypeError);
    expect(() => new RequesterLookup(read, { limit: 0 })).toThrow(RangeError);
    expect(() => new RequesterLookup(read, { limit: 2.5 })).toThrow(TypeError);
    expect(() => new RequesterLookup(read, { limit: 1001 })).toThrow(RangeError);
    const lookup = new RequesterLookup(read, { timeoutMs: 0, intervalMs: 1, limit: 1000 });
    expect([lookup.timeoutMs, lookup.intervalMs, lookup.limit]).toEqual([0, 1, 1000]);
  });

  it('waits no longer than a shorter limit given to find()', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const lookup = new RequesterLookup(async () => [], { intervalMs: 10, timeoutMs: 10_000 });
    const found = lookup.find('TO_HOST', '1.10', 40);
    await vi.advanceTimersByTimeAsync(39);
    expect(await settled(found)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await found).toBeNull();
  });

  it('cancel() answers every lookup null at once', async () => {
    const lookup = new RequesterLookup(async () => [], { intervalMs: 10, timeoutMs: 10_000 });
    const found = lookup.find('TO_HOST', '1.10');
    lookup.cancel();
    expect(await found).toBeNull();
  });
});
