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
 *   on failure. A failure aborts the requests already queued unless they asked `stop_on_error:
 *   false`.
 * - stdout and stderr of the user's code become `stream` messages of the cell that wrote them
 *   (later writes go to the last cell, as in IPython), coalesced per event-loop turn.
 * - `kernel_info` names the TypeScript that compiles the cells; `inspect` renders `{@link X}`.
 */

import type { MimeBundle } from '../tslab.js';
import { type JupyterHandler, jupyter } from '../tslab.js';
import { type QuickInfo, quickInfoText } from './quick-info.js';
import { QueuedSocket, type Socket } from './send-queue.js';

/** The result of one cell, as the server publishes it. */
export type CellOutcome =
  | { status: 'ok'; result: MimeBundle | null }
  | { status: 'error'; ename: string; evalue: string; traceback: string[] };

/** Where a cell's display messages go: `update` replaces an earlier output with the same display id. */
export type DisplayWriter = (
  content: { data: MimeBundle; metadata: Record<string, unknown>; transient: { display_id?: string } },
  update: boolean,
) => void;

/** What the server needs from the rest of the kernel. */
export interface KernelBackend {
  /** Runs a cell's code as execution `count`; its displays go to `display`. */
  run(code: string, count: number, display: DisplayWriter): Promise<CellOutcome>;
  /** `kernel_info_reply` fields that vary: implementation version, TypeScript version, banner. */
  info(): Promise<{ implementationVersion: string; typescriptVersion: string; banner: string }>;
  /** TypeScript's quick info at `position` of `code`, for Shift-Tab help. */
  inspect(code: string, position: number): QuickInfo | undefined;
  /** Writes to the kernel's own log (Jupyter's console), never to a cell. */
  log(line: string): void;
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
 * After a failure, requests arriving this soon were sent with the failed one ("run all") and are
 * aborted too; a client that waited for the failure's reply cannot answer that fast.
 */
const ABORT_WINDOW_MS = 2;

/** Largest stream text sent in one message; more is split (and a flood cannot grow a buffer). */
const STREAM_CHUNK = 64 * 1024;

export class KernelServer extends TslabServerClass {
  readonly #backend: KernelBackend;
  #shellQueue: Promise<void> = Promise.resolve();
  #count = 0;
  /**
   * Execute requests received before this time (`performance.now()`) are answered `aborted`: set
   * by a failure (to just past it), so the requests queued behind the failed one are not run.
   */
  #abortUntil = Number.NEGATIVE_INFINITY;
  /** The execute request whose cell owns stdout/stderr now. */
  #streamParent: Message | null = null;
  #stream: { name: string; text: string; parent: Message } | null = null;
  #flushScheduled = false;

  constructor(handler: JupyterHandler, configPath: string, backend: KernelBackend) {
    super(handler, configPath);
    this.#backend = backend;
  }

  /** Binds the sockets and starts capturing stdout/stderr for the cells. */
  override async init(): Promise<void> {
    this.#captureStreams();
    await super.init();
  }

  /** Called by tslab's `init` once per socket, right after creating them: queues their sends. */
  override async bindSocket(socket: Socket, port: number): Promise<void> {
    const fields = this as unknown as Record<string, unknown>;
    for (const field of ['iopub', 'shell', 'control', 'stdin', 'hb']) {
      if (fields[field] === socket) {
        fields[field] = new QueuedSocket(socket, (error) =>
          this.#backend.log(`${field} send failed: ${String(error)}`),
        );
      }
    }
    await super.bindSocket(socket, port);
  }

  override handleShellMessage(socket: unknown, ...frames: unknown[]): Promise<void> {
    if (socket !== this.shell) return super.handleShellMessage(socket, ...frames);
    const receivedAt = performance.now();
    const run = this.#shellQueue.then(() => {
      this.#receivedAt = receivedAt;
      return super.handleShellMessage(socket, ...frames);
    });
    this.#shellQueue = run.catch((error) => this.#backend.log(`shell request failed: ${String(error)}`));
    return this.#shellQueue;
  }

  /** When the shell request being handled arrived. */
  #receivedAt = 0;

  /** Replies still being prepared, so that `idle` follows them (tslab's dispatch does not wait). */
  readonly #replying = new Map<Message, Promise<void>>();

  override publishStatus(status: string, parent: Message): void {
    const replying = status === 'idle' ? this.#replying.get(parent) : undefined;
    if (!replying) {
      super.publishStatus(status, parent);
      return;
    }
    void replying.finally(() => {
      this.#replying.delete(parent);
      super.publishStatus(status, parent);
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
    if (this.#receivedAt <= this.#abortUntil) {
      reply.content = { status: 'aborted', execution_count: this.#count };
      reply.signAndSend(this.connInfo.key, socket);
      return;
    }
    if (!silent && store_history !== false) this.#count++;
    const count = this.#count;
    if (!silent) this.#publish(message, 'execute_input', { code: source, execution_count: count });
    this.#streamParent = message;
    const display: DisplayWriter = (content, update) =>
      this.#publish(message, update ? 'update_display_data' : 'display_data', content);
    jupyter.lastWriteDisplayData = display;

    const outcome = await this.#backend.run(source, count, display);
    if (outcome.status === 'ok') {
      if (outcome.result && !silent) {
        this.#publish(message, 'execute_result', {
          execution_count: count,
          data: outcome.result,
          metadata: {},
        });
      }
      reply.content = { status: 'ok', execution_count: count, payload: [], user_expressions: {} };
    } else {
      const { ename, evalue, traceback } = outcome;
      this.#publish(message, 'error', { ename, evalue, traceback });
      reply.content = { status: 'error', execution_count: count, ename, evalue, traceback };
      // As ipykernel: the requests queued behind this one were meant to follow it.
      if (stop_on_error !== false) this.#abortUntil = performance.now() + ABORT_WINDOW_MS;
    }
    this.#flush();
    reply.signAndSend(this.connInfo.key, socket);
  }

  /** Sends an iopub message in reply to `parent`, after any stream text written before it. */
  #publish(parent: Message, type: string, content: Record<string, unknown>): void {
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
    const message = stream.parent.createReply();
    message.header.msg_type = 'stream';
    message.content = { name: stream.name, text: stream.text };
    message.signAndSend(this.connInfo.key, this.iopub);
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

/** Writes a line to the kernel's own stderr (Jupyter's log), bypassing the cells' capture. */
export function kernelLog(): (line: string) => void {
  const write = process.stderr.write.bind(process.stderr);
  return (line) => {
    write(`[scratchlab kernel] ${line}\n`);
  };
}
