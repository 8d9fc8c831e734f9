import type { CloudLogEntry } from '../../src/records/records.js';

/** A deterministic pseudo-random generator (mulberry32), so big logs are the same every run. */
export function random(seed: number): () => number;

/** `n` log entries over `hours`, newest first as on the wire, across a few variables and users. */
export function bigLog(n: number, hours?: number): CloudLogEntry[];
