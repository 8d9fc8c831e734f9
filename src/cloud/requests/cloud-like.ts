/**
 * The part of a `Cloud` that cloud requests and cloud storage use. Written as a structural
 * interface so a host can run on any object that behaves like a cloud connection (the real
 * `Cloud`, or a stand-in in tests).
 *
 * @module
 */

/** A variable set by another connection, as the cloud reports it (name without `☁ `). */
export interface CloudSetLike {
  readonly name: string;
  readonly value: string;
  /** True for the values the server sends right after a handshake (state, not new activity). */
  readonly initial?: boolean;
}

/** One entry of the cloud log, newest first (only `user`, `verb`, `name` and `value` are read). */
export interface CloudLogLike {
  readonly user: string;
  readonly verb: string;
  readonly name: string;
  readonly value: string;
}

/** What {@link CloudRequests} needs from a cloud connection. `Cloud` fits it. */
export interface CloudLike {
  /** Longest value in characters (256 on the platform). */
  readonly lengthLimit: number;
  /** Least time between two sets, in seconds. */
  readonly rateLimit: number;
  /** True on the platform, where the cloud log tells who set a variable. */
  readonly isPlatform: boolean;
  /** The connection state; `open` once handshaken (optional: without it, values on the first connection count as stale). */
  readonly state?: string;
  /** Connects if needed; settles when ready. */
  connect(): Promise<void>;
  /** Sets a variable (name without `☁ `); calls are sent in order, paced by the rate limit. */
  setVar(name: string, value: string | number): Promise<void>;
  on(event: 'set', listener: (event: CloudSetLike) => void): unknown;
  on(event: 'connect', listener: (event: unknown) => void): unknown;
  off(event: 'set', listener: (event: CloudSetLike) => void): unknown;
  off(event: 'connect', listener: (event: unknown) => void): unknown;
  /** The cloud log, newest first; may throw or reject where there is none. */
  logs(options: { limit: number }): PromiseLike<readonly CloudLogLike[]>;
}
