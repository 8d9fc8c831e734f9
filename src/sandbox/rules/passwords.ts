import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt cost N=4096, r=8, p=1 (~10 ms here). Node's default N=16384 made every sandbox start
// wait ~100 ms for the demo hashes, which the REPL and kernel pay at launch; the sandbox's demo
// passwords are public, so start-up wins. Each hash records its N, so older hashes still verify.
const N = 4096;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Hashes a password as `scrypt$N$r$p$<salt b64>$<key b64>`; only this string is ever stored. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Checks a password against a stored hash in constant time. A malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  // node's scrypt reads 0 as "the default", so a cost of 0 would quietly mean another one.
  if (![n, r, p].every((x) => Number.isSafeInteger(x) && x > 0)) return false;
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  let key: Buffer;
  try {
    key = await derive(password, salt, n, r, p);
  } catch {
    // scrypt refuses parameters that are out of range or would need too much memory.
    return false;
  }
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummyHash: Promise<string> | undefined;

/**
 * A hash to check wrong logins against when the user does not exist (or has no password), so
 * that a miss costs the same time as a wrong password and does not reveal which names exist.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(12).toString('hex'));
  return dummyHash;
}
