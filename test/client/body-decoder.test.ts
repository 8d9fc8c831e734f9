import { createServer } from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  BodyDecodeError,
  BodyDecoder,
  BodyLimitError,
  readStreamBounded,
} from '../../src/http/body-limit.js';
import { closeLocal, listenLocal } from '../support/local-server.js';

// The decoder under the transport on its own: raw chunks in (real zlib and brotli output), the
// decoded body or its failure out. The transport tests and `body-limit.test.ts` drive it over sockets.

type Outcome = { bytes: Uint8Array } | { error: Error };

/** Feeds `chunks` to a decoder of `encoding` under `limit`, then ends it; answers what it settled with. */
function decode(
  encoding: string | null | undefined,
  limit: number,
  chunks: Uint8Array[],
  status = 200,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const decoder = new BodyDecoder(encoding, limit, status, {
      done: (bytes) => resolve({ bytes }),
      fail: (error) => resolve({ error }),
    });
    for (const chunk of chunks) decoder.write(chunk);
    decoder.end();
  });
}

const bytesOf = (outcome: Outcome) => {
  if ('error' in outcome) throw outcome.error;
  return outcome.bytes;
};
const text = (outcome: Outcome) => Buffer.from(bytesOf(outcome)).toString();
const failure = (outcome: Outcome) => {
  if (!('error' in outcome)) throw new Error(`decoded ${outcome.bytes.length} bytes instead of failing`);
  return outcome.error;
};
const BODY = 'the body of an answer, long enough to be worth compressing: '.repeat(20);

describe('BodyDecoder', () => {
  it('decodes each coding it knows, in any case, and a chain last applied first', async () => {
    const body = Buffer.from(BODY);
    expect(text(await decode('gzip', 10_000, [zlib.gzipSync(body)]))).toBe(BODY);
    expect(text(await decode('X-GZIP', 10_000, [zlib.gzipSync(body)]))).toBe(BODY);
    expect(text(await decode('br', 10_000, [zlib.brotliCompressSync(body)]))).toBe(BODY);
    expect(text(await decode('deflate', 10_000, [zlib.deflateSync(body)]))).toBe(BODY);
    expect(text(await decode('deflate', 10_000, [zlib.deflateRawSync(body)]))).toBe(BODY);
    const both = zlib.brotliCompressSync(zlib.gzipSync(body));
    expect(text(await decode('gzip, br', 10_000, [both]))).toBe(BODY);
    expect(text(await decode(' gzip ,identity,, br', 10_000, [both]))).toBe(BODY);
    // A body split in many chunks decodes the same.
    const gz = zlib.gzipSync(body);
    const pieces = Array.from({ length: Math.ceil(gz.length / 7) }, (_, i) => gz.subarray(i * 7, i * 7 + 7));
    expect(text(await decode('gzip', 10_000, pieces))).toBe(BODY);
  });

  it('tells zlib-wrapped deflate from raw inside another coding too, by its own first bytes (as undici’s fetch does)', async () => {
    const body = Buffer.from(BODY);
    expect(text(await decode('deflate, gzip', 10_000, [zlib.gzipSync(zlib.deflateSync(body))]))).toBe(BODY);
    expect(text(await decode('deflate, gzip', 10_000, [zlib.gzipSync(zlib.deflateRawSync(body))]))).toBe(
      BODY,
    );
    const twice = zlib.deflateSync(zlib.deflateRawSync(body));
    expect(text(await decode('deflate, deflate', 10_000, [twice.subarray(0, 1), twice.subarray(1)]))).toBe(
      BODY,
    );
    // An inner layer whose whole body is empty ends cleanly.
    expect(text(await decode('deflate, gzip', 10_000, [zlib.gzipSync(Buffer.alloc(0))]))).toBe('');
    // A broken inner layer, or an outer one that breaks before the inner gets a byte, fails.
    const inner = failure(await decode('deflate, gzip', 10_000, [zlib.gzipSync(Buffer.from('no deflate'))]));
    expect(inner).toMatchObject({
      name: 'BodyDecodeError',
      message: 'cannot decode the answer: invalid block type',
    });
    const outer = failure(await decode('deflate, gzip', 10_000, [Buffer.from('no gzip at all')]));
    expect(outer).toMatchObject({
      name: 'BodyDecodeError',
      message: 'cannot decode the answer: incorrect header check',
    });
  });

  it('reads what a cut brotli, gzip or deflate stream holds, byte for byte as Node’s own fetch does', async () => {
    const body = Buffer.from(BODY);
    const brotli = zlib.brotliCompressSync(body);
    const cuts: [string, Buffer][] = [
      ['br', brotli.subarray(0, brotli.length - 3)],
      ['gzip', zlib.gzipSync(body).subarray(0, 20)],
      ['deflate', zlib.deflateSync(body).subarray(0, 20)],
    ];
    // The oracle: undici's fetch reading the same bytes from a loopback server.
    let sent: [string, Buffer] = cuts[0]!;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-encoding': sent[0] });
      res.end(sent[1]);
    });
    const base = await listenLocal(server);
    try {
      for (const cut of cuts) {
        sent = cut;
        const fetched = Buffer.from(await (await fetch(base)).arrayBuffer()).toString();
        expect(fetched.length, cut[0]).toBeLessThan(BODY.length);
        expect(BODY.startsWith(fetched), cut[0]).toBe(true);
        expect(text(await decode(cut[0], 10_000, [cut[1]])), cut[0]).toBe(fetched);
      }
    } finally {
      await closeLocal(server);
    }
  });

  it('tells zlib-wrapped deflate from raw deflate by its first bytes, however it is cut', async () => {
    const body = Buffer.from(BODY);
    const wrapped = zlib.deflateSync(body);
    // A first chunk of one byte: the header's check cannot be read yet, so it is taken as wrapped.
    expect(text(await decode('deflate', 10_000, [wrapped.subarray(0, 1), wrapped.subarray(1)]))).toBe(BODY);
    // An empty first chunk tells nothing: the next one does.
    expect(text(await decode('deflate', 10_000, [new Uint8Array(0), wrapped]))).toBe(BODY);
    expect(text(await decode('deflate', 10_000, [new Uint8Array(0), zlib.deflateRawSync(body)]))).toBe(BODY);
    // Raw deflate whose first byte has the low nibble 8 but whose header check fails.
    for (let level = 0; level <= 9; level++) {
      const raw = zlib.deflateRawSync(body, { level });
      expect(text(await decode('deflate', 10_000, [raw]))).toBe(BODY);
    }
    expect(wrapped[0]).toBe(0x78);
    // Raw stored blocks (a block's header, LEN, NLEN, the bytes) whose first two bytes pass only one
    // of zlib's two header checks: the method nibble (8) or the check sum (a multiple of 31).
    const stored = (first: number, data: string, last: number[] = []) =>
      Buffer.concat([
        Buffer.from([first, data.length, 0, ~data.length & 0xff, 0xff]),
        Buffer.from(data),
        Buffer.from(last),
      ]);
    const final = [0x01, 0, 0, 0xff, 0xff];
    expect(text(await decode('deflate', 100, [stored(0x08, 'hello', final)]))).toBe('hello');
    const sumOnly = 'x'.repeat(23); // (0x01 << 8 | 23) % 31 === 0
    expect(text(await decode('deflate', 100, [stored(0x01, sumOnly)]))).toBe(sumOnly);
  });

  it('hands over the bytes as they are for identity, none, or an unknown coding anywhere in the chain', async () => {
    const raw = new TextEncoder().encode('{"plain":true}');
    for (const encoding of [null, undefined, '', 'identity', 'IDENTITY', 'x-custom', 'gzip, x-custom']) {
      expect(text(await decode(encoding, 100, [raw]))).toBe('{"plain":true}');
    }
    expect(text(await decode(null, 100, []))).toBe('');
  });

  it('takes a body of exactly the limit and fails one byte past it, decoded or raw', async () => {
    const exact = new Uint8Array(100).fill(65);
    expect(text(await decode(null, 100, [exact.subarray(0, 60), exact.subarray(60)]))).toBe('A'.repeat(100));
    const over = failure(await decode(null, 100, [exact, new Uint8Array(1)], 206));
    expect(over).toBeInstanceOf(BodyLimitError);
    expect(over).toMatchObject({ name: 'BodyLimitError', limit: 100, status: 206 });
    expect(over.message).toBe("the answer's body is larger than 100 bytes");
    // Decoded size: 101 bytes from a far smaller gzip.
    const inflated = failure(await decode('gzip', 100, [zlib.gzipSync(Buffer.alloc(101))]));
    expect(inflated).toMatchObject({ name: 'BodyLimitError', limit: 100, status: 200 });
    expect(text(await decode('gzip', 100, [zlib.gzipSync(Buffer.alloc(100, 66))]))).toBe('B'.repeat(100));
    // Raw size: 280 bytes that do not compress grow to 303 in gzip; under a limit of 290 the raw
    // bytes pass it before their decoded 280 could.
    let seed = 12345;
    const noise = Buffer.from(
      Array.from({ length: 280 }, () => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return (seed >> 16) & 255;
      }),
    );
    const packed = zlib.gzipSync(noise);
    expect(packed.length).toBe(303);
    expect(failure(await decode('gzip', 290, [packed]))).toMatchObject({
      name: 'BodyLimitError',
      limit: 290,
    });
    expect(Buffer.from(bytesOf(await decode('gzip', 303, [packed])))).toEqual(noise);
  });

  it('settles once: writes after a failure change nothing', async () => {
    const settled: string[] = [];
    const decoder = new BodyDecoder(null, 4, 200, {
      done: (bytes) => settled.push(`done ${bytes.length}`),
      fail: (error) => settled.push(`fail ${error.name}`),
    });
    expect(decoder.settled).toBe(false);
    decoder.write(new Uint8Array(3));
    decoder.write(new Uint8Array(3));
    expect(decoder.settled).toBe(true);
    decoder.write(new Uint8Array(1));
    decoder.end();
    expect(settled).toEqual(['fail BodyLimitError']);
    const ended = new BodyDecoder(null, 4, 200, {
      done: (bytes) => settled.push(`done ${bytes.length}`),
      fail: (error) => settled.push(`fail ${error.name}`),
    });
    ended.write(new Uint8Array(2));
    ended.end();
    ended.end();
    ended.write(new Uint8Array(1));
    expect(settled).toEqual(['fail BodyLimitError', 'done 2']);
  });

  it('a destroyed decoder reports nothing', async () => {
    let reports = 0;
    const decoder = new BodyDecoder('gzip', 1000, 200, {
      done: () => reports++,
      fail: () => reports++,
    });
    const gz = zlib.gzipSync(Buffer.from(BODY));
    decoder.write(gz.subarray(0, 10));
    decoder.destroy();
    expect(decoder.settled).toBe(true);
    decoder.write(gz.subarray(10));
    decoder.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reports).toBe(0);
  });

  it('names a body it cannot decode, with the answer’s status', async () => {
    const error = failure(await decode('gzip', 1000, [Buffer.from('this is not gzip at all')], 404));
    expect(error).toBeInstanceOf(BodyDecodeError);
    expect(error).toMatchObject({ name: 'BodyDecodeError', status: 404 });
    expect(error.message).toBe('cannot decode the answer: incorrect header check');
    const broken = failure(await decode('br', 1000, [Buffer.from([0xff, 0xff, 0xff, 0xff])]));
    expect(broken.message).toMatch(/^cannot decode the answer: /);
  });

  it('refuses more than five stacked codings', async () => {
    let body: Buffer = Buffer.from(BODY);
    for (let i = 0; i < 5; i++) body = zlib.gzipSync(body);
    expect(text(await decode('gzip,gzip,gzip,gzip,gzip', 100_000, [body]))).toBe(BODY);
    const error = failure(await decode('gzip,gzip,gzip,gzip,gzip,gzip', 100_000, [zlib.gzipSync(body)], 201));
    expect(error).toBeInstanceOf(BodyDecodeError);
    expect(error).toMatchObject({ status: 201 });
    expect(error.message).toBe('too many content-encodings (6, at most 5)');
  });

  it('keeps no more memory than about the body’s size', async () => {
    for (const size of [1, 1000, 15_000, 16_384, 20_000, 70_000]) {
      const body = new Uint8Array(size).fill(7);
      const chunks = Array.from({ length: Math.ceil(size / 4096) }, (_, i) =>
        body.subarray(i * 4096, i * 4096 + 4096),
      );
      const bytes = bytesOf(await decode(null, 1_000_000, chunks));
      expect(Buffer.compare(bytes, body)).toBe(0);
      expect(bytes.buffer.byteLength).toBeLessThanOrEqual(size + size / 8);
    }
    // The buffer starts at 16 KiB and doubles: a body that nearly fills it is handed over as a view
    // of it (no second copy), one that leaves more than an eighth free as a right-sized copy.
    const sized = async (size: number, chunk: number) => {
      const body = new Uint8Array(size).fill(1);
      const chunks = Array.from({ length: Math.ceil(size / chunk) }, (_, i) =>
        body.subarray(i * chunk, i * chunk + chunk),
      );
      return bytesOf(await decode(null, 1_000_000, chunks)).buffer.byteLength;
    };
    expect(await sized(15_000, 15_000)).toBe(16_384);
    expect(await sized(30_000, 4096)).toBe(32_768);
    expect(await sized(10_000, 4096)).toBe(10_000);
    // An eighth free exactly (a buffer of the limit, 9000, holding 8000) is still a view.
    expect(bytesOf(await decode(null, 9000, [new Uint8Array(8000)])).buffer.byteLength).toBe(9000);
    // A body of exactly the limit is handed over without a copy of it.
    const exact = bytesOf(await decode(null, 5000, [new Uint8Array(2000), new Uint8Array(3000)]));
    expect([exact.length, exact.buffer.byteLength]).toEqual([5000, 5000]);
  });
});

describe('readStreamBounded (a custom fetch’s body)', () => {
  const stream = (chunks: Uint8Array[], cancelled: string[] = []) =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
      cancel(reason) {
        cancelled.push(String(reason));
      },
    });

  it('reads a stream of up to the limit whole', async () => {
    const bytes = await readStreamBounded(stream([new Uint8Array([1, 2]), new Uint8Array([3])]), 3, 200);
    expect([...bytes]).toEqual([1, 2, 3]);
    expect([...(await readStreamBounded(stream([]), 3, 200))]).toEqual([]);
  });

  it('cancels the stream one byte past the limit', async () => {
    const cancelled: string[] = [];
    const chunks = [new Uint8Array(2), new Uint8Array(2), new Uint8Array(2)];
    const error = await readStreamBounded(stream(chunks, cancelled), 3, 500).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyLimitError);
    expect(error).toMatchObject({ limit: 3, status: 500 });
    expect(cancelled).toEqual(['undefined']);
    expect(chunks).toHaveLength(1);
  });
});
