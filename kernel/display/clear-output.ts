/**
 * `clearOutput({ wait })`, the kernel's global (IPython's `clear_output(wait)`): clears the calling
 * cell's outputs (the last cell's, when called from a timer after it ended). With `wait: true` the
 * front end clears only when the next output arrives, so a loop that redraws does not flicker.
 */

/** Options of `clearOutput`. */
export interface ClearOutputOptions {
  /** Clear when the next output arrives rather than at once (default `false`). */
  wait?: boolean;
}

/** `clearOutput(options?)`. */
export type ClearOutput = (options?: ClearOutputOptions) => void;

/** Creates `clearOutput` over the server's `clear_output` message. */
export function createClearOutput(send: (wait: boolean) => void): ClearOutput {
  return (options = {}) => {
    if (typeof options !== 'object' || options === null)
      throw new TypeError('clearOutput takes { wait?: boolean }');
    const { wait = false } = options;
    if (typeof wait !== 'boolean') throw new TypeError('clearOutput: wait must be true or false');
    send(wait);
  };
}
