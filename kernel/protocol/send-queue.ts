/**
 * One send at a time per ZeroMQ socket.
 *
 * zeromq 6 sends synchronously only for the first 512 operations of a socket between event-loop
 * turns that drain it; after that a send is queued on the loop, and a second send while one is
 * queued throws `EBUSY` ("Socket is busy writing"). tslab sends without waiting, so around the
 * 130th–170th cell (four or five iopub messages each) a stream message or the `idle` status was
 * lost and nbconvert waited forever. A `QueuedSocket` stands in for the socket: every send waits
 * for the one before, in order, and the first for the socket's bind (tslab binds its sockets at
 * once and handles a request as soon as the shell is bound: a send during a bind fails, "Socket is
 * blocked by a bind or unbind operation", and `jupyter console`, which asks kernel_info once, gave
 * up on a kernel whose reply was lost so). (zeromq's sockets are sealed: they cannot be patched in
 * place.)
 */

/** What is queued: zeromq 6's socket, with its promise-returning `send`. */
export interface Socket {
  send(message: unknown): Promise<void>;
  close(): void;
  sendTimeout: number;
  readonly closed: boolean;
}

/** How long one send may wait for the socket (zeromq's own limit) before it fails with EAGAIN. */
const SEND_TIMEOUT_MS = 30_000;

export class QueuedSocket {
  readonly socket: Socket;
  readonly #onError: (error: unknown) => void;
  #last: Promise<void>;

  /**
   * A failed send is reported through `onError` (the queue goes on), never thrown at the sender.
   * Sends wait for `bound` (the socket's bind: zeromq fails a send while a bind is under way).
   */
  constructor(
    socket: Socket,
    onError: (error: unknown) => void,
    bound: Promise<unknown> = Promise.resolve(),
  ) {
    this.socket = socket;
    this.#onError = onError;
    socket.sendTimeout = SEND_TIMEOUT_MS;
    this.#last = bound.then(
      () => undefined,
      (error: unknown) => onError(error),
    );
  }

  /** Sends `message` after every message sent before it. */
  send(message: unknown): Promise<void> {
    this.#last = this.#last
      .then(() => this.socket.send(message))
      .catch((error: unknown) => {
        if (!this.socket.closed) this.#onError(error); // after a shutdown, the last status has nowhere to go
      });
    return this.#last;
  }

  /** Settles once every message queued so far has been sent (or has failed). */
  drained(): Promise<void> {
    return this.#last;
  }

  close(): void {
    this.socket.close();
  }
}
