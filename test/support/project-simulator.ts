/**
 * Test-only: the Scratch project's side of cloud requests (WIRE.md §8), written from the wire
 * description and independent of the host's code (it uses only the encoding of §7).
 *
 * Like the template a project uses, it picks rids (a random 10001-99999 followed by `0`), sends
 * `encode("name&arg…")` in `TO_HOST` whole or in pieces (`-piece.rid` … then `piece.rid`, at the
 * cloud's rate), reads `FROM_HOST_1..9`, reassembles the packets of its rid by index, decodes
 * per marker, and gives up after a timeout. Pushes (rids `100000000` + 4 digits) are collected.
 */
import { decode, decodeList, encode } from '../../src/encoding.js';

/** The part of a cloud connection the simulator uses (`Cloud` fits it). */
export interface SimulatorCloud {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  setVar(name: string, value: string | number): Promise<void>;
  on(event: 'set', listener: (event: { name: string; value: string }) => void): unknown;
  off(event: 'set', listener: (event: { name: string; value: string }) => void): unknown;
}

export interface SimulatorOptions {
  requestVar?: string;
  responseVars?: readonly string[];
  /** Give up on an answer after this many milliseconds (default 10 000, like the template). */
  timeoutMs?: number;
  /** Payload digits per piece of a long request (default 240). */
  pieceDigits?: number;
  /** Use the lossless encoding. */
  lossless?: boolean;
}

/** One packet as it arrived. */
export interface ArrivedPacket {
  variable: string;
  /** 1, 2, … for packets before the last; `null` for the last. */
  index: number | null;
  digits: string;
  value: string;
}

/** A whole answer. */
export class SimulatedResponse {
  constructor(
    readonly rid: string,
    readonly marker: string,
    readonly digits: string,
    /** Packets in index order (the last one last). */
    readonly packets: readonly ArrivedPacket[],
    /** Milliseconds from the request's first send to the last packet. */
    readonly ms: number,
  ) {}

  /** The answer as the project shows it: the raw digits (marker 3), or the decoded text (marker 2). */
  text(lossless = false): string {
    return this.marker === '3' ? this.digits : decode(this.digits, { lossless });
  }

  /** The answer read as a list (marker 2). */
  list(lossless = false): string[] {
    return decodeList(this.digits, { lossless });
  }
}

interface Assembly {
  parts: Map<number, ArrivedPacket>;
  last: ArrivedPacket | null;
  marker: string | null;
}

interface Waiter {
  resolve: (response: SimulatedResponse) => void;
  startedAt: number;
}

const RESPONSE_VALUE = /^(\d*)\.(\d+)$/;
const PUSH_ID = /^100000000\d{4}$/;

export class ProjectSimulator {
  readonly requestVar: string;
  readonly responseVars: readonly string[];
  readonly timeoutMs: number;
  readonly pieceDigits: number;
  readonly lossless: boolean;
  /** Pushes received, in arrival order. */
  readonly pushes: SimulatedResponse[] = [];
  /** Every complete answer seen, by rid (answers to other simulators too). */
  readonly responses = new Map<string, SimulatedResponse>();
  /** Values sent to the request variable, in order. */
  readonly sent: string[] = [];
  readonly #cloud: SimulatorCloud;
  readonly #assemblies = new Map<string, Assembly>();
  readonly #waiters = new Map<string, Waiter>();
  readonly #pushWaiters: Array<(response: SimulatedResponse) => void> = [];
  readonly #onSet = (event: { name: string; value: string }) =>
    this.#receive(event.name, String(event.value));

  constructor(cloud: SimulatorCloud, options: SimulatorOptions = {}) {
    this.#cloud = cloud;
    this.requestVar = options.requestVar ?? 'TO_HOST';
    this.responseVars = options.responseVars ?? Array.from({ length: 9 }, (_, i) => `FROM_HOST_${i + 1}`);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.pieceDigits = options.pieceDigits ?? 240;
    this.lossless = options.lossless ?? false;
  }

  async start(): Promise<this> {
    this.#cloud.on('set', this.#onSet);
    await this.#cloud.connect();
    return this;
  }

  async stop(): Promise<void> {
    this.#cloud.off('set', this.#onSet);
    await this.#cloud.disconnect();
  }

  /** A rid like the template's: a random 10001-99999 followed by 0. */
  static rid(): string {
    return `${10001 + Math.floor(Math.random() * 89999)}0`;
  }

  /**
   * Sends a request and waits for its whole answer. Short payloads (under 245 digits) go in one
   * set; longer ones in pieces. `pieceDigits` forces pieces of that size even for short payloads.
   */
  async request(
    name: string,
    args: readonly string[] = [],
    options: { rid?: string; pieceDigits?: number; timeoutMs?: number } = {},
  ): Promise<SimulatedResponse> {
    const payload = encode([name, ...args].join('&'), { lossless: this.lossless });
    return this.requestDigits(payload, options);
  }

  /** Sends a payload given as digits (possibly not a valid encoding) and waits for the answer. */
  async requestDigits(
    payload: string,
    options: { rid?: string; pieceDigits?: number; timeoutMs?: number } = {},
  ): Promise<SimulatedResponse> {
    const rid = options.rid ?? ProjectSimulator.rid();
    const answer = this.waitForAnswer(rid, options.timeoutMs);
    answer.catch(() => undefined);
    await this.sendPieces(payload, rid, options.pieceDigits);
    return answer;
  }

  /** Writes a payload to the request variable, whole or in pieces, and resolves when the last is sent. */
  async sendPieces(payload: string, rid: string, pieceDigits?: number): Promise<void> {
    const size = pieceDigits ?? this.pieceDigits;
    if (pieceDigits === undefined && payload.length < 245) {
      await this.sendRaw(`${payload}.${rid}`);
      return;
    }
    const pieces: string[] = [];
    for (let i = 0; i < payload.length; i += size) pieces.push(payload.slice(i, i + size));
    if (pieces.length === 0) pieces.push('');
    for (let i = 0; i < pieces.length; i++) {
      await this.sendRaw(`${i < pieces.length - 1 ? '-' : ''}${pieces[i]}.${rid}`);
    }
  }

  /** Sets the request variable to any value. */
  async sendRaw(value: string): Promise<void> {
    this.sent.push(value);
    await this.#cloud.setVar(this.requestVar, value);
  }

  /** The answer to `rid` (already in, or when it comes); rejects after the timeout, like the template. */
  waitForAnswer(rid: string, timeoutMs = this.timeoutMs): Promise<SimulatedResponse> {
    const done = this.responses.get(rid);
    if (done) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(rid);
        const partial = this.#assemblies.get(rid);
        reject(
          new Error(
            `no complete answer to rid ${rid} within ${timeoutMs} ms` +
              (partial ? ` (${partial.parts.size} packets${partial.last ? ' and the last' : ''} in)` : ''),
          ),
        );
      }, timeoutMs);
      this.#waiters.set(rid, {
        startedAt: performance.now(),
        resolve: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
      });
    });
  }

  /** The next push (or one already received and not yet taken). */
  nextPush(timeoutMs = this.timeoutMs): Promise<SimulatedResponse> {
    const taken = this.pushes.shift();
    if (taken) return Promise.resolve(taken);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no push within ${timeoutMs} ms`)), timeoutMs);
      this.#pushWaiters.push((response) => {
        clearTimeout(timer);
        resolve(response);
      });
    });
  }

  #receive(variable: string, value: string): void {
    if (!this.responseVars.includes(variable)) return;
    const match = RESPONSE_VALUE.exec(value);
    if (!match || match[2]!.length < 5) return;
    const tail = match[2]!;
    const rid = tail.slice(0, -4);
    const code = tail.slice(-4);
    let assembly = this.#assemblies.get(rid);
    if (!assembly) {
      assembly = { parts: new Map(), last: null, marker: null };
      this.#assemblies.set(rid, assembly);
    }
    if (code.endsWith('222')) {
      assembly.last = { variable, index: null, digits: match[1]!, value };
      assembly.marker = code[0]!;
    } else if (code.endsWith('1')) {
      const index = Number(code.slice(0, 3));
      assembly.parts.set(index, { variable, index, digits: match[1]!, value });
    } else {
      return;
    }
    if (!assembly.last) return;
    const count = assembly.parts.size;
    for (let k = 1; k <= count; k++) if (!assembly.parts.has(k)) return; // a hole: wait for it
    const { parts, last } = assembly;
    const ordered = [...Array.from({ length: count }, (_, i) => parts.get(i + 1)!), last];
    this.#assemblies.delete(rid);
    const waiter = this.#waiters.get(rid);
    this.#waiters.delete(rid);
    const response = new SimulatedResponse(
      rid,
      assembly.marker!,
      ordered.map((p) => p.digits).join(''),
      ordered,
      waiter ? performance.now() - waiter.startedAt : 0,
    );
    this.responses.set(rid, response);
    if (waiter) waiter.resolve(response);
    if (PUSH_ID.test(rid)) {
      const pushWaiter = this.#pushWaiters.shift();
      if (pushWaiter) pushWaiter(response);
      else this.pushes.push(response);
    }
  }
}
