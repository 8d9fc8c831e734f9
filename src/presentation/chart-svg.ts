/**
 * Vega-Lite specs rendered to SVG in Node, for outputs that cannot run Vega (nbconvert's HTML,
 * static viewers). vega and vega-lite are imported on first use only: they are large, and vega
 * cannot be `require`d, so loading them eagerly would slow every start of the REPL and kernel.
 */
import type { VegaLiteSpec } from './vega-lite-spec.js';

/** Which language a spec is written in: Vega-Lite (most charts) or Vega (the remix tree's layout). */
export type ChartGrammar = 'vega-lite' | 'vega';

interface Renderer {
  toSvg(spec: VegaLiteSpec, grammar: ChartGrammar): Promise<string>;
}

let renderer: Promise<Renderer> | undefined;

async function loadRenderer(): Promise<Renderer> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  // Without a canvas package (none is installed), vega estimates text widths from the font size;
  // say so explicitly so the SVG is the same on machines that do happen to have `canvas`.
  const metrics = (vega as { textMetrics?: { canvas?: (use: boolean) => void } }).textMetrics;
  metrics?.canvas?.(false);
  return {
    async toSvg(spec, grammar) {
      // Our specs are plain JSON; vega-lite validates them as it compiles. A copy is compiled:
      // vega tags the data rows it is given, and the caller's spec must stay as it was.
      const copy = JSON.parse(JSON.stringify(spec)) as Parameters<typeof vegaLite.compile>[0];
      const compiled = grammar === 'vega' ? copy : vegaLite.compile(copy).spec;
      const view = new vega.View(vega.parse(compiled as Parameters<typeof vega.parse>[0]), {
        renderer: 'none',
      });
      try {
        return await view.toSVG();
      } finally {
        view.finalize();
      }
    },
  };
}

/**
 * Render a Vega-Lite spec (or a Vega one, with `grammar: 'vega'`) to an SVG document string (no
 * browser, no canvas). The first call loads vega and vega-lite (a few hundred milliseconds);
 * later calls reuse them.
 */
export async function renderSvg(spec: VegaLiteSpec, grammar: ChartGrammar = 'vega-lite'): Promise<string> {
  renderer ??= loadRenderer().catch((error: unknown) => {
    renderer = undefined; // let a later call try again
    throw error;
  });
  return (await renderer).toSvg(spec, grammar);
}
