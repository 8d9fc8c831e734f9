/**
 * `CloudStorage`: a key-value store a Scratch project reads and writes over cloud requests
 * (WIRE.md §9), served from one or more {@link Database}s.
 *
 * ```ts
 * const storage = cloud.storage({ databases: [new JsonDatabase({ path: 'scores.json' })] });
 * await storage.start();
 * ```
 *
 * Requests served (arguments split on `&` as the project sends them):
 *
 * | request | answer |
 * |---|---|
 * | `get&db&key` | the value, or `""` when the key has none |
 * | `set&db&key&value` | the value now stored (a value may hold `&`: everything after the key is the value) |
 * | `keys&db` | the keys, sorted, as a list |
 * | `database_names` | the names of the databases, as a list, in the order they were added |
 * | `ping` | `pong` |
 *
 * A mistake of the project (an unknown database, missing arguments, a key the database refuses)
 * is answered with a readable `Error: …` text and no `error` event; a database that fails (a
 * disk or a server problem) is answered `Error: …` too, and reported with `error`.
 *
 * @module
 */
import type { Database } from '../../databases/database.js';
import { TypedEmitter } from '../typed-emitter.js';
import type { CloudLike } from './cloud-like.js';
import {
  CloudRequests,
  type CloudRequestsEventMap,
  type CloudRequestsOptions,
  type RequestResult,
} from './cloud-requests.js';
import { errorText } from './request-protocol.js';

/** Options of {@link CloudStorage}: those of {@link CloudRequests} and the first databases. */
export interface CloudStorageOptions extends CloudRequestsOptions {
  /** Databases to serve from the start (more with {@link CloudStorage.addDatabase}). */
  databases?: readonly Database[];
}

/** The events of {@link CloudStorage}: those of the {@link CloudRequests} it runs on. */
export type CloudStorageEventMap = CloudRequestsEventMap;

/** What `ping` answers. */
export const PING_ANSWER = 'pong';

/** A project's mistake: answered as text, not reported as a host error. */
class ClientMistake extends Error {}

/** A key-value store served over cloud requests. */
export class CloudStorage extends TypedEmitter<CloudStorageEventMap> {
  /** The cloud requests host underneath (to add requests of your own, or read its settings). */
  readonly requests: CloudRequests;
  readonly #databases = new Map<string, Database>();

  /** @throws what {@link CloudRequests} throws for bad options; TypeError / RangeError for a bad database */
  constructor(cloud: CloudLike, options: CloudStorageOptions = {}) {
    super();
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new TypeError('options must be an object like { databases }');
    }
    const { databases = [], ...rest } = options;
    if (!Array.isArray(databases)) throw new TypeError('options.databases must be an array of databases');
    this.requests = new CloudRequests(cloud, rest);
    for (const db of databases) this.addDatabase(db);

    this.requests
      .request('get', (args) =>
        this.#serve(args, 2, 'get(database, key)', async (db, [key]) => (await db.get(key!)) ?? ''),
      )
      .request('set', (args) =>
        this.#serve(args, 3, 'set(database, key, value)', async (db, [key, ...value]) => {
          const text = value.join('&');
          await db.set(key!, text);
          return text;
        }),
      )
      .request('keys', (args) => this.#serve(args, 1, 'keys(database)', (db) => db.keys()))
      .request('database_names', () => this.databaseNames)
      .request('ping', () => PING_ANSWER);

    this.requests.on('request', (event) => this.emit('request', event));
    this.requests.on('unknownRequest', (event) => this.emit('unknownRequest', event));
    this.requests.on('response', (event) => this.emit('response', event));
    this.requests.on('error', (error) => this.emit('error', error));
  }

  /** The names of the databases served, in the order they were added. */
  get databaseNames(): string[] {
    return [...this.#databases.keys()];
  }

  /** True between `start()` and `stop()`. */
  get running(): boolean {
    return this.requests.running;
  }

  /**
   * Serves `db` under its name.
   * @throws TypeError if it is not a database (`{ name, get, set, keys }`); RangeError if a
   * database of that name is already served, or its name holds a `&`
   */
  addDatabase(db: Database): this {
    if (
      db === null ||
      typeof db !== 'object' ||
      typeof db.get !== 'function' ||
      typeof db.set !== 'function' ||
      typeof db.keys !== 'function'
    ) {
      throw new TypeError('a database must be an object with name, get(key), set(key, value) and keys()');
    }
    if (typeof db.name !== 'string' || db.name === '') {
      throw new TypeError('a database must have a non-empty string name');
    }
    if (db.name.includes('&')) {
      throw new RangeError(
        `database name ${JSON.stringify(db.name)} must not contain "&" (it separates arguments)`,
      );
    }
    if (this.#databases.has(db.name)) {
      throw new RangeError(`a database named ${JSON.stringify(db.name)} is already served`);
    }
    this.#databases.set(db.name, db);
    return this;
  }

  /** The database served under `name`, if any. */
  getDatabase(name: string): Database | undefined {
    return this.#databases.get(name);
  }

  /** Stops serving the database `name`; true when it was served. */
  removeDatabase(name: string): boolean {
    return this.#databases.delete(name);
  }

  /** Starts serving (see {@link CloudRequests.start}). */
  start(): Promise<void> {
    return this.requests.start();
  }

  /** Stops serving; settles once the requests already taken are answered (see {@link CloudRequests.stop}). */
  stop(): Promise<void> {
    return this.requests.stop();
  }

  /** Settles once every request taken so far is answered. */
  idle(): Promise<void> {
    return this.requests.idle();
  }

  async #serve(
    args: string[],
    count: number,
    usage: string,
    run: (db: Database, rest: string[]) => Promise<RequestResult>,
  ): Promise<RequestResult> {
    try {
      if (args.length < count) {
        throw new ClientMistake(
          `${usage} needs ${count} argument${count === 1 ? '' : 's'}, got ${args.length}`,
        );
      }
      const [name, ...rest] = args;
      // Only `set` may take more (a value holding `&`); elsewhere a key or a name holding `&` is
      // rejoined (`keys` reads no key: what it gets after the name is not used).
      const fixed = count === 2 ? [rest.join('&')] : rest;
      const dbName = count === 1 ? args.join('&') : name!;
      const db = this.#databases.get(dbName);
      if (db === undefined) {
        const known = this.databaseNames;
        throw new ClientMistake(
          `unknown database ${JSON.stringify(dbName)} (${known.length === 0 ? 'none is served' : `databases: ${known.join(', ')}`})`,
        );
      }
      try {
        return await run(db, fixed);
      } catch (error) {
        // The adapters refuse bad keys and values with TypeError / RangeError: the project's mistake.
        if (error instanceof TypeError || error instanceof RangeError) throw new ClientMistake(error.message);
        throw error;
      }
    } catch (error) {
      if (error instanceof ClientMistake) return errorText(error);
      throw error;
    }
  }
}
