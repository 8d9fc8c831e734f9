// Child processes of the tests are plain node: a script of test/support bundled by esbuild (milliseconds).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Bundles `test/support/<name>.ts` into `<dir>/<name>.mjs` and answers that path. */
export async function bundleChild(name: string, dir: string): Promise<string> {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [fileURLToPath(new URL(`./${name}.ts`, import.meta.url))],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    // CommonJS dependencies (undici, proper-lockfile) inside an ESM bundle need a `require`.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return outfile;
}
