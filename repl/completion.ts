/**
 * Tab completion. node's completer works on the REPL's context; for `expr.<Tab>` it asks the
 * REPL's `eval` for the value of `expr`, wrapped as `try { expr } catch {}`. The evaluator
 * recognises those probes and evaluates them plainly (no awaiting, no progress, no held keys).
 */

const PROBE = /^try \{ [\s\S]* \} catch \{\}$/;

/**
 * Whether `code` is node's completion probe. Typed input always reaches `eval` with a final
 * newline; the probe never has one, so a user typing the same text is not mistaken for it.
 */
export function isCompletionProbe(code: string): boolean {
  return !code.endsWith('\n') && PROBE.test(code);
}
