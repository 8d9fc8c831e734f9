import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/sandbox/rules/passwords.js';

describe('password hashes', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$4096\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
  });

  it('never matches a malformed hash, and never throws on one', async () => {
    const stored = await hashPassword('pw');
    const [, , , , salt, key] = stored.split('$');
    for (const bad of [
      '',
      'plain',
      `bcrypt$4096$8$1$${salt}$${key}`,
      `scrypt$4096$8$1$${salt}`,
      `scrypt$3$8$1$${salt}$${key}`, // N must be a power of two
      `scrypt$abc$8$1$${salt}$${key}`,
      `scrypt$4096$8$0$${salt}$${key}`,
      `scrypt$${2 ** 30}$8$1$${salt}$${key}`, // far past scrypt's memory limit
      `scrypt$4096$8$1$${salt}$`,
    ]) {
      await expect(verifyPassword('pw', bad), bad).resolves.toBe(false);
    }
  });
});
