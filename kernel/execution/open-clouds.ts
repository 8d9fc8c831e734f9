/**
 * The cloud connections the cells opened, so that a kernel shutdown closes them with a close
 * frame (the server sees them leave) instead of dropping them with the process.
 *
 * Every `Cloud` of the SDK announces itself on the `scratchlab:cloud:created` diagnostics channel,
 * whichever session made it (the preloaded one, or one a cell logged in itself). They are held
 * weakly: a connection keeps its `Cloud` alive while it is open, and nothing else needs to.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** The channel every `Cloud` is published on when made (src/cloud/cloud.ts). */
const CLOUD_CREATED = 'scratchlab:cloud:created';

/** What is used of a `Cloud`. */
interface Closable {
  readonly state: string;
  disconnect(): Promise<void>;
}

/** States in which a `Cloud` holds no socket. */
const CLOSED_STATES = new Set(['idle', 'failed']);

/** Prune the dead references every this many new clouds (a loop making clouds stays bounded). */
const PRUNE_EVERY = 256;

export class OpenClouds {
  #clouds = new Set<WeakRef<Closable>>();
  #added = 0;
  readonly #listener = (message: unknown) => {
    const cloud = (message as { cloud?: Closable }).cloud;
    if (!cloud) return;
    this.#clouds.add(new WeakRef(cloud));
    if (++this.#added % PRUNE_EVERY === 0) this.#prune();
  };

  /** Starts listening for new clouds. */
  constructor() {
    subscribe(CLOUD_CREATED, this.#listener);
  }

  /** How many clouds hold a socket now (open, connecting or waiting to reconnect). */
  get open(): number {
    return this.#connected().length;
  }

  /**
   * Stops listening, then disconnects every cloud that holds a socket; settles when their close
   * handshakes are done (the caller bounds the wait).
   */
  async closeAll(): Promise<void> {
    unsubscribe(CLOUD_CREATED, this.#listener);
    await Promise.all(this.#connected().map((cloud) => cloud.disconnect().catch(() => {})));
  }

  #connected(): Closable[] {
    const clouds: Closable[] = [];
    for (const ref of this.#clouds) {
      const cloud = ref.deref();
      if (cloud && !CLOSED_STATES.has(cloud.state)) clouds.push(cloud);
    }
    return clouds;
  }

  #prune(): void {
    this.#clouds = new Set([...this.#clouds].filter((ref) => ref.deref() !== undefined));
  }
}
