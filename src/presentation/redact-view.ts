/**
 * Neither front end prints a secret: plain objects and arrays (an API answer, a parsed file) are
 * shown, in the REPL and in a notebook alike, with the values of token-like keys replaced. Class
 * instances keep their own `inspect` (the SDK's redact themselves); a value without such keys is
 * shown as it is, unchanged.
 */
import { inspect, types } from 'node:util';
import { isSecretKey, REDACTED } from '../redact.js';

/** Keys whose values are secrets: tokens, passwords, session ids, cookies, credentials. */
const SECRET_KEY =
  /^(x-?token|token|project_token|password|passwd|secret|client_secret|api_?key|authorization|cookie|set-cookie|csrf\w*|scratchcsrftoken|scratchsessionsid|session_?id)$|[_-](token|password|secret)$/i;

const MAX_DEPTH = 8;

/** A plain object or array that does not inspect itself (one that does, e.g. the sandbox, says what it wants shown). */
function isPlain(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!(prototype === Object.prototype || prototype === null || Array.isArray(value))) return false;
  return typeof (value as { [inspect.custom]?: unknown })[inspect.custom] !== 'function';
}

/**
 * Whether `key` names a secret in a value shown (text or table): the SDK's exact keys and wider
 * patterns (`access_token`, `api_key`, `authorization`, …).
 */
export function isSecretViewKey(key: string): boolean {
  return SECRET_KEY.test(key) || isSecretKey(key);
}

/**
 * `value`, or a copy with secrets replaced when it holds any (plain objects and arrays only), for
 * showing it; the value itself is never changed.
 */
export function redactForView(value: unknown, depth = 0, seen = new Set<object>()): unknown {
  // A proxy is shown as Node shows it (its target, no trap run): a trap may count, fail or fetch.
  if (
    typeof value !== 'object' ||
    value === null ||
    depth > MAX_DEPTH ||
    seen.has(value) ||
    types.isProxy(value) ||
    !isPlain(value)
  )
    return value;
  seen.add(value);
  try {
    let changed = false;
    // An array's copy is an array of its class, made without calling its constructor (`map` would
    // call a subclass's); its items and other keys are read as an object's.
    const copy: Record<string, unknown> = Array.isArray(value)
      ? Object.setPrototypeOf(new Array(value.length), Object.getPrototypeOf(value) as object | null)
      : Object.create(Object.getPrototypeOf(value) as object | null);
    // By descriptor: showing a value never runs its getters (one may count, fail or fetch); a
    // getter is copied as one (shown `[Getter]`), and one under a secret's key is not shown at all.
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(value))) {
      if (!descriptor.enumerable) continue;
      if (!('value' in descriptor)) {
        if (isSecretViewKey(key)) {
          changed = true;
          copy[key] = REDACTED;
        } else Object.defineProperty(copy, key, descriptor);
        continue;
      }
      const item: unknown = descriptor.value;
      const shown =
        isSecretViewKey(key) && item !== null && item !== undefined && item !== ''
          ? REDACTED
          : redactForView(item, depth + 1, seen);
      if (shown !== item) changed = true;
      copy[key] = shown;
    }
    return changed ? copy : value;
  } finally {
    seen.delete(value);
  }
}
