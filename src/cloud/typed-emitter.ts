/**
 * A small typed event emitter for `Cloud` and `CloudEvents`.
 *
 * Unlike Node's EventEmitter, an `error` event without listeners is not thrown: the errors of a
 * cloud connection also reject the promises they concern, and a bot should not crash because a
 * server went away. An exception thrown by a listener is reported as an `error` event (or, without
 * `error` listeners or from an `error` listener, rethrown outside the emitter), so one bad listener cannot break the socket.
 */
type EventMap = { error: Error } & Record<string, unknown>;
type Listener<T> = (payload: T) => void;

export class TypedEmitter<Events extends EventMap> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();

  /** Adds a listener. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): this {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return this;
  }

  /** Adds a listener that runs once. */
  once<K extends keyof Events>(event: K, listener: Listener<Events[K]>): this {
    const wrapper: Listener<Events[K]> = (payload) => {
      this.off(event, wrapper);
      listener(payload);
    };
    return this.on(event, wrapper);
  }

  /** Removes a listener (or every listener of the event when none is given). */
  off<K extends keyof Events>(event: K, listener?: Listener<Events[K]>): this {
    if (listener === undefined) this.#listeners.delete(event);
    else this.#listeners.get(event)?.delete(listener as Listener<never>);
    return this;
  }

  /** How many listeners an event has. */
  listenerCount(event: keyof Events): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  protected emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (thrown) {
        const error = thrown instanceof Error ? thrown : new Error(String(thrown));
        if (event === 'error' || this.listenerCount('error') === 0) {
          // Nobody can handle it here: surface it like any uncaught exception.
          queueMicrotask(() => {
            throw error;
          });
        } else {
          this.emit('error', error as Events['error']);
        }
      }
    }
  }
}
