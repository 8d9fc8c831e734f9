/**
 * The kernel's Jupyter server: tslab's ZeroMQ server (sockets, signing, heartbeat), answering as
 * IPython does where tslab differs.
 *
 * - Every send waits for the previous one on its socket (./send-queue.ts: tslab lost messages past
 *   the 130th cell or so).
 * - Shell requests are handled one at a time, in order, as ipykernel does; `busy`/`idle` frame
 *   each one.
 * - An execution publishes `execute_input`, then its outputs, then `execute_result` (with the
 *   cell's `execution_count`) or an `error` output, and replies with `ename`/`evalue`/`traceback`
 *   on failure. A failure aborts the execute requests received before its reply (those sent with
 *   it, "run all"), unless it asked `stop_on_error: false`; never one sent once its reply came.
 * - stdout and stderr of the user's code become `stream` messages of the cell that wrote them
 *   (later writes go to the last cell, as in IPython), coalesced per event-loop turn.
 * - `kernel_info` names the TypeScript that compiles the cells; `inspect` renders `{@link X}`.
 * - A shutdown (`shutdown_request`, or {@link KernelServer.close}) publishes nothing more after
 *   its reply and `idle` (the late output of a cell still running, its result, its `idle`, go to
 *   the kernel's log), ends the cells' work, sends what is queued, then closes the sockets;
 *   {@link KernelServer.closed} settles then.
 * - `is_complete` tells invalid code from incomplete code (./is-complete.ts); `history_request`
 *   is answered from the history every cell is recorded in (./history.ts).
 * - Comms: the kernel has no comm targets. `comm_info_request` is answered `comm_info_reply` with
 *   no comms, a `comm_open` is closed at once (`comm_close` on iopub), as ipykernel does for a
 *   target it does not have, so front ends and widget managers are not left waiting.
 */

// Node's timers, not the globals: cells share this realm, and a cell that replaces
// `globalThis.setTimeout` (fake timers) must not stop the kernel's own waits (a cell's `idle` never
// came, and every request after it waited for good).
import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import { isCellName } from '../execution/cell-script.js';
import type { MimeBundle } from '../tslab.js';
import { converter, type JupyterHandler, jupyter, tslabTypeScript } from '../tslab.js';
import { exitCommand } from './exit-cell.js';
import { History, type HistoryRequest, historyFile } from './history.js';
import { completeness } from './is-complete.js';
import { lateMessage } from './late-message.js';
import { type QuickInfo, quickInfoText } from './quick-info.js';
import { QueuedSocket, type Socket } from './send-queue.js';
import { cellFileName, uncountedCellFileName } from './traceback.js';

/** The result of one cell, as the server publishes it. */
export type CellOutcome = (
  | { status: 'ok'; result: MimeBundle | null }
  | { status: 'error'; ename: string; evalue: string; traceback: string[] }
) & {
  /**
   * The cell's type check, once it has run: text for the cell's stderr (its warnings) or `null`.
   * It is awaited before `idle` (after the reply, unless {@link checkFirst}), as a front end drops
   * a cell's output after its `idle`.
   */
  later?: () => Promise<string | null>;
  /** The check comes before the reply (a cold checker's first check would hold `idle` too long). */
  checkFirst?: boolean;
};

/** Where a cell's display messages go: `update` replaces an earlier output with the same display id. */
type DisplayWriter = (
  content: { data: MimeBundle; metadata: Record<string, unknown>; transient: { display_id?: string } },
  update: boolean,
) => void;

/** What the server needs from the rest of the kernel. */
interface KernelBackend {
  /** Runs a cell's code under the file name `file` (./traceback.ts); its displays go to `display`. */
  run(code: string, file: string, display: DisplayWriter): Promise<CellOutcome>;
  /** `kernel_info_reply` fields that vary: implementation version, TypeScript version, banner. */
  info(): Promise<{ implementationVersion: string; typescriptVersion: string; banner: string }>;
  /** TypeScript's quick info at `position` of `code`, for Shift-Tab help. */
  inspect(code: string, position: number): QuickInfo | undefined;
  /** Writes to the kernel's own log (Jupyter's console), never to a cell. */
  log(line: string): void;
  /** Ends the cells' work before the kernel exits: live displays, connections, the sandbox. */
  shutdown(): Promise<void>;
  /**
   * The secret values the kernel knows now (its session's token and cookies, the password it
   * logged in with): a cell that holds one is kept out of the history (./history.ts).
   */
  secrets(): Iterable<string>;
}

interface Header {
  msg_id: string;
  msg_type: string;
  session: string;
  username: string;
}

interface Message {
  header: Header;
  content: Record<string, unknown>;
  createReply(): Message;
  signAndSend(key: string, socket: unknown): void;
}

/** The parts of tslab's ZmqServer this class uses (see node_modules/tslab/dist/jupyter.js). */
interface TslabServer {
  connInfo: { key: string };
  iopub: unknown;
  shell: unknown;
  handler: JupyterHandler;
  bindSocket(socket: Socket, port: number): Promise<void>;
  handleShellMessage(socket: unknown, ...frames: unknown[]): Promise<void>;
  publishStatus(status: string, parent: unknown): void;
  init(): Promise<void>;
  close(): void;
}

const TslabServerClass = jupyter.ZmqServer as unknown as new (
  handler: JupyterHandler,
  configPath: string,
) => TslabServer;

/**
 * Most turns of the event loop a failure's reply waits for the socket to hand over the requests it
 * holds already (they were sent before the reply, and are aborted); one or two in practice.
 */
const MAX_RECEIVE_TURNS = 10;

/**
 * Requests tslab's dispatch does not know (it logs "unknown msg_type" and sends no reply): comm
 * messages a front end may send, and `history_request` (`jupyter console` sends one at start-up).
 */
const ROUTED_MESSAGES = new Set(['comm_open', 'comm_msg', 'comm_close', 'history_request']);

/**
 * Longest waits at shutdown: for the cells' work to end, then for queued messages to go out.
 * jupyter_client kills a kernel that has not exited 5 s after its shutdown request.
 */
const SHUTDOWN_MS = 3000;
const DRAIN_MS = 1000;

/**
 * How long after its reply has been sent a cell's type check starts: the client reads the reply
 * meanwhile, rather than wait for a core the check took. Its `idle` comes that much later; 3 ms
 * made a trivial cell's `idle` 2-4 ms later, for replies no sooner than with 1 ms.
 */
const CHECK_AFTER_REPLY_MS = 1;

/** Largest stream text sent in one message; more is split (and a flood cannot grow a buffer). */
const STREAM_CHUNK = 64 * 1024;

export class KernelServer extends TslabServerClass {
  readonly #backend: KernelBackend;
  #shellQueue: Promise<void> = Promise.resolve();
  #count = 0;
  /** Cells run without a count so far (silent ones, and those kept out of the history). */
  #uncounted = 0;
  /** Shell requests received so far: each has its number, in the order they came. */
  #received = 0;
  /**
   * Execute requests numbered up to this one are answered `aborted`: set by a failure, before its
   * reply goes out, to the last request received then, so the requests queued behind the failed
   * one are not run, and none sent once the reply came is aborted. Numbers, not a clock: a cell's
   * fake timers replace `performance.now` too.
   */
  #abortThrough = 0;
  /** The execute request whose cell owns stdout/stderr now. */
  #streamParent: Message | null = null;
  #stream: { name: string; text: string; parent: Message } | null = null;
  #flushScheduled = false;

  #closing = false;
  #closed: () => void = () => {};
  /** Settles once a shutdown has ended the cells' work and closed the sockets. */
  readonly closed = new Promise<void>((resolve) => {
    this.#closed = resolve;
  });

  constructor(handler: JupyterHandler, configPath: string, backend: KernelBackend) {
    super(handler, configPath);
    this.#backend = backend;
  }

  /**
   * Shuts down (tslab calls it right after answering `shutdown_request`, its `idle` still
   * queued): see the file's comment.
   */
  override close(): void {
    if (this.#closing) return;
    this.#flush();
    this.#closing = true;
    void this.#shutDown();
  }

  async #shutDown(): Promise<void> {
    // From now on the cells' displays and streams have no cell: timers and callbacks still
    // running (a bot, a failing set) write to the kernel's log, never to iopub.
    this.#streamParent = null;
    jupyter.lastWriteDisplayData = null;
    const ended = this.#backend.shutdown().catch((error: unknown) => {
      this.#backend.log(`shutdown: ${String(error)}`);
    });
    // The last cells' history is written before the process exits (the last cell's record too,
    // which follows its reply).
    const history = this.#recorded.then(() => this.#historyStore?.flushed());
    await within(Promise.all([ended, history]), SHUTDOWN_MS);
    const fields = this as unknown as Record<string, unknown>;
    const queues = ['iopub', 'shell', 'control']
      .map((field) => fields[field])
      .filter((socket): socket is QueuedSocket => socket instanceof QueuedSocket);
    await within(Promise.all(queues.map((queue) => queue.drained())), DRAIN_MS);
    try {
      super.close();
    } catch (error) {
      this.#backend.log(`closing the sockets: ${String(error)}`);
    }
    this.#closed();
  }

  /** Binds the sockets and starts capturing stdout/stderr for the cells. */
  override async init(): Promise<void> {
    this.#captureStreams();
    await super.init();
  }

  /** Called by tslab's `init` once per socket, right after creating them: queues their sends. */
  override async bindSocket(socket: Socket, port: number): Promise<void> {
    const bound = super.bindSocket(socket, port);
    const fields = this as unknown as Record<string, unknown>;
    for (const field of ['iopub', 'shell', 'control', 'stdin', 'hb']) {
      if (fields[field] === socket) {
        fields[field] = new QueuedSocket(
          socket,
          (error) => this.#backend.log(`${field} send failed: ${String(error)}`),
          bound, // its sends wait for its bind
        );
      }
    }
    await bound;
  }

  override handleShellMessage(socket: unknown, ...frames: unknown[]): Promise<void> {
    if (socket !== this.shell) return super.handleShellMessage(socket, ...frames);
    const number = ++this.#received;
    const run = this.#shellQueue.then(async () => {
      this.#handling = number;
      await super.handleShellMessage(socket, ...frames);
      // The next request waits for this one's `idle` (sent after its reply, once what comes
      // `later` is out), as front ends expect one request's messages to end before the next's.
      await this.#idleSent;
    });
    this.#shellQueue = run.catch((error) => this.#backend.log(`shell request failed: ${String(error)}`));
    return this.#shellQueue;
  }

  /** The number of the shell request being handled (see {@link #received}). */
  #handling = 0;

  /** Replies still being prepared, so that `idle` follows them (tslab's dispatch does not wait). */
  readonly #replying = new Map<Message, Promise<void>>();

  /** Settles once the last deferred `idle` has been sent. */
  #idleSent: Promise<void> = Promise.resolve();

  /** Requests on their way through tslab's dispatch, with their own type (see publishStatus). */
  readonly #routed = new WeakMap<Message, string>();

  override publishStatus(status: string, parent: Message): void {
    if (this.#closing) {
      this.#late(parent, 'status', { execution_state: status });
      return;
    }
    if (status === 'busy' && ROUTED_MESSAGES.has(parent.header.msg_type)) {
      super.publishStatus(status, parent);
      // tslab publishes `busy`, then dispatches on the type: routed to handleCommInfoRequest, a
      // handler it has, which answers by the message's own type (and puts it back).
      this.#routed.set(parent, parent.header.msg_type);
      parent.header.msg_type = 'comm_info_request';
      return;
    }
    const replying = status === 'idle' ? this.#replying.get(parent) : undefined;
    if (!replying) {
      super.publishStatus(status, parent);
      return;
    }
    this.#idleSent = replying.finally(() => {
      this.#replying.delete(parent);
      if (this.#closing) this.#late(parent, 'status', { execution_state: status });
      else super.publishStatus(status, parent);
    });
  }

  handleKernelInfo(socket: unknown, message: Message): void {
    this.#replying.set(message, this.#kernelInfo(socket, message));
  }

  async #kernelInfo(socket: unknown, message: Message): Promise<void> {
    // A reply must go out whatever happens: front ends wait for it before the first cell.
    const info = await this.#backend.info().catch((error: unknown) => {
      this.#backend.log(`kernel_info: ${String(error)}`);
      return { implementationVersion: 'unknown', typescriptVersion: 'unknown', banner: 'scratchlab' };
    });
    const reply = message.createReply();
    reply.header.msg_type = 'kernel_info_reply';
    reply.content = {
      status: 'ok',
      protocol_version: '5.3',
      implementation: 'scratchlab',
      implementation_version: info.implementationVersion,
      language_info: {
        name: 'typescript',
        version: info.typescriptVersion,
        mimetype: 'text/typescript',
        file_extension: '.ts',
        // As tslab: makes both Notebook and JupyterLab highlight TypeScript.
        codemirror_mode: { mode: 'typescript', name: 'javascript', typescript: true },
        pygments_lexer: 'typescript',
      },
      banner: info.banner,
      help_links: [],
    };
    reply.signAndSend(this.connInfo.key, socket);
  }

  /** `shutdown_request`: answered first (tslab's reply has no `status`); tslab then calls close(). */
  handleShutdown(socket: unknown, message: Message): void {
    this.#flush(); // the text the cells wrote so far goes before the reply
    const reply = message.createReply();
    reply.header.msg_type = 'shutdown_reply';
    reply.content = { status: 'ok', restart: message.content.restart === true };
    reply.signAndSend(this.connInfo.key, socket);
  }

  /** `comm_info_request`, and the requests publishStatus routes here. */
  handleCommInfoRequest(socket: unknown, message: Message): void {
    const type = this.#routed.get(message);
    if (type === undefined) {
      // tslab answers it as a `complete_reply`, which no front end matches to its request.
      const reply = message.createReply();
      reply.header.msg_type = 'comm_info_reply';
      reply.content = { status: 'ok', comms: {} };
      reply.signAndSend(this.connInfo.key, socket);
      return;
    }
    message.header.msg_type = type; // replies and `idle` name the request as it came
    if (type === 'history_request') {
      this.#replying.set(message, this.#historyReply(socket, message));
      return;
    }
    if (type !== 'comm_open') return; // a message to, or the close of, a comm that does not exist
    const { comm_id, target_name } = message.content as { comm_id?: unknown; target_name?: unknown };
    this.#backend.log(`no comm target ${JSON.stringify(target_name)}: comm ${String(comm_id)} closed`);
    this.#publish(message, 'comm_close', { comm_id, data: {} });
  }

  /** `history_request`: tail, range or search over every session's cells (./history.ts). */
  async #historyReply(socket: unknown, message: Message): Promise<void> {
    const reply = message.createReply();
    reply.header.msg_type = 'history_reply';
    try {
      const history = await this.#history().query(message.content as HistoryRequest);
      reply.content = { status: 'ok', history };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      this.#backend.log(`history_request: ${e.message}`);
      reply.content = { status: 'error', ename: e.name, evalue: e.message, traceback: [], history: [] };
    }
    reply.signAndSend(this.connInfo.key, socket);
  }

  /** `is_complete_request`: complete, incomplete (with an indent) or invalid (./is-complete.ts). */
  handleIsComplete(socket: unknown, message: Message): void {
    const reply = message.createReply();
    reply.header.msg_type = 'is_complete_reply';
    const { code } = message.content as { code?: unknown };
    try {
      reply.content = completeness(
        tslabTypeScript(),
        typeof code === 'string' ? code : '',
        (text) => converter.isCompleteCode(text).indent ?? '',
      );
    } catch (error) {
      this.#backend.log(`is_complete failed: ${String(error)}`);
      reply.content = { status: 'unknown' };
    }
    reply.signAndSend(this.connInfo.key, socket);
  }

  /** This kernel's history, opened on first use (the file and its lock are touched only then). */
  #history(): History {
    this.#historyStore ??= History.open(historyFile(process.env), {
      log: this.#backend.log,
      secrets: () => this.#backend.secrets(),
    });
    return this.#historyStore;
  }

  #historyStore: History | null = null;
  /** Settles once the last cell's history entry has been recorded (it follows the cell's reply). */
  #recorded: Promise<void> = Promise.resolve();

  handleInspect(socket: unknown, message: Message): void {
    const reply = message.createReply();
    reply.header.msg_type = 'inspect_reply';
    const { code, cursor_pos } = message.content as { code?: unknown; cursor_pos?: unknown };
    let info: QuickInfo | undefined;
    try {
      info = this.#backend.inspect(String(code ?? ''), Number(cursor_pos ?? 0));
    } catch (error) {
      this.#backend.log(`inspect failed: ${String(error)}`);
    }
    reply.content = info
      ? { status: 'ok', found: true, data: { 'text/plain': quickInfoText(info) }, metadata: {} }
      : { status: 'ok', found: false, data: {}, metadata: {} };
    reply.signAndSend(this.connInfo.key, socket);
  }

  async handleExecute(socket: unknown, message: Message): Promise<void> {
    const { code, silent, store_history, stop_on_error } = message.content as {
      code?: unknown;
      silent?: boolean;
      store_history?: boolean;
      stop_on_error?: boolean;
    };
    const source = typeof code === 'string' ? code : '';
    const reply = message.createReply();
    reply.header.msg_type = 'execute_reply';
    if (this.#handling <= this.#abortThrough) {
      reply.content = { status: 'aborted', execution_count: this.#count };
      reply.signAndSend(this.connInfo.key, socket);
      return;
    }
    const counted = !silent && store_history !== false;
    if (counted) this.#count++;
    const count = this.#count;
    // A cell without a count has a name of its own: its frames must not point at the last counted cell.
    const file = counted ? cellFileName(count) : uncountedCellFileName(++this.#uncounted, silent === true);
    if (!silent) this.#publish(message, 'execute_input', { code: source, execution_count: count });
    this.#streamParent = message;
    const display: DisplayWriter = (content, update) =>
      this.#publish(message, update ? 'update_display_data' : 'display_data', content);
    jupyter.lastWriteDisplayData = display;

    // `exit` or `quit` alone asks the front end to end, as in IPython (`jupyter console` then quits
    // and shuts the kernel down); unless a cell declared that name. Comments may follow it.
    const exit = /exit|quit/.test(source) ? exitCommand(tslabTypeScript(), source) : undefined;
    const asksExit = exit !== undefined && !isCellName(exit) && !(exit in globalThis);
    const outcome: CellOutcome = asksExit
      ? { status: 'ok', result: null }
      : await this.#backend.run(source, file, display);
    if (outcome.status === 'ok') {
      if (outcome.result && !silent) {
        this.#publish(message, 'execute_result', {
          execution_count: count,
          data: outcome.result,
          metadata: {},
        });
      }
      const payload = asksExit ? [{ source: 'ask_exit', keepkernel: false }] : [];
      reply.content = { status: 'ok', execution_count: count, payload, user_expressions: {} };
    } else {
      const { ename, evalue, traceback } = outcome;
      this.#publish(message, 'error', { ename, evalue, traceback });
      reply.content = { status: 'error', execution_count: count, ename, evalue, traceback };
    }
    // The reply goes out as soon as the cell has run; its type check, in a worker, follows it. Its
    // warnings are still the cell's output: they come before the cell's `idle` (front ends keep a
    // request's output until its `idle`, and drop what comes after).
    // A silent cell is checked too (the cells after it use its declarations); nothing waits for
    // its warnings, and they are shown nowhere.
    const later = outcome.later;
    const warnings = async (checking: Promise<string | null>): Promise<void> => {
      try {
        const text = await checking;
        if (text && !silent && !this.#closing) this.#publish(message, 'stream', { name: 'stderr', text });
      } catch (error) {
        this.#backend.log(`type check of ${file}: ${String(error)}`);
      }
    };
    if (later && silent) void warnings(later());
    else if (later && outcome.checkFirst) await warnings(later());
    this.#flush();
    if (outcome.status === 'error' && stop_on_error !== false) {
      // As ipykernel: the requests queued behind this one were meant to follow it. Those the
      // socket holds already were sent before this reply: they are taken in, and aborted.
      // Two turns at least (one may end before the loop polls the socket), until one takes in none.
      for (let turn = 0, before = -1; turn < MAX_RECEIVE_TURNS; turn++) {
        if (turn >= 2 && before === this.#received) break;
        before = this.#received;
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.#abortThrough = this.#received;
    }
    reply.signAndSend(this.connInfo.key, socket);
    // The reply leaves on the next microtask (./send-queue.ts): whatever runs before this method
    // awaits, the reply waits for.
    const sent = socket instanceof QueuedSocket ? socket.drained() : Promise.resolve();
    if (counted) {
      // Recorded once the reply is out (before `idle`, so a history request after the cell sees
      // it): the secret scan reads the session's cookies, 0.2-0.4 ms a cell the reply need not
      // wait for. A shutdown waits for it (#recorded) before it writes the history.
      const text = outcome.status === 'ok' ? outcome.result?.['text/plain'] : undefined;
      const recorded = sent.then(() =>
        this.#history().record(count, source, typeof text === 'string' ? text : null),
      );
      this.#recorded = recorded.catch(() => {});
      await recorded;
    }
    if (later && !silent && !outcome.checkFirst) {
      // The check takes a core for tens of milliseconds: it starts once the reply is out and the
      // client has had a moment to read it, or the client would wait for a core.
      await sent;
      await new Promise((resolve) => setTimeout(resolve, CHECK_AFTER_REPLY_MS));
      await warnings(later());
    }
  }

  /**
   * Publishes `clear_output` for the cell that runs (or ran last), as IPython's `clear_output`;
   * nothing before the first cell or after a shutdown.
   */
  clearOutput(wait: boolean): void {
    if (this.#streamParent) this.#publish(this.#streamParent, 'clear_output', { wait });
  }

  /** Sends an iopub message in reply to `parent`, after any stream text written before it. */
  #publish(parent: Message, type: string, content: Record<string, unknown>): void {
    if (this.#closing) {
      this.#late(parent, type, content);
      return;
    }
    this.#flush();
    const message = parent.createReply();
    message.header.msg_type = type;
    message.content = content;
    message.signAndSend(this.connInfo.key, this.iopub);
  }

  #flush(): void {
    const stream = this.#stream;
    if (!stream) return;
    this.#stream = null;
    if (this.#closing) {
      this.#late(stream.parent, 'stream', { name: stream.name, text: stream.text });
      return;
    }
    const message = stream.parent.createReply();
    message.header.msg_type = 'stream';
    message.content = { name: stream.name, text: stream.text };
    message.signAndSend(this.connInfo.key, this.iopub);
  }

  /** An iopub message that comes after the shutdown: to the kernel's log, never to iopub. */
  #late(parent: Message, type: string, content: Record<string, unknown>): void {
    this.#backend.log(`after the shutdown, not sent: ${lateMessage(parent.header.msg_type, type, content)}`);
  }

  #write(name: 'stdout' | 'stderr', text: string): void {
    const parent = this.#streamParent;
    if (!parent) return;
    if (this.#stream && (this.#stream.name !== name || this.#stream.parent !== parent)) this.#flush();
    if (this.#stream) this.#stream.text += text;
    else this.#stream = { name, text, parent };
    if (this.#stream.text.length >= STREAM_CHUNK) this.#flush();
    else if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => {
        this.#flushScheduled = false;
        this.#flush();
      });
    }
  }

  /** Routes process.stdout/stderr writes to the cell that runs (or ran last). */
  #captureStreams(): void {
    const decoder = new TextDecoder();
    for (const name of ['stdout', 'stderr'] as const) {
      const stream = process[name];
      const original = stream.write.bind(stream);
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        if (!this.#streamParent) return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
        this.#write(name, typeof chunk === 'string' ? chunk : decoder.decode(chunk));
        const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
        callback?.();
        return true;
      }) as typeof stream.write;
    }
  }
}

/** Waits for `work`, at most `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
