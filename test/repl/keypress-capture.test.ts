import { EventEmitter } from 'node:events';
import type { Key } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { KeypressRouter } from '../../repl/terminal/keypress-capture.js';

const press = (input: EventEmitter, text: string, key: Partial<Key> = { name: text }) =>
  input.emit('keypress', text, { sequence: text, ...key });

describe('KeypressRouter', () => {
  it('sends keys to a capture, then gives them back to the old listeners', () => {
    const input = new EventEmitter();
    const seen: string[] = [];
    input.on('keypress', (text: string) => seen.push(`readline:${text}`));
    const router = new KeypressRouter(input);
    const release = router.capture((text) => seen.push(`capture:${text}`));
    press(input, 'a');
    release();
    press(input, 'b');
    expect(seen).toEqual(['capture:a', 'readline:b']);
  });

  it('holds keys back and replays them in order; Ctrl-C interrupts instead', () => {
    const input = new EventEmitter();
    const seen: string[] = [];
    input.on('keypress', (text: string) => seen.push(text));
    let interrupted = 0;
    const release = new KeypressRouter(input).hold(() => interrupted++);
    press(input, 'x');
    press(input, '\x03', { name: 'c', ctrl: true });
    press(input, 'y');
    expect(seen).toEqual([]);
    expect(interrupted).toBe(1);
    release();
    expect(seen).toEqual(['x', 'y']);
  });

  it('lets a replayed key start a new hold that takes the rest', () => {
    const input = new EventEmitter();
    const router = new KeypressRouter(input);
    const seen: string[] = [];
    let second: (() => void) | undefined;
    input.on('keypress', (text: string) => {
      seen.push(text);
      if (text === '\r') second = router.hold(() => undefined); // Enter starts another evaluation
    });
    const first = router.hold(() => undefined);
    for (const key of ['1', '\r', '2', '3']) press(input, key);
    first();
    expect(seen).toEqual(['1', '\r']);
    second?.();
    expect(seen).toEqual(['1', '\r', '2', '3']);
  });
});
