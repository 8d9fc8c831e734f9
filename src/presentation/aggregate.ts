/**
 * Cloud logs reduced to what charts and summaries need: a bounded number of points per variable
 * and exact per-user counts. Pure, so big logs (100,000 entries) are handled in JS in one pass
 * instead of being handed whole to Vega or the terminal plotter.
 */
import type { CloudLogEntry } from '../records/records.js';

/** A numeric value of a variable at a time (milliseconds since the epoch). */
export interface TimePoint {
  time: number;
  value: number;
}

/** One variable's activity and its numeric values over time. */
export interface VariableActivity {
  name: string;
  /** Entries naming this variable (all verbs). */
  entries: number;
  /** The latest value set (numeric or not), or `null` if none was. */
  lastValue: string | null;
  /** Values set that are not numbers (skipped from `points`). */
  nonNumeric: number;
  /** Numeric values in time order, at most `maxPoints` of them (last value per time bucket). */
  points: TimePoint[];
}

/** How many log entries a user made. */
export interface UserActivity {
  user: string;
  count: number;
}

/** The result of {@link aggregateLogs}. */
export interface LogAggregate {
  /** Number of entries in the log. */
  entries: number;
  /** Earliest and latest timestamps, or `null` for an empty log. */
  start: number | null;
  end: number | null;
  /** Every variable, most active first (ties by name). */
  variables: VariableActivity[];
  /** Every user, most active first (ties by name); counts are exact. */
  users: UserActivity[];
}

/** Options of {@link aggregateLogs}. */
export interface AggregateOptions {
  /** Most points kept per variable (default 500). */
  maxPoints?: number;
}

/** Default bound on points per variable. */
export const DEFAULT_MAX_POINTS = 500;

const NUMBER = /^\s*-?(?:(\d+)(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/**
 * A cloud value as a number, or `null` if it is not a plain decimal number. Digit strings longer
 * than 15 integer digits are taken as text encoded in digits (WIRE.md §7), not as quantities: a
 * double cannot hold them exactly and they would flatten every other value on a chart.
 */
export function parseCloudNumber(value: string): number | null {
  const m = NUMBER.exec(value);
  if (!m) return null;
  if (m[1] !== undefined && m[1].replace(/^0+(?=\d)/, '').length > 15) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * Thin time-ordered points to at most `maxPoints`: the time span is cut into `maxPoints` equal
 * buckets and the last point of each non-empty bucket is kept (a cloud variable holds its last
 * value, so that is what the bucket shows).
 */
export function bucketLast(points: readonly TimePoint[], maxPoints: number): TimePoint[] {
  const n = Math.max(1, Math.floor(maxPoints));
  if (points.length <= n) return points.slice();
  const start = points[0]!.time;
  const span = points[points.length - 1]!.time - start;
  if (span <= 0) return [points[points.length - 1]!];
  const buckets: (TimePoint | undefined)[] = new Array(n);
  for (const p of points) {
    const i = Math.min(n - 1, Math.floor(((p.time - start) / span) * n));
    buckets[i] = p; // time order: later points overwrite earlier ones
  }
  return buckets.filter((p): p is TimePoint => p !== undefined);
}

/**
 * Thin time-ordered points for drawing to at most `2 * buckets`: the span is cut into `buckets`
 * equal buckets and each keeps its lowest and its highest point, in time order, so the peaks and
 * dips of a million points survive on a line a few hundred pixels wide. The points themselves are
 * not changed; fewer than `2 * buckets` come back as they are (copied).
 */
export function bucketMinMax(points: readonly TimePoint[], buckets: number): TimePoint[] {
  const n = Math.max(1, Math.floor(buckets));
  if (points.length <= 2 * n) return points.slice();
  const start = points[0]!.time;
  const span = points[points.length - 1]!.time - start;
  const low: (TimePoint | undefined)[] = new Array(n);
  const high: (TimePoint | undefined)[] = new Array(n);
  for (const p of points) {
    const i = span <= 0 ? 0 : Math.min(n - 1, Math.floor(((p.time - start) / span) * n));
    if (low[i] === undefined || p.value < low[i]!.value) low[i] = p;
    if (high[i] === undefined || p.value > high[i]!.value) high[i] = p;
  }
  const out: TimePoint[] = [];
  for (let i = 0; i < n; i++) {
    const a = low[i];
    const b = high[i];
    if (a === undefined || b === undefined) continue;
    if (a === b) out.push(a);
    else if (a.time <= b.time) out.push(a, b);
    else out.push(b, a);
  }
  return out;
}

/**
 * The value a variable holds at `n` evenly spaced moments: sample `i` is the last point at or
 * before `start + (i + 1) * (end - start) / n` (so the last sample is the value at `end`), or
 * `null` before the first point. Points before `start` seed the first samples.
 */
export function resampleSteps(
  points: readonly TimePoint[],
  start: number,
  end: number,
  n: number,
): (number | null)[] {
  const count = Math.max(0, Math.floor(n));
  const out: (number | null)[] = new Array(count);
  const span = end - start;
  let j = 0;
  let current: number | null = null;
  for (let i = 0; i < count; i++) {
    const boundary = i === count - 1 ? end : start + ((i + 1) * span) / count;
    while (j < points.length && points[j]!.time <= boundary) current = points[j++]!.value;
    out[i] = current;
  }
  return out;
}

interface Building {
  entries: number;
  lastValue: string | null;
  lastTime: number;
  nonNumeric: number;
  points: TimePoint[];
}

const byCountThenName =
  <T>(count: (x: T) => number, name: (x: T) => string) =>
  (a: T, b: T): number =>
    count(b) - count(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

/**
 * Aggregate a cloud log (in any order; the wire sends newest first): per-variable numeric series
 * from `set` and `create` entries, bucketed to at most `maxPoints`, and exact per-user counts.
 */
export function aggregateLogs(
  entries: readonly CloudLogEntry[],
  options: AggregateOptions = {},
): LogAggregate {
  const maxPoints = options.maxPoints ?? DEFAULT_MAX_POINTS;
  const vars = new Map<string, Building>();
  const users = new Map<string, number>();
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  let sorted = true;

  // Walk oldest first so entries with equal timestamps keep their real order.
  const newestFirst = entries.length > 1 && entries[0]!.timestamp > entries[entries.length - 1]!.timestamp;
  for (let k = 0; k < entries.length; k++) {
    const e = entries[newestFirst ? entries.length - 1 - k : k]!;
    const t = e.timestamp;
    if (t < start) start = t;
    if (t > end) end = t;
    users.set(e.user, (users.get(e.user) ?? 0) + 1);
    let v = vars.get(e.name);
    if (!v) {
      v = { entries: 0, lastValue: null, lastTime: Number.NEGATIVE_INFINITY, nonNumeric: 0, points: [] };
      vars.set(e.name, v);
    }
    v.entries++;
    if (e.verb !== 'set' && e.verb !== 'create') continue;
    if (t >= v.lastTime) {
      v.lastValue = e.value;
      v.lastTime = t;
    }
    const value = parseCloudNumber(e.value);
    if (value === null) {
      v.nonNumeric++;
      continue;
    }
    const last = v.points[v.points.length - 1];
    if (last && t < last.time) sorted = false;
    v.points.push({ time: t, value });
  }

  const variables: VariableActivity[] = [];
  for (const [name, v] of vars) {
    // Stable sort keeps equal timestamps in log order; only needed for shuffled input.
    const points = sorted ? v.points : v.points.sort((a, b) => a.time - b.time);
    variables.push({
      name,
      entries: v.entries,
      lastValue: v.lastValue,
      nonNumeric: v.nonNumeric,
      points: bucketLast(points, maxPoints),
    });
  }
  variables.sort(
    byCountThenName(
      (x: VariableActivity) => x.entries,
      (x) => x.name,
    ),
  );
  const userList = [...users].map(([user, count]) => ({ user, count }));
  userList.sort(
    byCountThenName(
      (x: UserActivity) => x.count,
      (x) => x.user,
    ),
  );
  return {
    entries: entries.length,
    start: entries.length ? start : null,
    end: entries.length ? end : null,
    variables,
    users: userList,
  };
}

/** A live `set` event: a variable took a numeric value at `time` (milliseconds since the epoch). */
export interface LivePoint {
  time: number;
  name: string;
  value: number;
}

/** Most points a live chart keeps (in the REPL and in notebooks); older ones are dropped. */
export const MAX_LIVE_POINTS = 100_000;

/** Appends `point` to a live chart's history, dropping the oldest past {@link MAX_LIVE_POINTS}. */
export function addLivePoint(points: LivePoint[], point: LivePoint): void {
  points.push(point);
  if (points.length > MAX_LIVE_POINTS) points.splice(0, points.length - MAX_LIVE_POINTS);
}

/** One variable's values within a live window. */
export interface LiveSeries {
  name: string;
  /** Points in time order inside the window; the value held when the window opened comes first, at its start. */
  points: TimePoint[];
  /** Changes inside the window. */
  changes: number;
}

/**
 * The `[start, end]` of a live window of `windowSeconds`: it ends at `now`, or by default at the
 * latest point (so a chart redrawn on each event ends at that event), or at the clock if there
 * are no points.
 */
export function liveBounds(
  points: readonly LivePoint[],
  windowSeconds: number,
  now?: number,
): { start: number; end: number } {
  let end = now;
  if (end === undefined) {
    let latest = Number.NEGATIVE_INFINITY;
    for (const p of points) if (p.time > latest) latest = p.time;
    end = Number.isFinite(latest) ? latest : Date.now();
  }
  return { start: end - windowSeconds * 1000, end };
}

/**
 * The live points of each variable within `[start, end]`, bucketed to at most `maxPoints` (most
 * changes first, ties by name). A variable's last value before `start` is kept, moved to `start`,
 * so its line begins at the window's edge instead of at its first change.
 */
export function liveWindow(
  points: readonly LivePoint[],
  start: number,
  end: number,
  maxPoints: number = DEFAULT_MAX_POINTS,
): LiveSeries[] {
  const byName = new Map<string, { seed: TimePoint | null; inside: TimePoint[] }>();
  const ordered = points.every((p, i) => i === 0 || points[i - 1]!.time <= p.time)
    ? points
    : [...points].sort((a, b) => a.time - b.time);
  for (const p of ordered) {
    if (!Number.isFinite(p.value) || p.time > end) continue;
    let s = byName.get(p.name);
    if (!s) {
      s = { seed: null, inside: [] };
      byName.set(p.name, s);
    }
    if (p.time < start) s.seed = { time: start, value: p.value };
    else s.inside.push({ time: p.time, value: p.value });
  }
  const out: LiveSeries[] = [];
  for (const [name, s] of byName) {
    // The seed only matters if no change happened exactly at the window's start.
    const all = s.seed && s.inside[0]?.time !== start ? [s.seed, ...s.inside] : s.inside;
    out.push({ name, points: bucketLast(all, maxPoints), changes: s.inside.length });
  }
  out.sort(
    byCountThenName(
      (x: LiveSeries) => x.changes,
      (x) => x.name,
    ),
  );
  return out;
}
