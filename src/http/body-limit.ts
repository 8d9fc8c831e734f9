/**
 * Reading an answer's body under a cap on its DECODED size. A few kilobytes of gzip or brotli can
 * inflate to gigabytes, so the count is kept on the decoder's output, chunk by chunk, and the
 * read stops as soon as it passes the cap: memory stays near the cap whatever the encoding.
 */
import { Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';

/** Thrown (inside the client) when a body passes its cap; the client turns it into an `ApiError`. */
export class BodyLimitError extends Error {
  override readonly name = 'BodyLimitError';
  constructor(
    /** The cap in bytes. */
    readonly limit: number,
    /** The HTTP status of the answer whose body was cut. */
    readonly status: number,
  ) {
    super(`the answer's body is larger than ${limit} bytes`);
  }
}

/** Thrown (inside the client) when an answer's body cannot be decoded (corrupt gzip, say). */
export class BodyDecodeError extends Error {
  override readonly name = 'BodyDecodeError';
  constructor(
    message: string,
    /** The HTTP status of the answer. */
    readonly status: number,
  ) {
    super(message);
  }
}

/** Content-encodings stacked on one answer beyond this are refused (undici and curl do the same). */
const MAX_ENCODINGS = 5;

/**
 * Collects decoded chunks and fails once their total passes `limit`. Bytes are copied into one
 * growing buffer (doubling) so the final answer needs no second full-size copy.
 */
class BoundedBuffer {
  #buffer: Buffer = Buffer.alloc(0);
  #length = 0;
  constructor(readonly limit: number) {}

  /** Appends a chunk; false when the total would pass the limit (nothing is appended then). */
  push(chunk: Uint8Array): boolean {
    const needed = this.#length + chunk.byteLength;
    if (needed > this.limit) return false;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: growing a buffer the chunk already fits changes only memory
    if (needed > this.#buffer.length) {
      // Never from Node's shared pool (small sizes): `bytes()` may hand out a view of this buffer.
      const grown = Buffer.allocUnsafeSlow(
        Math.min(this.limit, Math.max(needed, this.#buffer.length * 2, 16_384)),
      );
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#buffer.set(chunk, this.#length);
    this.#length = needed;
    return true;
  }

  /**
   * The bytes collected: a view when the buffer is (nearly) full, else a right-sized copy, so a
   * kept answer (an asset held in a map) does not pin up to twice its size.
   */
  bytes(): Uint8Array {
    const view = new Uint8Array(this.#buffer.buffer, this.#buffer.byteOffset, this.#length);
    return this.#buffer.length - this.#length > this.#length / 8 ? view.slice() : view;
  }
}

/** Callbacks of a {@link BodyDecoder}. */
interface BodyDecoderEvents {
  /** The decoded body, complete. */
  done(bytes: Uint8Array): void;
  /** A decoding error, or a {@link BodyLimitError}. */
  fail(error: Error): void;
}

/**
 * Decodes a raw body (the `Content-Encoding` chain, last applied first) under a cap. Raw chunks
 * are accepted at any pace and never pushed back: the transport must not pause undici's parser
 * (a paused parser that meets the peer's FIN asserts and kills the process, nodejs/undici#5360),
 * so raw bytes are capped by the same limit instead of by backpressure.
 */
export class BodyDecoder {
  readonly #out: BoundedBuffer;
  #codings: string[];
  readonly #events: BodyDecoderEvents;
  readonly #status: number;
  #raw = 0;
  #chain: Transform[] | undefined;
  #settled = false;

  constructor(
    contentEncoding: string | null | undefined,
    limit: number,
    status: number,
    events: BodyDecoderEvents,
  ) {
    this.#out = new BoundedBuffer(limit);
    this.#events = events;
    this.#status = status;
    // Stryker disable next-line StringLiteral: any text that is no known coding leaves the bytes as they are
    this.#codings = (contentEncoding ?? '')
      .toLowerCase()
      .split(',')
      .map((coding) => coding.trim())
      .filter((coding) => coding !== '' && coding !== 'identity');
    if (this.#codings.length > MAX_ENCODINGS) {
      this.#fail(
        new BodyDecodeError(
          `too many content-encodings (${this.#codings.length}, at most ${MAX_ENCODINGS})`,
          status,
        ),
      );
    }
    // An unknown coding anywhere: the bytes are handed over as they are, as browsers and undici do.
    if (!this.#codings.every((coding) => KNOWN_CODINGS.has(coding))) this.#codings = [];
  }

  /** True once the body is complete or has failed. */
  get settled(): boolean {
    return this.#settled;
  }

  /** One raw chunk from the wire. */
  write(chunk: Uint8Array): void {
    // Stryker disable next-line ConditionalExpression: past this guard a settled decoder's chain is destroyed and #done and #fail check again
    if (this.#settled) return;
    this.#raw += chunk.byteLength;
    if (this.#raw > this.#out.limit) {
      this.#fail(new BodyLimitError(this.#out.limit, this.#status));
      return;
    }
    if (this.#codings.length === 0) {
      if (!this.#out.push(chunk)) this.#fail(new BodyLimitError(this.#out.limit, this.#status));
      return;
    }
    this.#chain ??= this.#makeChain();
    this.#chain[0]!.write(chunk);
  }

  /** The raw body is complete. */
  end(): void {
    // Stryker disable next-line ConditionalExpression: #done checks again, and a destroyed chain ends nothing
    if (this.#settled) return;
    if (this.#chain) this.#chain[0]!.end();
    else this.#done();
  }

  /** Stops decoding (the request failed or was aborted). */
  destroy(): void {
    this.#settled = true;
    for (const stream of this.#chain ?? []) stream.destroy();
  }

  #makeChain(): Transform[] {
    const chain = [...this.#codings].reverse().map(decoderFor);
    for (let i = 0; i < chain.length; i++) {
      chain[i]!.on('error', (error: Error) =>
        this.#fail(new BodyDecodeError(`cannot decode the answer: ${error.message}`, this.#status)),
      );
      if (i + 1 < chain.length) chain[i]!.pipe(chain[i + 1]!);
    }
    const last = chain[chain.length - 1]!;
    last.on('data', (chunk: Buffer) => {
      if (!this.#out.push(chunk)) this.#fail(new BodyLimitError(this.#out.limit, this.#status));
    });
    last.on('end', () => this.#done());
    return chain;
  }

  #done(): void {
    // Stryker disable next-line ConditionalExpression: its callers (end, the chain's end) never run on a settled decoder
    if (this.#settled) return;
    this.#settled = true;
    this.#events.done(this.#out.bytes());
  }

  #fail(error: Error): void {
    // Stryker disable next-line ConditionalExpression: write returns on a settled decoder and a destroyed chain emits nothing
    if (this.#settled) return;
    this.destroy();
    this.#events.fail(error);
  }
}

/** Lenient flushing, as curl and undici's fetch do: servers often cut the final block. */
const ZLIB_OPTIONS = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };

const KNOWN_CODINGS = new Set(['gzip', 'x-gzip', 'br', 'deflate']);

function decoderFor(coding: string): Transform {
  if (coding === 'br') {
    return zlib.createBrotliDecompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    });
  }
  if (coding === 'deflate') return new DeflateDecoder();
  return zlib.createGunzip(ZLIB_OPTIONS); // gzip and x-gzip
}

/**
 * HTTP's "deflate" is meant to be zlib-wrapped (RFC 9110 §8.4.1.2), but some servers send raw
 * deflate. Each deflate layer tells which from the first bytes it is given (for a layer inside
 * another coding, the outer layer's output, not the wire's), as undici's fetch does.
 */
class DeflateDecoder extends Transform {
  #inflate: Transform | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (chunk.byteLength === 0) {
      callback(); // tells nothing yet
      return;
    }
    if (this.#inflate === undefined) {
      const inflate = looksZlibWrapped(chunk)
        ? zlib.createInflate(ZLIB_OPTIONS)
        : zlib.createInflateRaw(ZLIB_OPTIONS);
      inflate.on('data', (data: Buffer) => this.push(data));
      inflate.on('error', (error: Error) => this.destroy(error));
      this.#inflate = inflate;
    }
    this.#inflate.write(chunk, () => callback());
  }

  override _flush(callback: TransformCallback): void {
    // Stryker disable next-line ConditionalExpression: with Z_SYNC_FLUSH each write's output is out before its callback, and a cut stream is read leniently, so an inflate never ended leaves the answer as it is
    if (this.#inflate === undefined) {
      callback(); // an empty body
      return;
    }
    this.#inflate.once('end', () => callback());
    this.#inflate.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Stryker disable next-line OptionalChaining: Node turns a throw here into the stream's error, which a failed decoder ignores
    this.#inflate?.destroy();
    callback(error);
  }
}

/** Whether a deflate layer's first bytes (never none: empty chunks are passed over) open a zlib header. */
function looksZlibWrapped(bytes: Uint8Array): boolean {
  const cmf = bytes[0]!;
  const flg = bytes[1];
  if ((cmf & 0x0f) !== 8) return false;
  return flg === undefined || ((cmf << 8) | flg) % 31 === 0;
}

/**
 * Reads a web `ReadableStream` (a custom `fetch`'s body, already decoded by that fetch) under a
 * cap, cancelling it past the cap.
 */
export async function readStreamBounded(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  status: number,
): Promise<Uint8Array> {
  const out = new BoundedBuffer(limit);
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out.bytes();
    if (!out.push(value)) {
      await reader.cancel().catch(() => undefined);
      throw new BodyLimitError(limit, status);
    }
  }
}
