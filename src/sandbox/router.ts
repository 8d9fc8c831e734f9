import type { IncomingMessage } from 'node:http';
import { badRequest } from './errors.js';
import type { Reply } from './http-utils.js';

/** What a route handler sees of a request. */
export interface Incoming {
  method: string;
  /**
   * The path as sent, without the query and still percent-encoded. Matching ignores empty
   * segments, so `/session/` and `/session` reach the same route; `params` are decoded.
   */
  path: string;
  query: URLSearchParams;
  /** Decoded `:name` segments of the matched pattern. */
  params: Record<string, string>;
  cookies: Map<string, string>;
  raw: IncomingMessage;
}

type Handler = (req: Incoming) => Reply | Promise<Reply>;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

/** The outcome of matching: a handler, a path known under other methods (405), or nothing (404). */
type Match =
  | { kind: 'found'; handler: Handler; params: Record<string, string> }
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

/**
 * A tiny method + pattern router. Patterns are `/`-separated literals and `:name` placeholders;
 * a placeholder matches one non-empty segment. Routes are tried in the order they were added.
 */
export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, segments: splitPath(pattern), handler });
    return this;
  }

  get(pattern: string, handler: Handler): this {
    return this.add('GET', pattern, handler);
  }

  post(pattern: string, handler: Handler): this {
    return this.add('POST', pattern, handler);
  }

  put(pattern: string, handler: Handler): this {
    return this.add('PUT', pattern, handler);
  }

  delete(pattern: string, handler: Handler): this {
    return this.add('DELETE', pattern, handler);
  }

  match(method: string, path: string): Match {
    const segments = splitPath(path).map(decodeSegment);
    // HEAD is a GET without a body (node:http drops the body itself).
    const wanted = method === 'HEAD' ? 'GET' : method;
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === wanted) return { kind: 'found', handler: route.handler, params };
      allowed.add(route.method);
    }
    if (allowed.size > 0) {
      if (allowed.has('GET')) allowed.add('HEAD');
      return { kind: 'method', allowed: [...allowed].sort() };
    }
    return { kind: 'none' };
  }
}

/** Splits a path into its non-empty segments, so trailing or doubled slashes do not matter. */
function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('malformed percent-encoding in the path');
  }
}

function matchSegments(pattern: string[], path: string[]): Record<string, string> | null {
  if (pattern.length !== path.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const s = path[i]!;
    if (p.startsWith(':')) params[p.slice(1)] = s;
    else if (p !== s) return null;
  }
  return params;
}
