/**
 * The state behind a running sandbox, for this project's own tests and tools: a test that needs
 * something to happen which no route of the sandbox makes happen yet (a message from a stranger)
 * writes it here, then reads it back through the real client. Not exported by `scratchlab/sandbox`.
 */
import type { Store } from './state/store.js';

const stores = new WeakMap<object, Store>();

/** Remembers the store of a sandbox (called by `startSandbox`). */
export function registerStore(sandbox: object, store: Store): void {
  stores.set(sandbox, store);
}

/** The store of a sandbox started by `startSandbox`. */
export function storeOf(sandbox: object): Store {
  const store = stores.get(sandbox);
  if (!store) throw new TypeError('not a sandbox started by startSandbox');
  return store;
}
