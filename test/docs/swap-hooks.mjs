// Module hooks of ./run-blocks.mjs for blocks that target the real site: their `scratchlab` is
// ./swap-scratchlab.mjs (the sandbox's hosts), and the real site's names in them (string literals:
// a user, an account) are the sandbox's twins. The blocks' text in the README is not touched.
let shim;
let blocks = {};

export function initialize(data) {
  shim = data.shim;
  blocks = data.blocks;
}

export async function resolve(specifier, context, next) {
  if (specifier === 'scratchlab' && context.parentURL && blocks[context.parentURL])
    return { url: shim, shortCircuit: true };
  return next(specifier, context);
}

export async function load(url, context, next) {
  const result = await next(url, context);
  const names = blocks[url];
  if (!names) return result;
  let source = String(result.source);
  // Names are string literals, in either quotes (esbuild writes double ones).
  for (const [from, to] of Object.entries(names))
    for (const quote of ["'", '"']) source = source.split(`${quote}${from}${quote}`).join(JSON.stringify(to));
  return { ...result, source };
}
