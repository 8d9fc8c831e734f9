// Child processes of the tests are plain node: a script of test/support bundled by esbuild (milliseconds).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles `test/support/<name>.ts` into `<dir>/<name>.mjs` and answers that path. Packages named
 * in `external` (native ones, like DuckDB's) stay imports: `dir` must then lie inside the project
 * so that node finds them in its node_modules (e.g. {@link projectTempDir}).
 */
export async function bundleChild(name: string, dir: string, external: string[] = []): Promise<string> {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [fileURLToPath(new URL(`./${name}.ts`, import.meta.url))],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    external,
    // CommonJS dependencies (undici, proper-lockfile) inside an ESM bundle need a `require`.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return outfile;
}

/** A fresh folder under the project's `test/.tmp/` (ignored by git), where node_modules resolve. */
export function projectTempDir(prefix: string): string {
  const base = fileURLToPath(new URL('../.tmp/', import.meta.url));
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, prefix));
}
