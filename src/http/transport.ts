/**
 * How one HTTP exchange reaches the wire, body read whole under a cap on its decoded size.
 *
 * The default transport drives undici's dispatcher directly rather than its `fetch`: `fetch`
 * decodes gzip/brotli with no bound, and under backpressure it pauses the HTTP parser, which
 * asserts (uncatchably) when a `Connection: close` peer ends the socket meanwhile
 * (nodejs/undici#5360). Here the parser is never paused and decoding is bounded by
 * {@link BodyDecoder}. A custom `fetch` is still accepted; its body is read as a stream under the
 * same cap (its own decoder is its own).
 */
import type { Dispatcher } from 'undici';
import { BodyDecoder, BodyLimitError, readStreamBounded } from './body-limit.js';

/** The header view of an answer (the global `Headers` fits). */
interface HeaderView {
  get(name: string): string | null;
  getSetCookie?(): string[];
}

/** The parts of a fetch answer the client reads (undici's and the global `Response` both fit). */
export interface FetchResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderView;
  /** Read as a stream under the cap when present; otherwise `arrayBuffer()` is used. */
  readonly body?: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
  text(): Promise<string>;
}

/** What the client passes to `fetch`. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  redirect: 'manual';
}

/** A `fetch`-compatible function: pass your own to add logging or a proxy. */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchResponse>;

/** One exchange to send: `maxBytes` caps the decoded body. */
interface WireRequest extends FetchInit {
  maxBytes: number;
}

/** An answer read whole. */
interface WireAnswer {
  status: number;
  headers: HeaderView;
  bytes: Uint8Array;
}

/** Sends one exchange; rejects with {@link BodyLimitError} past `maxBytes`. */
export type Transport = (url: string, request: WireRequest) => Promise<WireAnswer>;

/** The encodings the default transport decodes (and so asks for). */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * The default transport: one shared keep-alive pool per process, as undici recommends. undici is
 * loaded on the first request, not at import: it is the heaviest module of the SDK and start-up
 * time matters in the REPL and the kernel.
 */
let agent: Promise<Dispatcher> | undefined;
export const undiciTransport: Transport = async (url, request) => {
  agent ??= import('undici').then(
    // Stryker disable next-line ObjectLiteral: how long idle connections are kept: only a clock would tell
    ({ Agent }) => new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 }),
  );
  return dispatch(await agent, url, request);
};

function dispatch(dispatcher: Dispatcher, url: string, request: WireRequest): Promise<WireAnswer> {
  const { signal } = request;
  signal?.throwIfAborted();
  const target = new URL(url);
  // The caller's own Accept-Encoding, in whatever case, replaces the default (not sent beside it).
  const named = Object.keys(request.headers).some((name) => name.toLowerCase() === 'accept-encoding');
  const headers = named ? request.headers : { 'accept-encoding': ACCEPT_ENCODING, ...request.headers };
  return new Promise<WireAnswer>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let decoder: BodyDecoder | undefined;
    let settled = false;
    const finish = (error: Error | undefined, answer?: WireAnswer) => {
      // Stryker disable next-line ConditionalExpression: a second finish (undici's error after our abort) repeats only what is done
      if (settled) return;
      // Stryker disable next-line BooleanLiteral: likewise
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      decoder?.destroy();
      if (error) {
        if (controller && !controller.aborted) controller.abort(error);
        reject(error);
      } else {
        resolve(answer!);
      }
    };
    const onAbort = () =>
      finish(signal!.reason instanceof Error ? signal!.reason : new Error(String(signal!.reason)));
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: finish takes the listener off in any case
    signal?.addEventListener('abort', onAbort, { once: true });
    dispatcher.dispatch(
      {
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers,
        body: request.body ?? null,
      },
      {
        onRequestStart(ctl) {
          controller = ctl;
          if (settled) ctl.abort(new Error('aborted'));
        },
        onResponseStart(_ctl, status, rawHeaders) {
          // Stryker disable next-line ConditionalExpression: undici keeps 1xx answers to itself (103 Early Hints tested)
          if (status < 200) return; // 1xx: the real answer follows
          const view = toHeaders(rawHeaders);
          const length = Number(view.get('content-length'));
          const encoding = view.get('content-encoding');
          // Stryker disable next-line ConditionalExpression: undici itself fails a 204 or 304 that announces a length (tried)
          const bodiless = request.method === 'HEAD' || status === 204 || status === 304;
          if (!bodiless && !encoding && Number.isFinite(length) && length > request.maxBytes) {
            return finish(new BodyLimitError(request.maxBytes, status));
          }
          decoder = new BodyDecoder(encoding, request.maxBytes, status, {
            done: (bytes) => finish(undefined, { status, headers: view, bytes }),
            fail: (error) => finish(error),
          });
        },
        // Never pause: see the module comment. The decoder caps what is kept instead.
        onResponseData(_ctl, chunk) {
          // Stryker disable next-line OptionalChaining: no data reaches an exchange refused before its decoder was made (aborted)
          decoder?.write(chunk);
        },
        onResponseEnd() {
          // Stryker disable next-line OptionalChaining: likewise, no end
          decoder?.end();
        },
        onResponseError(_ctl, error) {
          finish(error);
        },
      },
    );
  });
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    // Stryker disable next-line ConditionalExpression: undici's parser hands no undefined values; kept for the type
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, item);
      } catch {
        // A header value the Headers class refuses (control characters): the client never needs it.
      }
    }
  }
  return headers;
}

/** A transport over a user's `fetch`: its body is read as a stream and cancelled past the cap. */
export function fetchTransport(fetch: FetchLike): Transport {
  return async (url, { maxBytes, ...init }) => {
    const response = await fetch(url, init);
    const { status, headers } = response;
    if (response.body && typeof response.body.getReader === 'function') {
      return { status, headers, bytes: await readStreamBounded(response.body, maxBytes, status) };
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw new BodyLimitError(maxBytes, status);
    return { status, headers, bytes };
  };
}
