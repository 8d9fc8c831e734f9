import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { JsonDepthError, parseJson } from '../records/json.js';
import { badRequest, tooLarge } from './errors.js';

/** What a route hands back; the server writes it after the latency delay. */
export interface Reply {
  status: number;
  body: Uint8Array | string;
  contentType: string;
  headers?: Record<string, string | string[]>;
}

// Marks where a bigint was, so its digits can be put back unquoted. The random part keeps text
// that a user typed from ever looking like a mark.
const BIGINT_MARK = `\u0001bigint-${randomBytes(8).toString('hex')}:`;
// How the mark reads inside JSON text (U+0001 is written as `\u0001`), escaped for a RegExp.
const MARK_IN_JSON = JSON.stringify(BIGINT_MARK)
  .slice(1, -1)
  .replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
const BIGINT_MARKED = new RegExp(`"${MARK_IN_JSON}(-?\\d+)"`, 'g');

/**
 * Serializes a value whose `bigint`s are written as bare JSON numbers with all their digits, the
 * way the real service sends ids past 2^53 (WIRE.md §10), which `JSON.stringify` alone cannot do.
 */
export function toJsonText(value: unknown): string {
  let marked = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    marked = true;
    return `${BIGINT_MARK}${v}`;
  });
  return marked ? text.replace(BIGINT_MARKED, '$1') : text;
}

/** A JSON answer. */
export function json(value: unknown, status = 200, headers?: Record<string, string | string[]>): Reply {
  return { status, body: JSON.stringify(value), contentType: 'application/json; charset=utf-8', headers };
}

/**
 * A JSON answer that may hold `bigint`s (see {@link toJsonText}). Kept apart from {@link json}: a
 * replacer function slows every answer down, and only a few carry big ids.
 */
export function exactJson(value: unknown): Reply {
  return { status: 200, body: toJsonText(value), contentType: 'application/json; charset=utf-8' };
}

/** A binary or text answer with its own content type. */
export function bytes(
  body: Uint8Array | string,
  contentType: string,
  headers?: Record<string, string>,
): Reply {
  return { status: 200, body, contentType, headers };
}

// Past this many bytes a client is not uploading by mistake: stop draining and drop the connection.
const DRAIN_CEILING = 64 * 1024 * 1024;

/**
 * Reads a request body, refusing more than `limit` bytes with 413. An oversized body is still
 * drained (up to a ceiling) so the client gets to read the 413 instead of a reset connection.
 * Past the ceiling the connection is dropped: a body declared that large gets its 413 with
 * `Connection: close` and is not read at all; a streamed one is cut off when it gets there.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > DRAIN_CEILING) {
      // Not resumed: node:http would otherwise read every declared byte before closing.
      reject(tooLarge(limit, { Connection: 'close' }));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        if (size > DRAIN_CEILING) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (over ? reject(tooLarge(limit)) : resolve(Buffer.concat(chunks, size))));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(over ? tooLarge(limit) : badRequest('request body was cut off'));
    });
  });
}

// `fatal`: bytes that are not UTF-8 are refused, not stored as U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes a text body; bytes that are not valid UTF-8 are the client's fault (400). */
export function bodyText(body: Uint8Array): string {
  try {
    return utf8.decode(body);
  } catch {
    throw badRequest('the body is not valid UTF-8');
  }
}

/**
 * Parses a JSON body (bytes, or text already decoded); malformed JSON, text that is not UTF-8 and nesting deeper than
 * `MAX_JSON_DEPTH` are the client's fault (400). The depth is checked before parsing, in linear
 * time, so a hostile body cannot stall the server.
 */
export function parseJsonBody(body: Uint8Array | string): unknown {
  if (body.length === 0) throw badRequest('expected a JSON body');
  const text = typeof body === 'string' ? body : bodyText(body);
  try {
    return parseJson(text);
  } catch (err) {
    if (err instanceof JsonDepthError) throw badRequest(`the JSON body ${err.message.replace(/^JSON /, '')}`);
    throw badRequest('malformed JSON body');
  }
}

/** True for a plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a `Cookie` header. Values may be quoted (the session cookie is, on the real site):
 * the quotes are dropped, so `a="x"` and `a=x` read the same.
 */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    // The first occurrence wins, as in browsers (most specific path first).
    if (name && !out.has(name)) out.set(name, value);
  }
  return out;
}

/**
 * The value of a request header. A header sent twice comes back as node:http keeps it: a custom
 * one such as `X-Token` joined as `a, b` (so a doubled token matches nothing and is refused), a
 * few standard ones as their first value, `set-cookie` as the first of its list.
 */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Paging as the real API takes it: `limit` 1..40 (default 20) and `offset` >= 0. */
interface Paging {
  limit: number;
  offset: number;
}

const MAX_LIMIT = 40;
const MAX_OFFSET = 10_000_000;

/** Reads `limit` and `offset`; anything else than a small non-negative integer is a 400. */
export function parsePaging(query: URLSearchParams): Paging {
  const limitText = query.get('limit');
  const offsetText = query.get('offset');
  let limit = 20;
  let offset = 0;
  if (limitText !== null && limitText !== '') {
    if (!/^\d{1,9}$/.test(limitText)) throw badRequest('limit must be an integer between 1 and 40');
    limit = Number(limitText);
    if (limit < 1 || limit > MAX_LIMIT) throw badRequest('limit must be between 1 and 40');
  }
  if (offsetText !== null && offsetText !== '') {
    if (!/^\d{1,9}$/.test(offsetText) || Number(offsetText) > MAX_OFFSET) {
      throw badRequest(`offset must be an integer between 0 and ${MAX_OFFSET}`);
    }
    offset = Number(offsetText);
  }
  return { limit, offset };
}

/** One page of a list. */
export function page<T>(items: readonly T[], paging: Paging): T[] {
  return items.slice(paging.offset, paging.offset + paging.limit);
}

/** Parses an id from a path: digits only, a safe integer; anything else names nothing (404). */
export function parseId(text: string | undefined): number | null {
  if (!text || !/^\d{1,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
