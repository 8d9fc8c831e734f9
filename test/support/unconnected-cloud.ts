import type { CloudLike } from '../../src/cloud/requests/index.js';

/**
 * A cloud that never connects or sends: enough for a request host's checks of its arguments (the
 * hosts at work talk to the sandbox's cloud), with `overrides` for the field a test refuses.
 */
export function cloudWith(overrides: Partial<CloudLike> = {}): CloudLike {
  return {
    lengthLimit: 256,
    rateLimit: 0.1,
    isPlatform: false,
    connect: async () => undefined,
    setVar: async () => undefined,
    on: () => undefined,
    off: () => undefined,
    logs: async () => [],
    ...overrides,
  };
}
