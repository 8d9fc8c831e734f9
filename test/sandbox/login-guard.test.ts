import { describe, expect, it } from 'vitest';
import { LoginGuard } from '../../src/sandbox/rules/login-guard.js';

/** A clock the test moves by hand. */
function manualClock(start = 1_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
    set(ms: number) {
      now = ms;
    },
  };
}

describe('LoginGuard', () => {
  it('locks a username after 5 failures and lets it in again once the window has passed', () => {
    const clock = manualClock();
    const guard = new LoginGuard({ maxFailures: 5, windowMs: 60_000, now: clock.now });
    for (let i = 0; i < 5; i++) {
      clock.set(1_000 + i);
      expect(guard.fail('Someone')).toBe(i + 1);
    }
    clock.set(30_000);
    expect(guard.isLocked('SOMEONE')).toBe(true);
    clock.set(60_999);
    expect(guard.isLocked('someone')).toBe(true);
    clock.set(61_000);
    expect(guard.isLocked('someone')).toBe(false);
    clock.set(61_005);
    expect(guard.recentFailures('someone')).toBe(0);
  });

  it('forgets failures after a success', () => {
    const guard = new LoginGuard({ now: manualClock().now });
    guard.fail('a');
    guard.fail('a');
    guard.succeed('A');
    expect(guard.recentFailures('a')).toBe(0);
    expect(guard.size).toBe(0);
  });

  it('does not keep a name that was only asked about', () => {
    const guard = new LoginGuard({ now: manualClock().now });
    for (let i = 0; i < 1_000; i++) expect(guard.isLocked(`nobody${i}`)).toBe(false);
    expect(guard.size).toBe(0);
  });

  it('drops expired names: 10,000 distinct failed usernames leave a small table once the window passed', () => {
    const clock = manualClock();
    const guard = new LoginGuard({ windowMs: 60_000, now: clock.now });
    for (let i = 0; i < 10_000; i++) {
      guard.fail(`bot${i}`);
      clock.advance(1);
    }
    expect(guard.size).toBe(10_000);
    clock.advance(60_000);
    // Any later call sweeps: a check of an unrelated name, or one more failure.
    expect(guard.isLocked('someone_else')).toBe(false);
    expect(guard.size).toBe(0);
    guard.fail('late');
    expect(guard.size).toBe(1);
  });

  it('sweeps as it goes: a steady stream of new names keeps only the last window', () => {
    const clock = manualClock();
    const guard = new LoginGuard({ windowMs: 1_000, now: clock.now });
    for (let i = 0; i < 50_000; i++) {
      guard.fail(`bot${i}`);
      clock.advance(10); // 100 names a second, a 1 s window: about 100 live names at any time
    }
    expect(guard.size).toBeLessThanOrEqual(101);
  });

  it('caps the table when more distinct names fail inside one window than it keeps', () => {
    const clock = manualClock();
    const guard = new LoginGuard({ windowMs: 60_000, maxNames: 1_000, now: clock.now });
    for (let i = 0; i < 25_000; i++) guard.fail(`bot${i}`);
    expect(guard.size).toBe(1_000);
    // The newest names are the ones kept.
    expect(guard.recentFailures('bot24999')).toBe(1);
    expect(guard.recentFailures('bot0')).toBe(0);
  });

  it('keeps at most maxFailures timestamps per name, however often fail is called', () => {
    const clock = manualClock();
    const guard = new LoginGuard({ maxFailures: 3, now: clock.now });
    for (let i = 0; i < 100; i++) guard.fail('hammer');
    expect(guard.recentFailures('hammer')).toBe(3);
    expect(guard.isLocked('hammer')).toBe(true);
  });

  it('still locks a name that keeps failing while others come and go', () => {
    const clock = manualClock();
    const guard = new LoginGuard({ maxFailures: 5, windowMs: 60_000, maxNames: 100, now: clock.now });
    for (let i = 0; i < 5; i++) {
      guard.fail('target');
      for (let k = 0; k < 30; k++) guard.fail(`noise${i}-${k}`);
      clock.advance(1_000);
    }
    expect(guard.isLocked('target')).toBe(true);
  });

  it('refuses invalid settings', () => {
    expect(() => new LoginGuard({ maxFailures: 0 })).toThrow(RangeError);
    expect(() => new LoginGuard({ windowMs: -1 })).toThrow(RangeError);
    expect(() => new LoginGuard({ maxNames: 0 })).toThrow(RangeError);
  });
});
