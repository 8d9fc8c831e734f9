import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ImportEdge, importGraph } from './support/import-graph.js';

// The layer rule of README "Development": a module imports only from its own layer or the ones
// beneath it. Bottom to top; a name is a folder of src/ or a file directly in it. Siblings in one
// row may import each other. A new folder must be placed here, or the first test fails.
const LAYERS: readonly (readonly string[])[] = [
  ['redact.ts', 'encoding.ts', 'atomic-write.ts'], // foundations
  ['records'], // typed records and the readers of the platform's answers
  ['errors.ts'], // the public error classes (their fields are records)
  ['rows'], // flat rows, record lists, list windows, saved files: beneath data and presentation
  ['http'], // the client core
  ['project'], // .sb3 archives
  ['analysis'], // what projects are made of: the block-level model, statistics, CT score, smells
  ['databases'], // cloud request storage
  ['cloud'],
  ['resources'],
  ['session.ts', 'index.ts'],
  ['data'],
  ['presentation'],
  ['sandbox'],
  ['workbench'],
  ['commands', 'cli.ts'],
];

const root = (folder: string) => fileURLToPath(new URL(`../${folder}/`, import.meta.url));
const rank = (file: string) => LAYERS.findIndex((row) => row.includes(file.split('/')[0]!));

/** Every import of `edges` (a graph of src/) that reaches a higher layer, as `from → to`. */
function upwardImports(edges: Map<string, ImportEdge[]>): string[] {
  const found: string[] = [];
  for (const [file, out] of edges)
    for (const edge of out) if (!edge.bare && rank(edge.to) > rank(file)) found.push(`${file} → ${edge.to}`);
  return found;
}

/** The imports of a front end (kernel/, repl/) that leave it other than through the package. */
function strayImports(folder: string, publicEntries: readonly string[]): string[] {
  const found: string[] = [];
  for (const [file, out] of importGraph(root(folder)))
    for (const edge of out) {
      const leaves = !edge.bare && edge.to.startsWith('..');
      const privateEntry = edge.bare && /^scratchlab(\/|$)/.test(edge.to) && !publicEntries.includes(edge.to);
      const otherFrontEnd =
        edge.bare && /(^|\/)(kernel|repl)(\/|$)/.test(edge.to) && !edge.to.startsWith('node:');
      if (leaves || privateEntry || otherFrontEnd) found.push(`${folder}/${file} → ${edge.to}`);
    }
  return found;
}

describe('layers', () => {
  const src = importGraph(root('src'));
  const manifest = JSON.parse(readFileSync(root('.') + 'package.json', 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  const publicEntries = Object.keys(manifest.exports).map((key) => key.replace(/^\./, manifest.name));

  it('places every module of src/ in a layer', () => {
    expect(src.size).toBeGreaterThan(100);
    expect([...src.keys()].filter((file) => rank(file) < 0)).toEqual([]);
  });

  it('finds an upward import when there is one (the check itself works)', () => {
    const bad = new Map([
      ['rows/list-window.ts', [{ to: 'presentation/format.ts', bare: false, typeOnly: false }]],
    ]);
    expect(upwardImports(bad)).toEqual(['rows/list-window.ts → presentation/format.ts']);
  });

  it('src/ never imports from a higher layer (type imports and dynamic imports included)', () => {
    expect(upwardImports(src)).toEqual([]);
  });

  it('src/ imports itself by path, never by the package name', () => {
    const named = [...src].flatMap(([file, out]) =>
      out
        .filter((edge) => edge.bare && /^scratchlab(\/|$)/.test(edge.to))
        .map((edge) => `${file} → ${edge.to}`),
    );
    expect(named).toEqual([]);
  });

  it('kernel/ and repl/ import the SDK only through its public entries, and not each other', () => {
    expect(publicEntries).toEqual(expect.arrayContaining(['scratchlab', 'scratchlab/data']));
    expect(strayImports('kernel', publicEntries)).toEqual([]);
    expect(strayImports('repl', publicEntries)).toEqual([]);
  });
});
