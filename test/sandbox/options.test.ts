import { describe, expect, it } from 'vitest';
import { type SandboxOptions, startSandbox } from '../../src/sandbox/index.js';

/**
 * Expects `startSandbox` to refuse the options. A sandbox that starts anyway is closed at once,
 * so a failing test leaves no server behind.
 */
async function refused(options: unknown): Promise<Error> {
  let started: Awaited<ReturnType<typeof startSandbox>> | undefined;
  try {
    started = await startSandbox(options as SandboxOptions);
  } catch (err) {
    return err as Error;
  }
  await started.close();
  throw new Error(`startSandbox(${JSON.stringify(options)}) started a sandbox`);
}

describe('startSandbox options', () => {
  it('refuses options that are not an object, naming `options`', async () => {
    for (const options of [null, 5, 'fast', true, [], () => ({})]) {
      const err = await refused(options);
      expect(err, String(options)).toBeInstanceOf(TypeError);
      expect(err.message).toMatch(/^options must be an object/);
    }
  });

  it('treats undefined options, and undefined fields, as the defaults', async () => {
    const sandbox = await startSandbox({
      port: undefined,
      host: undefined,
      latency: undefined,
      seed: undefined,
      projectTokenTtl: undefined,
      cloudRateLimits: undefined,
      requestTimeout: undefined,
      assetQuota: undefined,
      rateLimit: undefined,
      block: undefined,
    });
    try {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sandbox.traffic).toMatchObject({ rateLimit: null, block: false });
    } finally {
      await sandbox.close();
    }
  });

  it('takes booleans only for cloudRateLimits', async () => {
    for (const value of ['no', 'false', 0, 1, null, {}]) {
      const err = await refused({ cloudRateLimits: value });
      expect(err, JSON.stringify(value)).toBeInstanceOf(TypeError);
      expect(err.message).toMatch(/^options\.cloudRateLimits must be a boolean/);
    }
  });

  it('type-checks every option, naming it', async () => {
    const wrongType: [keyof SandboxOptions, unknown][] = [
      ['port', '8080'],
      ['port', null],
      ['host', 127],
      ['host', null],
      ['latency', '10'],
      ['latency', true],
      ['seed', '1'],
      ['seed', 1n],
      ['projectTokenTtl', '300'],
      ['projectTokenTtl', {}],
      ['requestTimeout', '1000'],
      ['assetQuota', 1n],
    ];
    for (const [name, value] of wrongType) {
      const err = await refused({ [name]: value });
      expect(err, `${name}: ${String(value)}`).toBeInstanceOf(TypeError);
      expect(err.message).toMatch(new RegExp(`^options\\.${name} must be `));
    }
  });

  it('range-checks the numbers, naming the option', async () => {
    const outOfRange: [keyof SandboxOptions, unknown][] = [
      ['port', 70_000],
      ['port', -1],
      ['port', 80.5],
      ['port', Number.NaN],
      ['host', ''],
      ['latency', -1],
      ['latency', Number.POSITIVE_INFINITY],
      ['latency', Number.NaN],
      ['latency', 120_000],
      ['seed', 1.5],
      ['seed', 2 ** 60],
      ['projectTokenTtl', 0],
      ['projectTokenTtl', Number.NaN],
      ['projectTokenTtl', Number.POSITIVE_INFINITY],
      ['requestTimeout', 999],
      ['requestTimeout', 600_001],
      ['requestTimeout', Number.NaN],
      ['assetQuota', 0],
      ['assetQuota', 1.5],
      ['assetQuota', 2 ** 41],
    ];
    for (const [name, value] of outOfRange) {
      const err = await refused({ [name]: value });
      expect(err, `${name}: ${String(value)}`).toBeInstanceOf(RangeError);
      expect(err.message).toMatch(new RegExp(`^options\\.${name} must be `));
    }
  });

  it('refuses an unknown option, so a typo does not pass silently', async () => {
    const err = await refused({ latancy: 50 });
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toMatch(/options\.latancy/);
    expect(err.message).toMatch(/latency/);
  });
});
