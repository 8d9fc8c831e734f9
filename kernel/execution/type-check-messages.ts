/** The messages between the kernel and its type-check worker (./type-check-worker.ts). */

/** A type problem in a cell: 1-based line and column; `file` when it is in another file. */
export interface TypeProblem {
  file?: string;
  line: number;
  column: number;
  message: string;
  /** TypeScript's error number (`TS2322`). */
  code: number;
}

/**
 * Check `source` after every source sent before it; with `declarations`, after those (the cells
 * checked by a worker that has ended: ./type-checker.ts starts another).
 */
export interface CheckRequest {
  id: number;
  source: string;
  declarations?: string;
}

/** The answer to request `id` (`-1`: the worker is ready), with every declaration so far. */
export type CheckReply =
  | { id: number; problems: TypeProblem[]; declarations: string }
  | { id: number; failure: string; declarations: string };
