/**
 * Remix trees, built from what the service still answers (WIRE.md §11.3): the real
 * `remixtree/bare` endpoint was removed in 2025, so the tree is walked from the project's
 * `remix.root` down through `/projects/<id>/remixes`, one list per node, breadth first, within
 * a depth and a node budget, through the client's normal request path (its retries and limits).
 */

import { ApiError } from '../errors.js';
import { mapConcurrent } from '../http/concurrency.js';
import type { Project } from '../records/records.js';
import { assertFunction, assertInteger, assertObject } from '../records/validate.js';

/** One project of a remix tree. */
export interface RemixTreeNode {
  id: number;
  title: string;
  /** The author's username (`''` when the service gave none). */
  author: string;
  loves: number;
  /** Remixes of this project, oldest first. */
  children: RemixTreeNode[];
  /**
   * True when this project may have remixes the tree left out: it sits at the `depth` limit, or
   * the node `limit` was reached before its remixes were read.
   */
  truncated?: boolean;
}

/** How far a remix tree walk has come. */
export interface RemixTreeProgress {
  /** Projects in the tree so far. */
  nodes: number;
  /** Requests made so far. */
  requests: number;
  /** Depth being read (0 is the root). */
  depth: number;
  done: boolean;
}

/** Options of `projects.remixTree`. */
export interface RemixTreeOptions {
  /** Levels of remixes read below the root (default 10, at most 50). */
  depth?: number;
  /** Most projects in the tree (default 1,000, at most 100,000). */
  limit?: number;
  /** Called after each request with the running totals. */
  onProgress?: (progress: RemixTreeProgress) => void;
  signal?: AbortSignal;
}

/** What the walk needs of the projects group. */
interface RemixSource {
  get(id: number): Promise<Project>;
  /** Up to `max` remixes of a project (as many pages as that takes), oldest first. */
  remixes(id: number, max: number, signal?: AbortSignal): Promise<readonly Project[]>;
}

/** Lists of remixes read at once. */
const CONCURRENCY = 4;

function nodeOf(project: Project): RemixTreeNode {
  return {
    id: project.id,
    title: project.title,
    author: project.author?.username ?? '',
    loves: project.stats?.loves ?? 0,
    children: [],
  };
}

/**
 * The remix tree `id` belongs to, from its root: each node with its remixes, breadth first, at
 * most `depth` levels and `limit` projects.
 */
export async function buildRemixTree(
  source: RemixSource,
  id: number,
  options: RemixTreeOptions = {},
): Promise<RemixTreeNode> {
  assertObject(options, 'options');
  const depth = options.depth === undefined ? 10 : assertInteger(options.depth, 'depth', 0, 50);
  const limit = options.limit === undefined ? 1_000 : assertInteger(options.limit, 'limit', 1, 100_000);
  if (options.onProgress !== undefined) assertFunction(options.onProgress, 'onProgress');
  const { onProgress, signal } = options;
  let requests = 0;
  let nodes = 0;
  let level = 0;
  const report = (done: boolean) => onProgress?.({ nodes, requests, depth: level, done });
  const get = async (projectId: number) => {
    signal?.throwIfAborted();
    try {
      return await source.get(projectId);
    } finally {
      requests++;
      report(false);
    }
  };

  const start = await get(id);
  // The root may be gone or unshared: then the tree starts as high as can be read.
  let top = start;
  for (const upper of [start.remix?.root, start.remix?.parent]) {
    if (typeof upper !== 'number' || upper === start.id) continue;
    try {
      top = await get(upper);
      break;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }

  const root = nodeOf(top);
  nodes = 1;
  const seen = new Set<number>([root.id]);
  let frontier = [root];
  while (frontier.length > 0) {
    if (level >= depth) {
      for (const node of frontier) node.truncated = true;
      break;
    }
    const next: RemixTreeNode[] = [];
    await mapConcurrent(
      frontier,
      CONCURRENCY,
      async (node) => {
        if (nodes >= limit) {
          node.truncated = true;
          return;
        }
        // Never more rows than the tree can still take (one more tells that some were left out).
        const remixes = await source.remixes(node.id, limit - nodes + 1, signal);
        requests += Math.floor(remixes.length / 40) + 1;
        for (const remix of remixes) {
          // A tree, not a graph: a project shows once, under the first parent that lists it.
          if (seen.has(remix.id)) continue;
          if (nodes >= limit) {
            node.truncated = true;
            break;
          }
          seen.add(remix.id);
          const child = nodeOf(remix);
          node.children.push(child);
          next.push(child);
          nodes++;
        }
        report(false);
      },
      signal,
    );
    frontier = next;
    level++;
  }
  report(true);
  return root;
}
