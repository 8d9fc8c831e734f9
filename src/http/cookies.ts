/** Names of the platform's cookies (WIRE.md §2), shared by the client and the sandbox. */
import type { CookieJar } from 'tough-cookie';

/** The session cookie; its value is sent back quoted, as the site sets it. */
export const SESSION_COOKIE = 'scratchsessionsid';

/** The CSRF cookie; authenticated writes repeat its value in the `X-CSRFToken` header. */
export const CSRF_COOKIE = 'scratchcsrftoken';

/**
 * A tough-cookie `CookieJar` from any copy of the library: the ESM build, the CommonJS build
 * (its class is a different object, so `instanceof` fails), or another install of version 5 or 6.
 */
export type CookieJarLike = Pick<
  CookieJar,
  'getCookieString' | 'setCookie' | 'getCookies' | 'getCookiesSync' | 'serializeSync' | 'store'
>;

/** The jar methods the client calls: checked by shape, not by class. */
const JAR_METHODS = [
  'getCookieString',
  'setCookie',
  'getCookies',
  'getCookiesSync',
  'serializeSync',
] as const;

/**
 * Accepts a tough-cookie jar by what it can do. Throws a `TypeError` naming what is missing.
 */
export function toCookieJar(value: unknown, what = 'jar'): CookieJar {
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`${what} must be a tough-cookie CookieJar`);
  }
  const jar = value as Record<string, unknown>;
  const missing = JAR_METHODS.filter((name) => typeof jar[name] !== 'function');
  const store = jar.store as Record<string, unknown> | undefined;
  if (!store || typeof store.removeCookie !== 'function') missing.push('store.removeCookie' as never);
  if (missing.length > 0) {
    throw new TypeError(`${what} must be a tough-cookie CookieJar (it lacks ${missing.join(', ')})`);
  }
  // The shapes match; the copies differ only in class identity.
  return value as CookieJar;
}
