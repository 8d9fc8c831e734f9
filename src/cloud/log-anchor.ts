/**
 * How a log poll tells new entries from known ones. The log only grows at its newest end, so a
 * poll remembers its newest entries (the anchor) and the next poll finds where that run now
 * sits: everything before it is new. Entries are compared by all their fields, so identical
 * entries in the same millisecond are told apart by their place in the run, not merged.
 *
 * The anchor runs from the newest entry to the first entry of an older millisecond (included):
 * new entries never carry an older time, so that entry pins the run to one place.
 */
import type { CloudLogEntry } from '../records/records.js';

export function entryKey(entry: CloudLogEntry): string {
  return `${entry.timestamp}|${entry.user}|${entry.verb}|${entry.name}|${entry.value}`;
}

/** The anchor of a read (newest first): up to the first older millisecond, at most `max` entries. */
export function anchorOf(newestFirst: readonly CloudLogEntry[], max: number): string[] {
  const anchor: string[] = [];
  const newest = newestFirst[0]?.timestamp;
  for (const entry of newestFirst) {
    if (anchor.length >= max) break;
    anchor.push(entryKey(entry));
    if (entry.timestamp < newest!) break;
  }
  return anchor;
}

/**
 * How many of `keys` (a read, newest first) are new: the first place where the whole anchor
 * follows. `null` when the read is too short to tell (read another page). With `complete` (the
 * read reached the log's oldest entry), a log trimmed since is matched on what is left of it.
 */
export function countNew(
  anchor: readonly string[],
  keys: readonly string[],
  complete: boolean,
): number | null {
  if (anchor.length === 0) return complete ? keys.length : null;
  for (let shift = 0; shift + anchor.length <= keys.length; shift++) {
    if (matchesAt(anchor, keys, shift, anchor.length)) return shift;
  }
  if (!complete) return null;
  for (let shift = Math.max(0, keys.length - anchor.length + 1); shift < keys.length; shift++) {
    if (matchesAt(anchor, keys, shift, keys.length - shift)) return shift;
  }
  return keys.length;
}

function matchesAt(
  anchor: readonly string[],
  keys: readonly string[],
  shift: number,
  length: number,
): boolean {
  for (let i = 0; i < length; i++) if (keys[shift + i] !== anchor[i]) return false;
  return true;
}
