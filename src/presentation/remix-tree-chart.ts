/**
 * `plot(tree)` of a remix tree (`projects.remixTree`): Vega's tree layout, the root on the left,
 * remixes to the right, each project a dot sized by its loves; in a terminal, an indented outline.
 */
import type { RemixTreeNode } from '../resources/remix-tree.js';
import { Chart } from './chart.js';
import { formatCount, oneLine } from './format.js';
import { truncateToWidth } from './text-width.js';
import type { JsonObject, VegaLiteSpec } from './vega-lite-spec.js';

/** Whether `value` is a remix tree node (`{ id, title, author, loves, children }`). */
export function isRemixTree(value: unknown): value is RemixTreeNode {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const node = value as Record<string, unknown>;
  return (
    typeof node.id === 'number' &&
    typeof node.title === 'string' &&
    typeof node.author === 'string' &&
    typeof node.loves === 'number' &&
    Array.isArray(node.children)
  );
}

/** The nodes breadth first, each with its parent's id and depth (iterative: no depth limit on the stack). */
function flatten(root: RemixTreeNode): { node: RemixTreeNode; parent: number | null; depth: number }[] {
  const out: { node: RemixTreeNode; parent: number | null; depth: number }[] = [];
  const queue = [{ node: root, parent: null as number | null, depth: 0 }];
  const seen = new Set<number>();
  for (let i = 0; i < queue.length; i++) {
    const item = queue[i]!;
    if (seen.has(item.node.id)) continue;
    seen.add(item.node.id);
    out.push(item);
    for (const child of item.node.children)
      queue.push({ node: child, parent: item.node.id, depth: item.depth + 1 });
  }
  return out;
}

/** A Vega spec drawing the tree (tidy tree layout, horizontal). */
export function remixTreeSpec(root: RemixTreeNode, options: { title?: string } = {}): VegaLiteSpec {
  const nodes = flatten(root);
  const depth = nodes.reduce((deepest, n) => Math.max(deepest, n.depth), 0); // up to 100,000 nodes: no spread
  const leaves = nodes.filter((n) => n.node.children.length === 0).length;
  const width = Math.min(2400, 60 + 200 * Math.max(1, depth));
  const height = Math.min(6000, Math.max(120, 18 * leaves));
  const values: JsonObject[] = nodes.map(({ node, parent }) => ({
    id: node.id,
    parent,
    title: node.title,
    author: node.author,
    loves: node.loves,
    label: `${node.title} (${node.author})${node.truncated ? ' …' : ''}`,
  }));
  return {
    $schema: 'https://vega.github.io/schema/vega/v5.json',
    title: options.title ?? `Remix tree of "${root.title}" (${formatCount(nodes.length)} projects)`,
    width,
    height,
    padding: 5,
    data: [
      {
        name: 'tree',
        values,
        transform: [
          { type: 'stratify', key: 'id', parentKey: 'parent' },
          { type: 'tree', method: 'tidy', size: [height, width - 160], as: ['y', 'x', 'depth', 'children'] },
        ],
      },
      {
        name: 'links',
        source: 'tree',
        transform: [{ type: 'treelinks' }, { type: 'linkpath', orient: 'horizontal', shape: 'diagonal' }],
      },
    ],
    scales: [
      { name: 'size', type: 'sqrt', domain: { data: 'tree', field: 'loves' }, range: [20, 400], zero: true },
    ],
    marks: [
      {
        type: 'path',
        from: { data: 'links' },
        encode: { update: { path: { field: 'path' }, stroke: { value: '#bbb' } } },
      },
      {
        type: 'symbol',
        from: { data: 'tree' },
        encode: {
          enter: {
            size: { scale: 'size', field: 'loves' },
            fill: { value: '#4d97ff' },
            tooltip: {
              signal: "{'title': datum.title, 'author': datum.author, 'loves': datum.loves, 'id': datum.id}",
            },
          },
          update: { x: { field: 'x' }, y: { field: 'y' } },
        },
      },
      {
        type: 'text',
        from: { data: 'tree' },
        encode: {
          enter: {
            text: { field: 'label' },
            fontSize: { value: 10 },
            baseline: { value: 'middle' },
            limit: { value: 190 },
          },
          update: { x: { field: 'x' }, y: { field: 'y' }, dx: { value: 9 } },
        },
      },
    ],
  };
}

/** The tree as an indented outline, at most `maxLines` lines. */
export function remixTreeOutline(root: RemixTreeNode, width = 80, maxLines = 40): string {
  const lines: string[] = [];
  let total = 0;
  const walk = (node: RemixTreeNode, prefix: string, branch: string) => {
    total++;
    if (lines.length < maxLines) {
      const text = `${prefix}${branch}${oneLine(node.title)} (${node.author}) ♥ ${formatCount(node.loves)}${node.truncated ? ' …' : ''}`;
      lines.push(truncateToWidth(text, width));
    }
    const childPrefix = prefix + (branch === '├─ ' ? '│  ' : branch === '' ? '' : '   ');
    node.children.forEach((child, i) => {
      walk(child, childPrefix, i === node.children.length - 1 ? '└─ ' : '├─ ');
    });
  };
  // Recursion is safe: a tree is at most 50 levels deep (`remixTree`'s depth limit).
  walk(root, '', '');
  if (total > lines.length) lines.push(`… ${formatCount(total - lines.length)} more`);
  return lines.join('\n');
}

/** The chart of a remix tree. */
export function remixTreeChart(root: RemixTreeNode, options: { title?: string } = {}): Chart {
  const count = flatten(root).length;
  return new Chart(remixTreeSpec(root, options), {
    grammar: 'vega',
    summary: `Remix tree of "${root.title}" by ${root.author}: ${formatCount(count)} projects\n${remixTreeOutline(root, 100, 20)}`,
    terminal: ({ width, height }) => remixTreeOutline(root, width - 1, Math.max(5, height - 4)),
  });
}
