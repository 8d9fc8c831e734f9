/**
 * The state behind a running sandbox, for this project's own tests and tools: a test that needs
 * something to happen which no route of the sandbox makes happen yet (a message from a stranger)
 * writes it here, then reads it back through the real client. Not exported by `scratchlab/sandbox`.
 */
import type { Store } from './state/store.js';

/** A part of each running sandbox's state, found by its `Sandbox` object. */
export interface SandboxRegistry<T> {
  /** Remembers the part of a sandbox (called by `startSandbox`). */
  register(sandbox: object, value: T): void;
  /** The part of a sandbox started by `startSandbox`. */
  of(sandbox: object): T;
}

/** A registry of one part of the sandboxes' state (the store, the forums). */
export function sandboxRegistry<T>(): SandboxRegistry<T> {
  const parts = new WeakMap<object, T>();
  return {
    register: (sandbox, value) => {
      parts.set(sandbox, value);
    },
    of: (sandbox) => {
      const value = parts.get(sandbox);
      if (value === undefined) throw new TypeError('not a sandbox started by startSandbox');
      return value;
    },
  };
}

const stores = sandboxRegistry<Store>();

/** Remembers the store of a sandbox (called by `startSandbox`). */
export const registerStore: (sandbox: object, store: Store) => void = stores.register;

/** The store of a sandbox started by `startSandbox`. */
export const storeOf: (sandbox: object) => Store = stores.of;
