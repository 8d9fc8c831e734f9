import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ImportEdge, importGraph } from '../support/import-graph.js';

// Walks the import graph of src/ as written (type-only imports included, since a circle of
// types is still a circle of concepts) and reports every cycle, so the old
// session ↔ cloud/ ↔ resources/ circle, nor a circle inside a folder (sandbox/state, cloud.ts ↔
// cloud-events.ts), can come back.
const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** Every cycle found by a depth-first walk over the edges that `keep` accepts. */
function cycles(
  edges: Map<string, ImportEdge[]>,
  keep: (from: string, edge: ImportEdge) => boolean,
): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const edge of edges.get(node) ?? []) {
      if (!keep(node, edge)) continue;
      if (state.get(edge.to) === 'open')
        found.push([...stack.slice(stack.indexOf(edge.to)), edge.to].join(' → '));
      else if (!state.has(edge.to)) visit(edge.to);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('import graph of src/', () => {
  // Package imports (node:fs, htmlparser2) are not part of src/'s graph.
  const edges = new Map(
    [...importGraph(SRC)].map(([file, out]) => [file, out.filter((edge) => !edge.bare)] as const),
  );

  it('reads the imports it should (sanity: session imports the resources and the cloud)', () => {
    expect(edges.get('session.ts')!.map((edge) => edge.to)).toEqual(
      expect.arrayContaining(['resources/projects.ts', 'cloud/cloud.ts', 'http/client-core.ts']),
    );
    expect(edges.get('resources/resource.ts')!.map((edge) => edge.to)).toContain('http/client-core.ts');
  });

  it('has no cycle at run time', () => {
    expect(cycles(edges, (_from, edge) => !edge.typeOnly)).toEqual([]);
  });

  it('has no cycle, type imports included, not even within one folder', () => {
    expect(cycles(edges, () => true)).toEqual([]);
  });

  it('resources and the cloud client do not import the Session', () => {
    for (const [file, out] of edges) {
      if (file.startsWith('resources/') || file.startsWith('cloud/')) {
        expect(
          out.map((edge) => edge.to),
          file,
        ).not.toContain('session.ts');
      }
    }
  });
});
