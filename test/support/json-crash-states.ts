/**
 * The sequence of writes of the JSON crash test: write `i` (1, 2, ...) stores `valueFor(i)`
 * under `keyFor(i)`, so the state after any number of writes can be rebuilt.
 */

/** The key written by write `i`. */
export function keyFor(i: number): string {
  return `k${i % 13}`;
}

/** The value written by write `i`: its number, then a length that varies from write to write. */
export function valueFor(i: number): string {
  return `${i}:${'x'.repeat((i * 37) % 3000)}`;
}

/** The file's object after the first `count` writes. */
export function stateAfter(count: number): Record<string, string> {
  const state: Record<string, string> = {};
  for (let i = 1; i <= count; i++) state[keyFor(i)] = valueFor(i);
  return state;
}

/** How many writes a state holds: the highest write number among its values (0 when empty). */
export function writesIn(state: Record<string, string>): number {
  let count = 0;
  for (const value of Object.values(state)) count = Math.max(count, Number.parseInt(value, 10));
  return count;
}
