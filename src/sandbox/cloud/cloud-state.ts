/**
 * The cloud server's state: each project's current values and its log. Names are kept as on
 * the wire (with `☁ `); values as they were sent (a string or a number).
 */
import type { CloudLogRow } from '../../records/records.js';

/** One log entry, as `/logs` serves it. */
export type CloudLogRecord = CloudLogRow;

/** What a message did to a project. */
export type CloudChange =
  | { verb: 'set_var'; name: string; value: string | number }
  | { verb: 'create_var'; name: string; value: string | number }
  | { verb: 'del_var'; name: string }
  | { verb: 'rename_var'; name: string; newName: string };

export interface CloudStateOptions {
  /** Variables a project may hold; sets and creates of more are dropped (default 128). */
  maxVariables?: number;
  /** Log entries kept per project; the oldest go first (default 100 000). */
  maxLogEntries?: number;
  /**
   * False keeps no log at all (default true): for a server without a logs endpoint, where a log
   * would only grow.
   */
  recordLog?: boolean;
  /**
   * Projects kept once no connection uses them (see {@link CloudState.markIdle}); past it the
   * least recently left one is dropped, values and all (default: no limit).
   */
  maxIdleProjects?: number;
}

/** One project's values and log. */
export class CloudProject {
  /** Current values by wire name, in the order they were created. */
  readonly values = new Map<string, string | number>();
  /** The log, oldest first. */
  readonly log: CloudLogRecord[] = [];
  /** Counts the changes made through {@link CloudState.apply}, so caches of the values can tell they are stale. */
  version = 0;
}

export class CloudState {
  readonly maxVariables: number;
  readonly maxLogEntries: number;
  readonly recordLog: boolean;
  readonly maxIdleProjects: number;
  readonly #projects = new Map<string, CloudProject>();
  /** Projects no connection uses, least recently left first. */
  readonly #idle = new Set<string>();

  constructor(options: CloudStateOptions = {}) {
    this.maxVariables = options.maxVariables ?? 128;
    this.maxLogEntries = options.maxLogEntries ?? 100_000;
    this.recordLog = options.recordLog ?? true;
    this.maxIdleProjects = options.maxIdleProjects ?? Number.POSITIVE_INFINITY;
  }

  /** A project's state, created empty on first use. */
  project(id: string): CloudProject {
    let project = this.#projects.get(id);
    if (!project) {
      project = new CloudProject();
      this.#projects.set(id, project);
    }
    return project;
  }

  /** A project's state if it has any. */
  peek(id: string): CloudProject | undefined {
    return this.#projects.get(id);
  }

  /** Project ids with state. */
  projectIds(): string[] {
    return [...this.#projects.keys()];
  }

  /** A connection uses the project again: it is no longer a candidate for dropping. */
  markActive(id: string): void {
    this.#idle.delete(id);
  }

  /**
   * The last connection of a project left. Its state is kept, but only the `maxIdleProjects`
   * most recently left projects are: older idle ones are dropped, values and log.
   */
  markIdle(id: string): void {
    // Without a cap nothing is ever dropped: no need to track anything.
    if (this.maxIdleProjects === Number.POSITIVE_INFINITY || !this.#projects.has(id)) return;
    this.#idle.delete(id);
    this.#idle.add(id);
    while (this.#idle.size > this.maxIdleProjects) {
      const oldest = this.#idle.values().next().value!;
      this.#idle.delete(oldest);
      this.#projects.delete(oldest);
    }
  }

  /**
   * Applies a change and logs it. Returns false (nothing changes, nothing is logged) for a set or
   * create past the variable cap, and for a delete or rename of a variable that does not exist.
   */
  apply(projectId: string, user: string, change: CloudChange, timestamp: number): boolean {
    const project = this.project(projectId);
    const { values } = project;
    let record: CloudLogRecord;
    switch (change.verb) {
      case 'set_var':
      case 'create_var': {
        if (!values.has(change.name) && values.size >= this.maxVariables) return false;
        values.set(change.name, change.value);
        record = { user, verb: change.verb, name: change.name, value: change.value, timestamp };
        break;
      }
      case 'del_var': {
        const old = values.get(change.name);
        if (old === undefined) return false;
        values.delete(change.name);
        record = { user, verb: 'del_var', name: change.name, value: old, timestamp };
        break;
      }
      case 'rename_var': {
        const old = values.get(change.name);
        if (old === undefined || values.has(change.newName)) return false;
        values.delete(change.name);
        values.set(change.newName, old);
        // The entry names the old variable and carries the new name as its value.
        record = { user, verb: 'rename_var', name: change.name, value: change.newName, timestamp };
        break;
      }
    }
    project.version++;
    this.record(projectId, record);
    return true;
  }

  /** Appends a log entry as is (the seed uses it for history); nothing when `recordLog` is false. */
  record(projectId: string, entry: CloudLogRecord): void {
    if (!this.recordLog) return;
    const { log } = this.project(projectId);
    log.push(entry);
    // Trim in chunks so a full log does not shift its array on every entry.
    if (log.length > this.maxLogEntries + Math.ceil(this.maxLogEntries / 10)) {
      log.splice(0, log.length - this.maxLogEntries);
    }
  }

  /** Log entries, newest first, from `offset`. */
  logPage(projectId: string, limit: number, offset: number): CloudLogRecord[] {
    const log = this.#projects.get(projectId)?.log;
    if (!log) return [];
    const kept = Math.min(log.length, this.maxLogEntries);
    const out: CloudLogRecord[] = [];
    for (let i = log.length - 1 - offset; i >= log.length - kept && out.length < limit; i--)
      out.push(log[i]!);
    return out;
  }
}
