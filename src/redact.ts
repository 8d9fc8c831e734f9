/**
 * Scrubbing of secrets from anything that can reach a log, an error message or a notebook.
 * Session ids, CSRF tokens, X-Tokens and project tokens must never leave the process in text.
 */

import { type InspectOptionsStylized, inspect } from 'node:util';

const SECRET_KEYS = new Set([
  'token',
  'x-token',
  'xtoken',
  'project_token',
  'password',
  'scratchsessionsid',
  'scratchcsrftoken',
  'csrftoken',
  'x-csrftoken',
  'csrfmiddlewaretoken',
  'sessionid',
  'cookie',
  'set-cookie',
]);

/** Whether a key (of JSON, a header, a query) names a secret, e.g. `token`, `project_token`. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

/** The placeholder that replaces a secret. */
export const REDACTED = '[redacted]';

/** Path segments whose next segment is a secret: a class's sign-up token (`/classtoken/<token>`). */
const SECRET_PATH_SEGMENTS = new Set(['classtoken']);

/** A URL path with the secret segments (the one after `classtoken`, ...) replaced. */
export function redactPath(path: string): string {
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++)
    if (SECRET_PATH_SEGMENTS.has(segments[i - 1]!.toLowerCase()) && segments[i] !== '')
      segments[i] = encodeURIComponent(REDACTED);
  return segments.join('/');
}

/** Replaces the values of secret query parameters (`token`, ...) and secret path segments in a URL. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = redactPath(parsed.pathname);
    let changed = path !== parsed.pathname;
    parsed.pathname = path;
    for (const key of [...parsed.searchParams.keys()]) {
      if (SECRET_KEYS.has(key.toLowerCase())) {
        parsed.searchParams.set(key, REDACTED);
        changed = true;
      }
    }
    return changed ? parsed.toString() : url;
  } catch {
    return url;
  }
}

/** A deep copy of a JSON value with the values of secret keys replaced. */
export function redactJson(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : redactJson(item, depth + 1);
  }
  return out;
}

/**
 * Redacts secret-looking `key: value` pairs in text that is not (or no longer) valid JSON, such
 * as a cut-off answer: `"token": "…"`, `token=…`, `scratchsessionsid=…`.
 */
export function redactPairs(text: string): string {
  const keys = [...SECRET_KEYS].map((key) => key.replace(/[-]/g, '\\-')).join('|');
  return text
    .replace(new RegExp(`("(?:${keys})"\\s*:\\s*)"[^"]*"?`, 'gi'), `$1"${REDACTED}"`)
    .replace(new RegExp(`\\b(${keys})=("[^"]*"?|[^;&\\s"]*)`, 'gi'), `$1=${REDACTED}`);
}

/** Replaces every occurrence of the given secrets in a text. Secrets shorter than 4 are ignored. */
export function redactText(text: string, secrets: Iterable<string | null | undefined>): string {
  let out = text;
  for (const secret of secretForms(secrets)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * A deep copy of a JSON value (or a text) with every occurrence of the given secrets replaced,
 * in string values and in keys alike, raw or percent-encoded (as in a redirect's `Location`).
 */
export function redactSecrets(value: unknown, secrets: Iterable<string | null | undefined>): unknown {
  const forms = secretForms(secrets);
  if (forms.length === 0) return value;
  const scrub = (text: string) => {
    let out = text;
    for (const secret of forms) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
  const walk = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return scrub(item);
    if (item === null || typeof item !== 'object' || depth > MAX_REDACT_DEPTH) return item;
    if (Array.isArray(item)) return item.map((child) => walk(child, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(item)) out[scrub(key)] = walk(child, depth + 1);
    return out;
  };
  return walk(value, 0);
}

/** Deeper than any answer the client keeps ({@link MAX_JSON_DEPTH} bounds what it parses). */
const MAX_REDACT_DEPTH = 1000;

/** Each secret as sent and as percent-encoded, longest first so no part of one survives. */
function secretForms(secrets: Iterable<string | null | undefined>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(encodeURIComponent(encodeURIComponent(secret)));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Gives a returned value that holds a secret (the session info's X-Token, a project token) a
 * `util.inspect` and a `toJSON` that show it with secret keys redacted, so that printing it in a
 * REPL, a notebook or a log never shows the secret. The value itself is unchanged.
 */
export function hideSecrets<T extends object>(value: T): T {
  Object.defineProperty(value, inspect.custom, {
    value: (_depth: number, options: InspectOptionsStylized, show?: typeof inspect) =>
      (show ?? inspect)(redactJson(value), options),
    enumerable: false,
    configurable: true,
  });
  Object.defineProperty(value, 'toJSON', {
    value: () => redactJson(value),
    enumerable: false,
    configurable: true,
  });
  return value;
}
