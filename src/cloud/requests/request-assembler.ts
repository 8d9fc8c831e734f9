/**
 * Joins the pieces of multi-part requests and remembers which rids were already taken, so a
 * request is handled once (WIRE.md §8). Memory is bounded on every side: the number of requests
 * being assembled, their length, how long an unfinished one is kept, and how many rids are
 * remembered.
 *
 * @module
 */
import { assertInteger } from '../../records/validate.js';
import type { RequestPiece } from './request-protocol.js';

/** Bounds of a {@link RequestAssembler}. */
export interface RequestAssemblerOptions {
  /** Rids remembered after their request was taken, to ignore repeats (default 64). */
  memory?: number;
  /** Unfinished requests kept at once; the least recently extended one is dropped first (default 256). */
  maxPending?: number;
  /** Most payload digits one request may have, all pieces together (default 1 000 000). */
  maxDigits?: number;
  /** An unfinished request that got no piece for this long is dropped, in milliseconds (default 30 000). */
  staleAfterMs?: number;
  /** The clock, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** What became of one piece. */
export type AssembleResult =
  /** The request is whole: `digits` is its full payload. */
  | { readonly status: 'complete'; readonly rid: string; readonly digits: string; readonly pieces: number }
  /** A piece of a request whose other pieces are still to come. */
  | { readonly status: 'partial'; readonly rid: string; readonly pieces: number }
  /** The rid was already taken: ignore this piece. */
  | { readonly status: 'duplicate'; readonly rid: string }
  /** The request went over `maxDigits`; it is dropped and its rid taken (answer it with an error). */
  | { readonly status: 'too-long'; readonly rid: string; readonly digits: number };

interface Partial {
  parts: string[];
  length: number;
  updatedAt: number;
}

/** Joins request pieces per rid and suppresses repeated rids. */
export class RequestAssembler {
  /** Rids remembered after their request was taken. */
  readonly memory: number;
  /** Unfinished requests kept at once. */
  readonly maxPending: number;
  /** Most payload digits of one request. */
  readonly maxDigits: number;
  /** Milliseconds after which an unfinished request is dropped. */
  readonly staleAfterMs: number;
  readonly #now: () => number;
  /** Unfinished requests, least recently extended first (Map keeps insertion order). */
  readonly #pending = new Map<string, Partial>();
  /** Taken rids, oldest first. */
  readonly #taken = new Set<string>();

  /** @throws TypeError / RangeError for a bound that is not a positive integer */
  constructor(options: RequestAssemblerOptions = {}) {
    this.memory = assertInteger(options.memory ?? 64, 'memory', 1);
    this.maxPending = assertInteger(options.maxPending ?? 256, 'maxPending', 1);
    this.maxDigits = assertInteger(options.maxDigits ?? 1_000_000, 'maxDigits', 1);
    this.staleAfterMs = assertInteger(options.staleAfterMs ?? 30_000, 'staleAfterMs', 1);
    if (options.now !== undefined && typeof options.now !== 'function') {
      throw new TypeError('now must be a function returning milliseconds');
    }
    this.#now = options.now ?? (() => performance.now());
  }

  /** Unfinished requests held now. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Whether a rid was already taken (and is still remembered). */
  has(rid: string): boolean {
    return this.#taken.has(rid);
  }

  /** Marks a rid as taken without handling it (e.g. a stale request found on connecting). */
  take(rid: string): void {
    this.#pending.delete(rid);
    this.#taken.delete(rid);
    this.#taken.add(rid);
    while (this.#taken.size > this.memory) this.#taken.delete(this.#taken.values().next().value!);
  }

  /** Takes one piece, in the order the pieces of its rid arrived. */
  accept(piece: RequestPiece): AssembleResult {
    const now = this.#now();
    this.#dropStale(now);
    const { rid } = piece;
    if (this.#taken.has(rid)) return { status: 'duplicate', rid };
    const partial = this.#pending.get(rid);
    const length = (partial?.length ?? 0) + piece.digits.length;
    if (length > this.maxDigits) {
      this.take(rid);
      return { status: 'too-long', rid, digits: length };
    }
    if (piece.last) {
      this.take(rid);
      if (partial === undefined) return { status: 'complete', rid, digits: piece.digits, pieces: 1 };
      partial.parts.push(piece.digits);
      return { status: 'complete', rid, digits: partial.parts.join(''), pieces: partial.parts.length };
    }
    if (partial === undefined) {
      this.#pending.set(rid, { parts: [piece.digits], length, updatedAt: now });
      while (this.#pending.size > this.maxPending) this.#pending.delete(this.#pending.keys().next().value!);
      return { status: 'partial', rid, pieces: 1 };
    }
    partial.parts.push(piece.digits);
    partial.length = length;
    partial.updatedAt = now;
    // Move it to the end: the map stays ordered by last update, so stale ones are found first.
    this.#pending.delete(rid);
    this.#pending.set(rid, partial);
    return { status: 'partial', rid, pieces: partial.parts.length };
  }

  /** Forgets every unfinished request (remembered rids stay). */
  clearPending(): void {
    this.#pending.clear();
  }

  #dropStale(now: number): void {
    for (const [rid, partial] of this.#pending) {
      if (now - partial.updatedAt < this.staleAfterMs) break;
      this.#pending.delete(rid);
    }
  }
}
