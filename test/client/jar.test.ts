import { createRequire } from 'node:module';
import { CookieJar } from 'tough-cookie';
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/index.js';
import { useSandbox } from '../support/sandbox.js';

// The user's own tough-cookie may be the CommonJS build: a different class object, so an
// `instanceof` check against our ESM import rejects it. The jar is checked by shape instead.
const require = createRequire(import.meta.url);
const cjs = require('tough-cookie') as typeof import('tough-cookie');
const ctx = useSandbox();

describe('Session({ jar })', () => {
  it('the CommonJS build really is another class (the case this guards)', () => {
    expect(cjs.CookieJar).not.toBe(CookieJar);
    expect(new cjs.CookieJar()).not.toBeInstanceOf(CookieJar);
  });

  it.each([
    ['ESM', () => new CookieJar()],
    ['CommonJS', () => new cjs.CookieJar()],
  ])('accepts a jar from the %s build, logs in with it and resumes from it', async (_build, make) => {
    const account = ctx.sandbox.accounts[0]!;
    const jar = make();
    const session = new Session({ jar, hosts: ctx.sandbox.hosts });
    expect(session.jar).toBe(jar);
    await session.login(account.username, account.password);
    // The login's cookies went into the user's jar, and a new session resumes from it.
    const saved = JSON.stringify(await jar.serialize());
    const restored = await cjs.CookieJar.deserialize(JSON.parse(saved));
    const resumed = new Session({ jar: restored, hosts: ctx.sandbox.hosts });
    await resumed.refreshSession();
    expect(resumed.username).toBe(account.username);
    await resumed.logout();
    expect(resumed.loggedIn).toBe(false);
  });

  it('refuses what is not a jar, naming what it lacks', () => {
    expect(() => new Session({ jar: { getCookieString() {} } as never })).toThrow(
      /options\.jar must be a tough-cookie CookieJar \(it lacks setCookie, getCookies/,
    );
    expect(() => new Session({ jar: null as never })).toThrow(TypeError);
  });
});
