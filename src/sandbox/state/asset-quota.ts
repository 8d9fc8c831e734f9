import { HttpError } from '../errors.js';

/**
 * Bytes of assets each user has uploaded, against a per-user quota. An asset counts for the
 * user who first stored it; uploading bytes the sandbox already holds costs nothing (same name,
 * same bytes). The platform's own quota is not public: the sandbox picks one (see the options).
 */
export class AssetQuota {
  readonly #used = new Map<number, number>();

  constructor(readonly limit: number) {}

  /** Bytes stored by this user so far. */
  used(userId: number): number {
    return this.#used.get(userId) ?? 0;
  }

  /**
   * Throws 413 when `bytes` more would take the user past the quota. Call it before reading a
   * body (with the declared length) and again, with `charge`, right before storing: nothing is
   * awaited between that check and the store, so concurrent uploads cannot both slip under.
   */
  check(userId: number, bytes: number): void {
    if (this.used(userId) + bytes > this.limit) {
      throw new HttpError(
        413,
        'PayloadTooLarge',
        `asset quota exceeded: ${this.used(userId)} of ${this.limit} bytes used, this asset needs ${bytes}`,
      );
    }
  }

  /** Counts stored bytes against the user (after {@link check}). */
  charge(userId: number, bytes: number): void {
    this.#used.set(userId, this.used(userId) + bytes);
  }
}
