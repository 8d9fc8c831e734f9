import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** One import as written: a relative one resolved to a path under the walked root, else the bare name. */
export interface ImportEdge {
  /** The imported file relative to the walked root (`http/http.ts`), or a package name (`scratchlab/data`). */
  to: string;
  /** True for a bare specifier (a package such as `scratchlab/presentation` or `node:fs`). */
  bare: boolean;
  /** True for `import type` / `export type`. */
  typeOnly: boolean;
}

// Static `import … from`, `export … from`, side-effect `import '…'` and dynamic `import('…')`.
const STATIC = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/**
 * The imports of every `.ts` file under `root` (keys are paths relative to `root`), type-only
 * imports included: a circle or an upward import of types still ties concepts together.
 */
export function importGraph(root: string): Map<string, ImportEdge[]> {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.d.ts'),
  );
  const edges = new Map<string, ImportEdge[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const specifiers = [
      ...[...text.matchAll(STATIC)].map((match) => ({ spec: match[2]!, typeOnly: match[1] !== undefined })),
      ...[...text.matchAll(DYNAMIC)].map((match) => ({ spec: match[1]!, typeOnly: false })),
    ];
    edges.set(
      file,
      specifiers.map(({ spec, typeOnly }) => {
        if (!spec.startsWith('.')) return { to: spec, bare: true, typeOnly };
        const target = resolve(dirname(join(root, file)), spec).replace(/\.js$/, '.ts');
        return { to: relative(root, target), bare: false, typeOnly };
      }),
    );
  }
  return edges;
}
