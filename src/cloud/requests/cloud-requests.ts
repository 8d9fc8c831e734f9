/**
 * `CloudRequests`: a host that answers requests a Scratch project sends through cloud variables
 * (WIRE.md §8), compatible with the project-side template in use.
 *
 * ```ts
 * const requests = cloud.requests();   // or new CloudRequests(cloud)
 * requests.request('greet', ([name]) => `Hello, ${name}!`);
 * requests.request('score', async (_args, { requester }) => scores.get(requester ?? '') ?? 0);
 * requests.on('error', (error) => console.error(error));
 * await requests.start();
 * ```
 *
 * Handlers run concurrently, so a slow one never holds up the others; only the answers' packets
 * are serialized, by the cloud's own pacing (one set per `rateLimit`), spread over the response
 * variables in turn. Every request gets an answer, so a project never waits for its timeout:
 *
 * - a handler's value (see {@link encodeResponse}); nothing (`undefined`) answers like `""`;
 * - `Error: <message>` when the handler throws or rejects, when it has not settled within
 *   `handlerTimeout` of the request's arrival (the requester lookup included), when its value
 *   cannot be sent (a boolean, an answer over 1000 packets), or when the request cannot be read;
 *   the host also emits `error` with a {@link CloudRequestError};
 * - `Error: unknown request "<name>"` when no handler has that name; the host emits `unknownRequest`.
 *
 * @module
 */
import { decode, type EncodingOptions, encode } from '../../encoding.js';
import { assertBoolean, assertSeconds, MAX_TIMER_MS, MAX_TIMER_SECONDS } from '../../records/validate.js';
import { messageOf } from '../cloud-error.js';
import { checkName } from '../cloud-values.js';
import { TypedEmitter } from '../typed-emitter.js';
import type { CloudLike, CloudSetLike } from './cloud-like.js';
import { RequestAssembler } from './request-assembler.js';
import {
  buildPackets,
  checkRequestName,
  decodeRequest,
  type EncodedResponse,
  encodeResponse,
  errorText,
  PACKET_OVERHEAD,
  PUSH_ID_PREFIX,
  parseRequestValue,
  type ResponseMarker,
  type ResponseValue,
  randomPushId,
} from './request-protocol.js';
import { RequesterLookup } from './requester-lookup.js';

/** Options of {@link CloudRequests}. Times are in seconds. */
export interface CloudRequestsOptions {
  /** The variable the project writes its requests to, without `☁ ` (default `TO_HOST`). */
  requestVar?: string;
  /** The variables answers go to, in turn, without `☁ ` (default `FROM_HOST_1` … `FROM_HOST_9`). */
  usedCloudVars?: readonly string[];
  /** Decode requests and encode answers in the lossless mode of `encode` (default false: the WIRE.md §7 table). */
  lossless?: boolean;
  /**
   * The time from a request's arrival to its `Error: … timed out` answer, when the handler has
   * not settled by then (default 8, so that the answer, sent at the cloud's pace, reaches the
   * project before it gives up after about 10 s; 0: no limit). One deadline per request: the
   * requester lookup and the handler share it. A late result is dropped. At most 2,147,483 s
   * (about 24.8 days, a timer's longest wait), as `requesterTimeout`.
   */
  handlerTimeout?: number;
  /**
   * Look up who sent each request in the cloud log, for `ctx.requester` (default: on the platform,
   * where the log names users; elsewhere `requester` is `null`). The handler starts once the
   * sender is found, after `requesterTimeout`, or at the request's deadline, whichever is first.
   */
  lookupRequester?: boolean;
  /** The longest wait for the sender's name (default 2), within the request's deadline. */
  requesterTimeout?: number;
  /** Answered request ids remembered to ignore repeats (default 64). */
  memory?: number;
  /** Most payload digits of one request, all pieces together (default 1 000 000). */
  maxRequestDigits?: number;
}

/** What a handler learns about its request. */
export interface RequestContext {
  /** The request's name. */
  readonly name: string;
  /** Its arguments, as the project sent them (text). */
  readonly args: readonly string[];
  /** Its id (rid), as the project chose it. */
  readonly requestId: string;
  /** The user who sent it, when the cloud log tells (the platform), else `null`. */
  readonly requester: string | null;
}

/** A handler's answer: see {@link encodeResponse}. Nothing (`undefined`) answers like `""`. */
export type RequestResult = ResponseValue;

/**
 * Answers one request. It receives the arguments (its own copy) and the request's context, and
 * returns or resolves to the answer.
 */
export type RequestHandler = (args: string[], ctx: RequestContext) => HandlerReturn;

/** What a handler returns: its answer, or a promise of it. */
export type HandlerReturn =
  | RequestResult
  | void
  // biome-ignore lint/suspicious/noConfusingVoidType: an async handler that returns nothing gives a Promise<void>, which must be accepted.
  | PromiseLike<RequestResult | void>;

/** An answer (or a push of {@link CloudRequests.send}) that went out. */
export interface CloudResponseEvent {
  /** The rid answered (a push id for {@link CloudRequests.send}). */
  readonly requestId: string;
  /** The request's name (`null` for a push or an unreadable request). */
  readonly name: string | null;
  /** `3` raw, `2` encoded. */
  readonly marker: ResponseMarker;
  /** Answer digits sent. */
  readonly digits: number;
  /** Packets (sets) it took. */
  readonly packets: number;
  /**
   * True when the handler failed (threw, timed out, or gave what cannot be sent) and the answer is
   * the host's `Error: …` text. A handler that returns such a text itself (a storage's answer to a
   * project's mistake) answered normally: `false`.
   */
  readonly failed: boolean;
  /** Milliseconds from the whole request's arrival (a push: the `send` call) to its last packet's send. */
  readonly ms: number;
}

/** The events of {@link CloudRequests}. */
export type CloudRequestsEventMap = {
  /** A whole request arrived and was read (also for names without a handler). */
  request: RequestContext;
  /** A request named no handler; the project is answered `Error: unknown request "<name>"`. */
  unknownRequest: RequestContext;
  /** An answer's or a push's last packet was sent. */
  response: CloudResponseEvent;
  /** A handler failed or timed out, a request could not be read or answered (a {@link CloudRequestError}), or a listener threw. */
  error: Error;
};

/** What went wrong with one request. */
export type CloudRequestErrorKind =
  /** The handler threw or rejected (`cause` holds what it threw). */
  | 'handler'
  /** The handler did not settle within `handlerTimeout`. */
  | 'timeout'
  /** The handler's value cannot be sent: not a string, number or list, or over 1000 packets. */
  | 'response'
  /** The request's digits are not an encoding, or it is longer than `maxRequestDigits`. */
  | 'request'
  /** A packet could not be set (the connection went away). */
  | 'send';

/** A request the host could not serve normally; the project got an `Error: …` answer when it could. */
export class CloudRequestError extends Error {
  override readonly name = 'CloudRequestError';
  readonly kind: CloudRequestErrorKind;
  /** The rid (or push id). */
  readonly requestId: string;
  /** The request's name, when it was read. */
  readonly requestName: string | null;

  constructor(
    kind: CloudRequestErrorKind,
    message: string,
    requestId: string,
    requestName: string | null,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.kind = kind;
    this.requestId = requestId;
    this.requestName = requestName;
  }
}

const DEFAULT_REQUEST_VAR = 'TO_HOST';
const DEFAULT_RESPONSE_VARS: readonly string[] = Object.freeze(
  Array.from({ length: 9 }, (_, i) => `FROM_HOST_${i + 1}`),
);
/** The longest rid the host itself writes: a push id. */
const PUSH_ID_LENGTH = PUSH_ID_PREFIX.length + 4;

/** A host answering a project's cloud requests. */
export class CloudRequests extends TypedEmitter<CloudRequestsEventMap> {
  /** The request variable (without `☁ `). */
  readonly requestVar: string;
  /** The response variables, used in turn (without `☁ `). */
  readonly usedCloudVars: readonly string[];
  /** Whether the lossless encoding is used. */
  readonly lossless: boolean;
  /** Seconds from a request's arrival to its timeout answer, lookup and handler together (0: no limit). */
  readonly handlerTimeout: number;
  /** Whether `ctx.requester` is looked up in the cloud log. */
  readonly lookupRequester: boolean;

  readonly #cloud: CloudLike;
  readonly #encoding: EncodingOptions;
  readonly #handlers = new Map<string, RequestHandler>();
  readonly #assembler: RequestAssembler;
  readonly #lookup: RequesterLookup | null;
  readonly #inFlight = new Set<Promise<void>>();
  #running = false;
  /** Once true, values the server sends after a handshake are news from an outage, not stale state. */
  #connected = false;
  #nextVar = 0;
  readonly #onSet = (event: CloudSetLike) => this.#receive(event);
  readonly #onConnect = () => {
    this.#connected = true;
  };

  /**
   * @throws TypeError / RangeError for a bad cloud, option or variable name, or a cloud whose
   * length limit leaves no room for answers
   */
  constructor(cloud: CloudLike, options: CloudRequestsOptions = {}) {
    super();
    if (
      cloud === null ||
      typeof cloud !== 'object' ||
      typeof cloud.setVar !== 'function' ||
      typeof cloud.on !== 'function'
    ) {
      throw new TypeError('cloud must be a Cloud (an object with setVar, on and off)');
    }
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw new TypeError('options must be an object like { requestVar, usedCloudVars }');
    }
    this.#cloud = cloud;
    this.requestVar = checkName(options.requestVar ?? DEFAULT_REQUEST_VAR, 'options.requestVar');
    const used = options.usedCloudVars ?? DEFAULT_RESPONSE_VARS;
    if (!Array.isArray(used)) throw new TypeError('options.usedCloudVars must be an array of variable names');
    if (used.length === 0) throw new RangeError('options.usedCloudVars must name at least one variable');
    const names = used.map((name: unknown, i) => checkName(name, `options.usedCloudVars[${i}]`));
    const seen = new Set<string>();
    for (const name of names) {
      if (name === this.requestVar) {
        throw new RangeError(
          `options.usedCloudVars must not include the request variable ${JSON.stringify(name)}`,
        );
      }
      if (seen.has(name)) throw new RangeError(`options.usedCloudVars names ${JSON.stringify(name)} twice`);
      seen.add(name);
    }
    this.usedCloudVars = Object.freeze(names);
    this.lossless = assertBoolean(options.lossless ?? false, 'options.lossless');
    this.#encoding = { lossless: this.lossless };
    this.handlerTimeout = assertSeconds(
      options.handlerTimeout ?? 8,
      'options.handlerTimeout',
      0,
      MAX_TIMER_SECONDS,
    );
    this.lookupRequester = assertBoolean(
      options.lookupRequester ?? cloud.isPlatform === true,
      'options.lookupRequester',
    );
    const requesterTimeout = assertSeconds(
      options.requesterTimeout ?? 2,
      'options.requesterTimeout',
      0,
      MAX_TIMER_SECONDS,
    );
    this.#lookup = this.lookupRequester
      ? new RequesterLookup((limit) => cloud.logs({ limit }), {
          timeoutMs: Math.min(Math.round(requesterTimeout * 1000), MAX_TIMER_MS),
        })
      : null;
    this.#assembler = new RequestAssembler({ memory: options.memory, maxDigits: options.maxRequestDigits });
    const limit = cloud.lengthLimit;
    if (
      typeof limit !== 'number' ||
      !Number.isInteger(limit) ||
      limit < PUSH_ID_LENGTH + PACKET_OVERHEAD + 1
    ) {
      throw new RangeError(
        `the cloud's lengthLimit (${String(limit)}) must be at least ${PUSH_ID_LENGTH + PACKET_OVERHEAD + 1} to fit a packet`,
      );
    }
  }

  /** True between `start()` and `stop()`. */
  get running(): boolean {
    return this.#running;
  }

  /** The names of the requests with a handler. */
  get requestNames(): string[] {
    return [...this.#handlers.keys()];
  }

  /** Requests and pushes being handled or answered now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Serves the request `name` with `handler` (replacing any handler it had).
   * @throws TypeError if `name` is not a string or `handler` not a function; RangeError if
   * `name` is empty, holds a `&`, or has characters the project's encoding cannot spell
   */
  request(name: string, handler: RequestHandler): this {
    checkRequestName(name, 'request name');
    if (typeof handler !== 'function') {
      throw new TypeError(
        `the handler of request ${JSON.stringify(name)} must be a function, got ${typeof handler}`,
      );
    }
    if (decode(encode(name, this.#encoding), this.#encoding) !== name) {
      throw new RangeError(
        `request name ${JSON.stringify(name)} has characters the project's encoding cannot spell (it would arrive differently)` +
          (this.lossless ? '' : '; use the characters of the table, or the lossless option'),
      );
    }
    this.#handlers.set(name, handler);
    return this;
  }

  /** Stops serving the request `name`; true when it had a handler. */
  removeRequest(name: string): boolean {
    return this.#handlers.delete(name);
  }

  /**
   * Starts listening to the request variable and connects the cloud if needed. Values found on
   * the first connection are left unanswered (their projects are long gone); a request sent during
   * an outage is answered after the reconnect. Calling it again does nothing.
   * @throws what `cloud.connect()` rejects with (the host is then stopped)
   */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#cloud.on('set', this.#onSet);
    this.#cloud.on('connect', this.#onConnect);
    try {
      await this.#cloud.connect();
      this.#connected = true;
    } catch (error) {
      this.#detach();
      throw error;
    }
  }

  /**
   * Stops listening. Requests already taken are still answered: the promise settles once they
   * are (or failed). The cloud stays connected; disconnect it yourself.
   */
  async stop(): Promise<void> {
    if (this.#running) this.#detach();
    this.#lookup?.cancel();
    await this.idle();
  }

  /** Settles once every request taken so far and every push has been answered (or failed). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * Pushes a value to the project without a request, under a push id (`100000000` and four
   * random digits), encoded like an answer. Resolves to the push id once every packet is sent.
   * @throws TypeError (as a rejection) for a value that cannot be sent; RangeError when it needs
   * more than 1000 packets; a cloud error when a packet cannot be set
   */
  async send(value: ResponseValue): Promise<string> {
    const rid = randomPushId();
    const startedAt = performance.now();
    const response = encodeResponse(value, rid, this.#encoding);
    const packets = buildPackets(response, rid, this.#cloud.lengthLimit);
    const sending = this.#sendPackets(packets);
    this.#track(
      sending.then(
        () => undefined,
        () => undefined,
      ),
    );
    const failure = await sending;
    if (failure !== null) throw failure;
    this.#emitResponse(rid, null, response, packets.length, false, startedAt);
    return rid;
  }

  #detach(): void {
    this.#running = false;
    this.#cloud.off('set', this.#onSet);
    this.#cloud.off('connect', this.#onConnect);
    this.#assembler.clearPending();
  }

  #track(work: Promise<void>): void {
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work));
  }

  #receive(event: CloudSetLike): void {
    if (!this.#running || event.name !== this.requestVar) return;
    const value = String(event.value);
    const piece = parseRequestValue(value);
    if (piece === null) return;
    if (event.initial === true && !this.#connected) {
      // The value the request variable held when we connected: an old request, not a new one.
      this.#assembler.take(piece.rid);
      return;
    }
    const result = this.#assembler.accept(piece);
    const arrivedAt = performance.now();
    if (result.status === 'complete') {
      this.#track(this.#serve(result.rid, result.digits, value, arrivedAt));
    } else if (result.status === 'too-long') {
      const error = new CloudRequestError(
        'request',
        `request ${result.rid} is over ${this.#assembler.maxDigits} digits (maxRequestDigits); it was dropped`,
        result.rid,
        null,
      );
      this.#track(this.#answerFailure(result.rid, null, error, arrivedAt));
    }
  }

  async #serve(rid: string, digits: string, lastValue: string, arrivedAt: number): Promise<void> {
    let name: string | null = null;
    try {
      let args: string[];
      try {
        ({ name, args } = decodeRequest(digits, this.#encoding));
      } catch (cause) {
        throw new CloudRequestError(
          'request',
          `request ${rid} cannot be read: ${messageOf(cause)}`,
          rid,
          null,
          cause,
        );
      }
      // One deadline from the arrival: the lookup may use part of it, the handler gets the rest.
      const deadline =
        this.handlerTimeout === 0 ? Number.POSITIVE_INFINITY : arrivedAt + this.handlerTimeout * 1000;
      const requester =
        this.#lookup === null
          ? null
          : await this.#lookup.find(this.requestVar, lastValue, deadline - performance.now());
      const ctx: RequestContext = Object.freeze({
        name,
        args: Object.freeze([...args]),
        requestId: rid,
        requester,
      });
      this.emit('request', ctx);
      const handler = this.#handlers.get(name);
      if (handler === undefined) {
        this.emit('unknownRequest', ctx);
        await this.#answer(
          rid,
          name,
          this.#errorResponse(rid, `unknown request ${JSON.stringify(name)}`),
          true,
          arrivedAt,
        );
        return;
      }
      const value = await this.#runHandler(handler, args, ctx, deadline);
      let response: EncodedResponse;
      let packets: string[];
      try {
        response = encodeResponse(value as ResponseValue, rid, this.#encoding);
        packets = buildPackets(response, rid, this.#cloud.lengthLimit);
      } catch (cause) {
        throw new CloudRequestError(
          'response',
          `the answer to request ${JSON.stringify(name)} (rid ${rid}) cannot be sent: ${messageOf(cause)}`,
          rid,
          name,
          cause,
        );
      }
      await this.#answer(rid, name, response, false, arrivedAt, packets);
    } catch (error) {
      await this.#answerFailure(rid, name, error, arrivedAt);
    }
  }

  /** Runs a handler until `deadline` (a `performance.now()` time; infinite: no limit). */
  async #runHandler(
    handler: RequestHandler,
    args: string[],
    ctx: RequestContext,
    deadline: number,
  ): Promise<unknown> {
    const run = (async () => handler([...args], ctx))();
    const described = `request ${JSON.stringify(ctx.name)} (rid ${ctx.requestId})`;
    const failed = (cause: unknown) =>
      new CloudRequestError(
        'handler',
        `${described} failed: ${messageOf(cause)}`,
        ctx.requestId,
        ctx.name,
        cause,
      );
    if (deadline === Number.POSITIVE_INFINITY) return run.catch((cause) => Promise.reject(failed(cause)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new CloudRequestError(
              'timeout',
              `${described} timed out after ${this.handlerTimeout} s`,
              ctx.requestId,
              ctx.name,
            ),
          ),
        Math.min(Math.max(0, deadline - performance.now()), MAX_TIMER_MS),
      );
    });
    try {
      return await Promise.race([run.catch((cause) => Promise.reject(failed(cause))), timeout]);
    } finally {
      clearTimeout(timer);
      run.catch(() => undefined); // a late rejection after a timeout is not worth an unhandled rejection
    }
  }

  /** Reports `error` and answers the project `Error: …`. */
  async #answerFailure(rid: string, name: string | null, error: unknown, arrivedAt: number): Promise<void> {
    const reported =
      error instanceof CloudRequestError
        ? error
        : new CloudRequestError('handler', messageOf(error), rid, name, error);
    this.emit('error', reported);
    // The project sees the handler's own message, not the host's wrapping of it.
    const shown = reported.kind === 'handler' && reported.cause !== undefined ? reported.cause : reported;
    await this.#answer(rid, name, this.#errorResponse(rid, shown), true, arrivedAt);
  }

  #errorResponse(rid: string, error: unknown): EncodedResponse {
    return encodeResponse(errorText(error), rid, this.#encoding);
  }

  async #answer(
    rid: string,
    name: string | null,
    response: EncodedResponse,
    failed: boolean,
    arrivedAt: number,
    packets: string[] = buildPackets(response, rid, this.#cloud.lengthLimit),
  ): Promise<void> {
    const failure = await this.#sendPackets(packets);
    if (failure !== null) {
      this.emit(
        'error',
        new CloudRequestError(
          'send',
          `the answer to request ${name === null ? rid : JSON.stringify(name)} (rid ${rid}) could not be sent: ${messageOf(failure)}`,
          rid,
          name,
          failure,
        ),
      );
      return;
    }
    this.#emitResponse(rid, name, response, packets.length, failed, arrivedAt);
  }

  #emitResponse(
    rid: string,
    name: string | null,
    response: EncodedResponse,
    packets: number,
    failed: boolean,
    since: number,
  ): void {
    this.emit('response', {
      requestId: rid,
      name,
      marker: response.marker,
      digits: response.digits.length,
      packets,
      failed,
      ms: performance.now() - since,
    });
  }

  /**
   * Queues every packet at once, in order, each on the next response variable: the cloud sends
   * them in that order at its rate, and no other answer's packet can come in between.
   * Resolves to the first failure, or `null`.
   */
  async #sendPackets(packets: readonly string[]): Promise<Error | null> {
    const vars = this.usedCloudVars;
    const sends = packets.map((packet) => {
      const name = vars[this.#nextVar]!;
      this.#nextVar = (this.#nextVar + 1) % vars.length;
      try {
        return this.#cloud.setVar(name, packet);
      } catch (error) {
        return Promise.reject(error);
      }
    });
    for (const outcome of await Promise.allSettled(sends)) {
      if (outcome.status === 'rejected') {
        return outcome.reason instanceof Error ? outcome.reason : new Error(String(outcome.reason));
      }
    }
    return null;
  }
}
