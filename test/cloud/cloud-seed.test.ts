/** The seeded cloud history is deterministic and shaped like a week of a real game. */
import { expect, it } from 'vitest';
import { CloudState, GAME_VARIABLES, seedGameHistory } from '../../src/sandbox/cloud/index.js';

const NOW = Date.UTC(2026, 10, 1, 12);
const players = ['ada', 'bo', 'cy', 'dee', 'eli', 'fay', 'gus', 'hal', 'ivy', 'jo', 'kit', 'lu'];

function seeded(seed: number) {
  const state = new CloudState();
  const count = seedGameHistory(state, '1', { seed, now: NOW, owner: 'maker', players });
  return { state, count };
}

it('gives the same history for the same seed, another for another seed', () => {
  const a = seeded(1);
  const b = seeded(1);
  const c = seeded(2);
  expect(a.count).toBeGreaterThanOrEqual(10_000);
  expect(a.state.project('1').log).toEqual(b.state.project('1').log);
  expect([...a.state.project('1').values]).toEqual([...b.state.project('1').values]);
  expect(c.state.project('1').log).not.toEqual(a.state.project('1').log);
});

it('spans the week before "now" in time order, with every game variable set', () => {
  const { state } = seeded(1);
  const log = state.project('1').log;
  const times = log.map((e) => e.timestamp);
  expect(times).toEqual([...times].sort((x, y) => x - y));
  expect(times[times.length - 1]).toBeLessThan(NOW);
  expect(NOW - times[0]!).toBeGreaterThan(7 * 86_400_000);
  expect(new Set(log.map((e) => e.user)).size).toBe(players.length + 1);
  expect([...state.project('1').values.keys()].sort()).toEqual(GAME_VARIABLES.map((n) => `☁ ${n}`).sort());
  // Some entries share a millisecond, as real logs do.
  expect(new Set(times).size).toBeLessThan(times.length);
});
