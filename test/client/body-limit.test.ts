import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, DEFAULT_MAX_RESPONSE_BYTES, Session } from '../../src/index.js';
import { bundleChild } from '../support/bundle-child.js';
import { caught } from '../support/caught.js';
import { listenLocal } from '../support/local-server.js';

// A raw TCP server writing HTTP answers by hand, so that each test controls the encoding,
// Content-Length and `Connection: close` followed by FIN: the case that crashes undici's fetch.
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
type Body = { bytes: Buffer; encoding?: string } | { plain: number };
const bodies = new Map<string, Body>();
let base = '';
let server: Server;
let root = '';
let child = '';

/** `size` zero bytes as gzip: 1 MiB members concatenated (gunzip reads them as one stream). */
function gzipBomb(size: number): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(MiB), { level: 9 });
  return Buffer.concat(Array.from({ length: size / MiB }, () => member));
}

/** zlib-wrapped deflate of `size` zeros: one sync-flushed 1 MiB block repeated (no trailer needed: it is never reached). */
function deflateBomb(size: number): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(MiB), {
    level: 9,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
  });
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: size / MiB }, () => block)]);
}

/** Brotli of `size` zeros, compressed as a stream from one reused zero chunk. */
async function brotliBomb(size: number): Promise<Buffer> {
  const compressor = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
  const chunks: Buffer[] = [];
  compressor.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => compressor.on('end', resolve));
  const zeros = Buffer.alloc(MiB);
  for (let written = 0; written < size; written += MiB) {
    if (!compressor.write(zeros)) await new Promise((resolve) => compressor.once('drain', resolve));
  }
  compressor.end();
  await done;
  return Buffer.concat(chunks);
}

function answer(socket: Socket, path: string): void {
  const close = path.endsWith('-close');
  const body = bodies.get(path.replace(/-close$/, ''));
  if (!body) {
    socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    return;
  }
  const connection = close ? 'Connection: close\r\n' : '';
  socket.on('error', () => undefined); // the client hangs up mid-body on purpose
  if ('plain' in body) {
    socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n${connection}\r\n`);
    // No length: the body runs until FIN (close) — written in chunks with backpressure.
    const chunk = Buffer.alloc(MiB, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < body.plain && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      socket.end();
    };
    pump();
    return;
  }
  const head = [
    'HTTP/1.1 200 OK',
    'Content-Type: application/json',
    ...(body.encoding ? [`Content-Encoding: ${body.encoding}`] : []),
    `Content-Length: ${body.bytes.length}`,
  ].join('\r\n');
  socket.write(`${head}\r\n${connection}\r\n`);
  if (close) socket.end(body.bytes);
  else socket.write(body.bytes);
}

beforeAll(async () => {
  bodies.set('/gzip', { bytes: gzipBomb(GiB), encoding: 'gzip' });
  bodies.set('/deflate', { bytes: deflateBomb(GiB), encoding: 'deflate' });
  bodies.set('/br', { bytes: await brotliBomb(GiB / 2), encoding: 'br' });
  bodies.set('/gzip-br', {
    bytes: zlib.brotliCompressSync(gzipBomb(GiB), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
    encoding: 'gzip, br',
  });
  bodies.set('/plain', { plain: 300 * MiB });
  const small = Buffer.from(JSON.stringify({ hello: 'world', list: [1, 2, 3] }));
  bodies.set('/small-gzip', { bytes: zlib.gzipSync(small), encoding: 'gzip' });
  bodies.set('/small-br', { bytes: zlib.brotliCompressSync(small), encoding: 'br' });
  bodies.set('/small-deflate', { bytes: zlib.deflateSync(small), encoding: 'deflate' });
  bodies.set('/small-raw-deflate', { bytes: zlib.deflateRawSync(small), encoding: 'deflate' });
  bodies.set('/small-unknown', { bytes: small, encoding: 'x-custom' });
  bodies.set('/corrupt-gzip', { bytes: Buffer.from('this is not gzip at all'), encoding: 'gzip' });
  server = createServer((socket) => {
    let head = '';
    socket.on('data', (data) => {
      head += data.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const path = head.split(' ')[1] ?? '/';
      head = head.slice(end + 4);
      answer(socket, path);
    });
    socket.on('error', () => undefined);
  });
  base = await listenLocal(server);
  // The child is plain node: bundle it once (esbuild takes milliseconds).
  root = await mkdtemp(join(tmpdir(), 'scratchlab-body-limit-'));
  child = await bundleChild('body-limit-child', root);
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

const session = (options: ConstructorParameters<typeof Session>[0] = {}) =>
  new Session({ hosts: { api: base, assets: base }, retries: 0, ...options });

/** Runs the child on one path: its exit code and the JSON line it printed. */
function runChild(
  path: string,
): Promise<{ code: number | null; out: Record<string, unknown> | undefined; err: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [child, base, path], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (data) => {
      out += data;
    });
    proc.stderr.on('data', (data) => {
      err += data;
    });
    proc.on('close', (code) => {
      const line = out.trim().split('\n').pop();
      resolve({ code, out: line ? JSON.parse(line) : undefined, err });
    });
  });
}

describe('decoded size limit (maxResponseBytes)', () => {
  it.each(['/gzip', '/br', '/deflate', '/gzip-br', '/plain-close'])(
    '%s: the read stops at the limit with an ApiError naming it',
    async (path) => {
      const error = await caught(session().apiGet(path));
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(200);
      expect(error.limit).toBe('maxResponseBytes');
      expect(error.message).toContain(
        `larger than maxResponseBytes (${DEFAULT_MAX_RESPONSE_BYTES} bytes decoded)`,
      );
    },
  );

  it('is settable per Session, and a Content-Length past it is refused before reading', async () => {
    const error = await caught(session({ maxResponseBytes: 1000 }).apiGet('/gzip'));
    expect(error.limit).toBe('maxResponseBytes');
    expect(error.message).toContain('(1000 bytes decoded)');
    const text = JSON.stringify({ a: 'x'.repeat(4992) });
    expect(text.length).toBe(5000);
    bodies.set('/long', { bytes: Buffer.from(text) });
    const long = await caught(session({ maxResponseBytes: 4999 }).apiGet('/long'));
    expect(long.limit).toBe('maxResponseBytes');
    expect(await session({ maxResponseBytes: 5000 }).apiGet('/long')).toEqual({ a: 'x'.repeat(4992) });
    expect(() => session({ maxResponseBytes: 0 })).toThrow(RangeError);
    expect(() => session({ maxDownloadBytes: 1.5 })).toThrow(TypeError);
  });

  it('downloads use maxDownloadBytes instead', async () => {
    const name = `${'0'.repeat(32)}.png`;
    bodies.set(`/internalapi/asset/${name}/get/`, { bytes: gzipBomb(64 * MiB), encoding: 'gzip' });
    const error = await caught(session({ maxDownloadBytes: 2 * MiB }).projects.downloadAsset(name));
    expect(error.limit).toBe('maxDownloadBytes');
    expect(error.message).toContain(`larger than maxDownloadBytes (${2 * MiB} bytes decoded)`);
  });

  it('decodes ordinary gzip, brotli, zlib and raw deflate answers, and passes unknown codings through', async () => {
    const expected = { hello: 'world', list: [1, 2, 3] };
    for (const path of [
      '/small-gzip',
      '/small-br',
      '/small-deflate',
      '/small-raw-deflate',
      '/small-unknown',
    ]) {
      expect(await session().apiGet(path)).toEqual(expected);
      expect(await session().apiGet(`${path}-close`)).toEqual(expected);
    }
  });

  it('an undecodable body is an ApiError with the answer’s status, not a network failure', async () => {
    const error = await caught(session({ retries: 2 }).apiGet('/corrupt-gzip'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(200);
    expect(error.reason).toMatch(/^cannot decode the answer: /);
  });

  it('a custom fetch is read as a stream and cancelled at the limit', async () => {
    const error = await caught(
      session({ fetch: (url, init) => fetch(url, init), maxResponseBytes: 4 * MiB }).apiGet('/gzip'),
    );
    expect(error.limit).toBe('maxResponseBytes');
  });
});

// Not under `npm run mutation` (Stryker's workers set STRYKER_MUTATOR_WORKER): the children would
// run the instrumented copy, whose memory is not the product's, and their coverage is not counted.
describe.skipIf(process.env.STRYKER_MUTATOR_WORKER !== undefined)(
  'the process survives hostile bodies (child processes)',
  () => {
    it.each(['/gzip-close', '/br-close', '/deflate-close', '/plain-close'])(
      '%s: ApiError, clean exit, peak RSS near the limit',
      async (path) => {
        const { code, out, err } = await runChild(path);
        expect(err).not.toContain('AssertionError');
        expect(code).toBe(0);
        expect(out).toMatchObject({ ok: false, name: 'ApiError', status: 200, limit: 'maxResponseBytes' });
        // Start-up RSS plus a few times the 16 MiB limit, far from the 1 GiB (or crash) of a full read.
        const grown = (out!.peakRss as number) - (out!.startRss as number);
        expect(grown).toBeLessThan(6 * DEFAULT_MAX_RESPONSE_BYTES);
      },
    );
  },
);
