/**
 * Deterministic cloud history for the sandbox: a game whose log holds a week of play (well over
 * 10,000 entries from a dozen players, for charts), and the fixture project's one variable.
 * The same seed and reference time give the same entries, byte for byte.
 */
import { CLOUD_PREFIX } from '../../cloud/cloud-values.js';
import { Random } from '../seed/random.js';
import type { CloudLogRecord, CloudState } from './cloud-state.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The game's variables, as the project names them (without `☁ `). */
export const GAME_VARIABLES = [
  'high score',
  'players online',
  'total plays',
  'last score',
  'daily best',
] as const;

/** Who plays and who made the game. */
export interface GameSeedOptions {
  seed: number;
  /** The end of the history (the sandbox's reference "now"). */
  now: number;
  /** The project's owner: creates the variables. */
  owner: string;
  /** Players; the first few play the most. At least 3. */
  players: readonly string[];
  /** Days of play (default 7). */
  days?: number;
}

/** One planned log entry; its value is computed when the history is replayed in time order. */
interface Planned {
  at: number;
  user: string;
  verb: CloudLogRecord['verb'];
  name: string;
  /** The value, or `''` for "no entry after all" (a score that beat nothing). */
  value: (game: GameTally) => string;
}

interface GameTally {
  online: number;
  plays: number;
  high: number;
  dailyBest: number;
  day: number;
}

const wire = (name: string): string => CLOUD_PREFIX + name;

/**
 * Writes a game's history into `state` under `projectId`: the owner creates the variables (and
 * tries, renames and deletes one), then players come and go with a daily rhythm. Each play sets
 * `players online` when it starts, and `last score`, `total plays`, `players online` (and
 * `high score` / `daily best` when beaten) when it ends. Returns the number of log entries.
 */
export function seedGameHistory(state: CloudState, projectId: string, options: GameSeedOptions): number {
  if (options.players.length < 3) throw new Error('the game needs at least 3 players');
  const rng = new Random(options.seed * 7919 + 17);
  const days = options.days ?? 7;
  const start = options.now - days * DAY - 6 * HOUR;
  const planned: Planned[] = [];
  const constant = (value: string) => () => value;

  // The owner sets the project up: every variable at 0, and an event flag tried out and dropped.
  let at = start;
  for (const name of GAME_VARIABLES) {
    at += rng.int(400, 3000);
    planned.push({ at, user: options.owner, verb: 'create_var', name, value: constant('0') });
  }
  at += 20 * MINUTE;
  planned.push({ at, user: options.owner, verb: 'create_var', name: 'beta', value: constant('1') });
  at += 2 * HOUR;
  // A rename entry names the old variable and carries the new name as its value.
  planned.push({ at, user: options.owner, verb: 'rename_var', name: 'beta', value: constant(wire('event')) });
  at += DAY;
  planned.push({ at, user: options.owner, verb: 'del_var', name: 'event', value: constant('1') });

  // Players: a few regulars and a long tail (weights fall off with the index).
  const weights = options.players.map((_, i) => 1 / (1 + i) ** 1.1);
  const total = weights.reduce((a, b) => a + b, 0);
  const pickPlayer = () => {
    let r = rng.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return options.players[i]!;
    }
    return options.players[options.players.length - 1]!;
  };

  // Plays arrive more often in the (UTC) evening; about 460 a day.
  // The last play ends (at most 7 minutes later) before "now".
  let t = start + HOUR;
  for (;;) {
    const hour = new Date(t).getUTCHours();
    const rhythm = 0.35 + 0.65 * Math.max(0, Math.sin(((hour - 9) / 24) * 2 * Math.PI));
    const perMinute = (460 / (24 * 60)) * rhythm * 1.6;
    t += Math.max(1000, Math.round((-Math.log(1 - rng.next()) / perMinute) * MINUTE));
    if (t >= options.now - 10 * MINUTE) break;
    const user = pickPlayer();
    const end = t + rng.int(40, 420) * 1000 + rng.int(0, 999);
    const score = Math.max(10, rng.skewed(900, 0.7)) * 10;
    const set = (when: number, name: string, value: Planned['value']) =>
      planned.push({ at: when, user, verb: 'set_var', name, value });
    set(t, 'players online', (g) => String(++g.online));
    // Sets at the end of a play follow each other by a few ms, sometimes within the same ms.
    let e = end;
    set(e, 'last score', constant(String(score)));
    e += rng.chance(0.2) ? 0 : rng.int(1, 120);
    set(e, 'total plays', (g) => String(++g.plays));
    e += rng.int(0, 150);
    set(e, 'high score', (g) => {
      if (score <= g.high) return '';
      g.high = score;
      return String(score);
    });
    set(e, 'daily best', (g) => {
      const day = Math.floor(end / DAY);
      if (day !== g.day) {
        g.day = day;
        g.dailyBest = 0;
      }
      if (score <= g.dailyBest) return '';
      g.dailyBest = score;
      return String(score);
    });
    e += rng.int(90, 400);
    set(e, 'players online', (g) => String(Math.max(0, --g.online)));
  }

  // Replay in time order (stable for ties): the log is ordered and counters read as they would live.
  planned.sort((a, b) => a.at - b.at);
  const tally: GameTally = { online: 0, plays: 0, high: 0, dailyBest: 0, day: -1 };
  const values = state.project(projectId).values;
  let logged = 0;
  for (const entry of planned) {
    const value = entry.value(tally);
    if (value === '') continue;
    state.record(projectId, {
      user: entry.user,
      verb: entry.verb,
      name: wire(entry.name),
      value,
      timestamp: entry.at,
    });
    logged++;
    if (entry.verb === 'set_var') values.set(wire(entry.name), value);
  }
  for (const name of GAME_VARIABLES) if (!values.has(wire(name))) values.set(wire(name), '0');
  return logged;
}

/** A project with a few variables and their creation entries (e.g. the fixture's `☁ firstCloud`). */
export function seedSimpleProject(
  state: CloudState,
  projectId: string,
  owner: string,
  variables: Record<string, string>,
  at: number,
): void {
  let time = at;
  for (const [name, value] of Object.entries(variables)) {
    state.record(projectId, { user: owner, verb: 'create_var', name: wire(name), value, timestamp: time });
    state.project(projectId).values.set(wire(name), value);
    time += 1500;
  }
}
