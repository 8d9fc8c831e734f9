/**
 * The one error the analysis of a project throws for a body it cannot read, with a `code` a
 * caller can branch on. Archives that cannot be opened throw `ArchiveError` (`readSb3`) instead.
 */

/** Why a project could not be analysed. */
export type AnalysisErrorCode =
  /** A Scratch 2 body (`objName`, `children`): it has no targets to read. */
  | 'scratch2'
  /** Not a project body: not an object, no `targets` array, or a target or block of the wrong shape. */
  | 'bad-project'
  /** A block is reached twice while walking `next` and input links: a cycle or a shared block. */
  | 'cycle'
  /** A `next` or input link names a block the target does not have. */
  | 'missing-block'
  /** Blocks nested deeper than the limit. */
  | 'too-deep'
  /** More blocks than the limit. */
  | 'too-many-blocks';

/** A project body the analysis refuses; `code` says why, `target` and `block` say where. */
export class AnalysisError extends RangeError {
  constructor(
    readonly code: AnalysisErrorCode,
    message: string,
    readonly target?: string,
    readonly block?: string,
  ) {
    super(message);
    this.name = 'AnalysisError';
  }
}
