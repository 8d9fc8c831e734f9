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

/** `Object.prototype`'s members: on every object, so never worth listing. */
const NOISE = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__']);

type Completions = [string[], string];
type Completer = (
  line: string,
  callback: (error: Error | null | undefined, result?: Completions) => void,
) => void;

/** The member name of a completion (`session.users` → `users`). */
function memberOf(completion: string): string {
  return completion.slice(completion.lastIndexOf('.') + 1);
}

/**
 * Orders and cleans node's completions of `expr.member`: node lists the prototype chain from
 * `Object.prototype` down, the object's own members last; here the object's own come first, then
 * its class's, and `Object.prototype`'s members are dropped (unless they are all that match), so a
 * single real match is completed in place by readline.
 */
export function cleanCompletions(list: readonly string[], completing: string): string[] {
  const groups: string[][] = [[]];
  for (const name of list) {
    if (name === '') groups.push([]);
    else groups[groups.length - 1]!.push(name);
  }
  const member = completing.includes('.');
  if (member) groups.reverse();
  const useful = groups.map((group) => group.filter((name) => !member || !NOISE.has(memberOf(name))));
  const kept = useful.some((group) => group.length > 0) ? useful : groups;
  const out: string[] = [];
  const seen = new Set<string>();
  for (const group of kept) {
    const fresh = group.filter((name) => !seen.has(name));
    if (fresh.length === 0) continue;
    if (out.length > 0) out.push('');
    for (const name of fresh) {
      seen.add(name);
      out.push(name);
    }
  }
  return out;
}

/** Wraps the REPL's completer with {@link cleanCompletions}. */
export function installCompletionFilter(repl: { completer: unknown }): void {
  const original = repl.completer as Completer;
  const completer: Completer = (line, callback) =>
    original.call(repl, line, (error, result) => {
      if (error || !result) return callback(error, result);
      callback(null, [cleanCompletions(result[0] ?? [], String(result[1] ?? line)), result[1]]);
    });
  repl.completer = completer;
}
