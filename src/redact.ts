/**
 * Scrubbing of secrets from anything that can reach a log, an error message or a notebook.
 * Session ids, CSRF tokens, X-Tokens and project tokens must never leave the process in text.
 */

const SECRET_KEYS = new Set([
  'token',
  'x-token',
  'xtoken',
  'project_token',
  'password',
  'scratchsessionsid',
  'scratchcsrftoken',
  'csrftoken',
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

/** Replaces the values of secret query parameters (`token`, ...) in a URL. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    let changed = false;
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

/** Replaces every occurrence of the given secrets in a text. Empty secrets are ignored. */
export function redactText(text: string, secrets: Iterable<string | null | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  return out;
}
