/**
 * The one error `.sb3` and zip reading throws for a file it cannot use, with a `code` a caller
 * can branch on and a message a user can act on.
 */

/** Why an archive or `.sb3` file was refused. */
export type ArchiveErrorCode =
  /** The bytes are not a zip archive at all. */
  | 'not-zip'
  /** The archive is cut short (its central directory or an entry's data is missing). */
  | 'truncated'
  /** Headers that contradict each other, a bad checksum or deflate data that does not inflate. */
  | 'corrupt'
  /** More entries, or more bytes in one entry or in all, than the limits allow. */
  | 'limit'
  /** An entry compressed with a method other than stored or deflate (bzip2, LZMA, …). */
  | 'unsupported-compression'
  /** An encrypted entry, a zip64 archive or a multi-part archive. */
  | 'unsupported'
  /** An entry name with `..`, an absolute path, a drive letter, a backslash or a NUL. */
  | 'unsafe-name'
  /** Two entries with the same name. */
  | 'duplicate-entry'
  /** No `project.json` at the top or inside one top-level folder. */
  | 'no-project-json'
  /** `project.json` is not JSON, nests too deep, or has no `targets` array. */
  | 'bad-project-json'
  /** A Scratch 2 project (`.sb2`) or a Scratch 1.x one (`.sb`). */
  | 'scratch2'
  /** A sprite (`.sprite3`), not a project. */
  | 'sprite';

/** A zip or `.sb3` file that cannot be read; `code` says why, `entry` names the entry at fault. */
export class ArchiveError extends RangeError {
  constructor(
    readonly code: ArchiveErrorCode,
    message: string,
    readonly entry?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ArchiveError';
  }
}
