/**
 * The ledger of sets not known to have reached the server (the client side of review finding 3):
 * pongs confirm, time expires, other connections' values overtake, and memory stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { WriteLedger } from '../../src/cloud/write-ledger.js';
import { waitFor } from './support.js';

/** A ledger on a manual clock whose probes are answered by hand. */
function ledger(options: { canProbe?: boolean; maxEntries?: number; minProbeGapMs?: number } = {}) {
  let now = 0;
  const answers: (() => void)[] = [];
  const book = new WriteLedger({
    probe: (onAnswer) => {
      if (options.canProbe === false) return false;
      answers.push(onAnswer);
      return true;
    },
    windowMs: 2000,
    minProbeGapMs: options.minProbeGapMs ?? 0,
    maxEntries: options.maxEntries,
    now: () => now,
  });
  return {
    book,
    answers,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('WriteLedger', () => {
  it('keeps the latest value of each variable, in the order of the last writes', () => {
    const { book } = ledger({ canProbe: false });
    book.written('a', '1');
    book.written('b', '2');
    book.written('a', '3');
    expect(book.takeUnconfirmed()).toEqual([
      { name: 'b', value: '2' },
      { name: 'a', value: '3' },
    ]);
    expect(book.takeUnconfirmed()).toEqual([]); // taking empties it
  });

  it('probes once at a time: an answer confirms the writes before its probe, then the next probe goes', () => {
    const { book, answers } = ledger();
    book.written('a', '1');
    expect(answers).toHaveLength(1); // a probe right after the first write
    book.written('b', '2');
    book.written('c', '3');
    expect(answers).toHaveLength(1); // still one out
    answers[0]!();
    expect(book.size).toBe(2); // a is confirmed; b and c were written after the probe
    expect(answers).toHaveLength(2); // so another probe went
    answers[1]!();
    expect(book.size).toBe(0);
    expect(answers).toHaveLength(2); // nothing left: no more probes
  });

  it('spaces probes by minProbeGapMs: a burst of writes shares one', async () => {
    const { book, answers, advance } = ledger({ minProbeGapMs: 20 });
    book.written('a', '1');
    answers[0]!(); // a confirmed at once
    book.written('b', '2');
    book.written('c', '3');
    expect(answers).toHaveLength(1); // the next probe waits for the gap
    advance(20);
    await waitFor(() => answers.length === 2, 'the probe after the gap');
    answers[1]!();
    expect(book.size).toBe(0);
  });

  it('ignores the answer to a probe sent before a reset (another socket)', () => {
    const { book, answers } = ledger();
    book.written('a', '1');
    book.reset();
    book.written('b', '2');
    answers[0]!(); // the old socket's pong arrives late
    expect(book.takeUnconfirmed()).toEqual([{ name: 'b', value: '2' }]);
  });

  it('takes a write as arrived after the window, on any socket', () => {
    const { book, advance } = ledger({ canProbe: false });
    book.written('old', '1');
    advance(1500);
    book.written('new', '2');
    advance(600);
    expect(book.takeUnconfirmed()).toEqual([{ name: 'new', value: '2' }]);
  });

  it("drops a write another connection's value overtook", () => {
    const { book } = ledger({ canProbe: false });
    book.written('a', '1');
    book.written('b', '2');
    book.overtaken('a');
    expect(book.takeUnconfirmed()).toEqual([{ name: 'b', value: '2' }]);
  });

  it('remembers at most maxEntries variables, the least recently written going first', () => {
    const { book } = ledger({ canProbe: false, maxEntries: 3 });
    for (let i = 0; i < 10; i++) book.written(`v${i}`, String(i));
    expect(book.takeUnconfirmed().map((e) => e.name)).toEqual(['v7', 'v8', 'v9']);
  });
});
