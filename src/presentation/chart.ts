/**
 * `Chart`: what `plot(...)` answers in both front ends. It holds a Vega-Lite spec (`.spec`), shows
 * itself as a chart (a terminal drawing in the REPL, a MIME bundle in notebooks) and saves itself
 * in the format a file's extension names: `.svg`, `.png` (rasterized by resvg), `.html`
 * (standalone, works offline: the SVG inline, the spec beside it) and `.json` (the spec).
 */

import {
  extensionOf,
  JUPYTER_DISPLAY,
  REPL_DISPLAY,
  type SavedFile,
  writeWhole,
} from '../rows/saved-file.js';
import { type ChartGrammar, renderSvg } from './chart-svg.js';
import { escapeHtml } from './render-html.js';
import { truncateToWidth } from './text-width.js';
import type { VegaLiteSpec } from './vega-lite-spec.js';

/**
 * The Vega-Lite MIME type front ends render today (JupyterLab, Notebook 7, VS Code, nteract know
 * v3 to v5; none knows a v6 type yet). Our specs use nothing newer than v5, so they are sent under
 * that type with the v5 schema.
 */
export const VEGA_LITE_MIME = 'application/vnd.vegalite.v5+json';
const VEGA_LITE_V5_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';
/** Likewise for Vega specs (the remix tree): front ends render `vnd.vega.v5`; the spec needs nothing newer. */
export const VEGA_MIME = 'application/vnd.vega.v5+json';
const VEGA_V5_SCHEMA = 'https://vega.github.io/schema/vega/v5.json';

/** Terminal facts a drawing needs. */
export interface ChartTerminal {
  /** Columns available. */
  width: number;
  /** Lines of the terminal. */
  height: number;
  /** Whether ANSI colours may be used. */
  color: boolean;
}

/** Options of a {@link Chart}. */
export interface ChartOptions {
  /** Plain-text summary: the `text/plain` of the notebook output (default: the chart's title). */
  summary?: string;
  /** Draws the chart for a terminal (default: the summary). */
  terminal?: (context: ChartTerminal) => string;
  /** The spec's language: `vega-lite` (default) or `vega` (layouts Vega-Lite lacks, e.g. trees). */
  grammar?: ChartGrammar;
}

/** Options of {@link Chart.toPNG}. */
export interface PngOptions {
  /** Pixels per SVG unit (default 2, sharp on high-density screens). */
  scale?: number;
}

/** Largest PNG side in pixels: bounds memory whatever the spec's size. */
const MAX_PNG_SIDE = 8192;

interface Resvg {
  Resvg: new (
    svg: string,
    options?: {
      fitTo?: { mode: 'zoom'; value: number };
      background?: string;
      font?: Record<string, unknown>;
    },
  ) => { width: number; height: number; render(): { asPng(): Uint8Array } };
}

let resvg: Promise<Resvg> | undefined;

/** resvg is a native module of a few MB: loaded on the first PNG only. */
function loadResvg(): Promise<Resvg> {
  resvg ??= import('@resvg/resvg-js')
    .then((m) => m as unknown as Resvg)
    .catch((error: unknown) => {
      resvg = undefined;
      throw error;
    });
  return resvg;
}

function titleOf(spec: VegaLiteSpec): string {
  const title = spec.title;
  if (typeof title === 'string') return title;
  if (title && typeof title === 'object' && !Array.isArray(title) && typeof title.text === 'string')
    return title.text;
  return 'Chart';
}

/** A chart: its Vega-Lite spec, its drawings, and `save`. */
export class Chart {
  /** The Vega-Lite spec (plain JSON). */
  readonly spec: VegaLiteSpec;
  /** The chart in a few lines of plain text. */
  readonly summary: string;
  /** The spec's language: `vega-lite`, or `vega` for the few charts that need its layouts. */
  readonly grammar: ChartGrammar;
  readonly #terminal: ((context: ChartTerminal) => string) | undefined;
  #svg: Promise<string> | undefined;
  #svgText: string | undefined;

  constructor(spec: VegaLiteSpec, options: ChartOptions = {}) {
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
      throw new TypeError('a chart needs a Vega-Lite spec (an object)');
    this.spec = spec;
    this.summary = options.summary ?? titleOf(spec);
    this.grammar = options.grammar ?? 'vega-lite';
    this.#terminal = options.terminal;
  }

  /** The chart as an SVG document (rendered in Node by vega once, then kept). */
  toSVG(): Promise<string> {
    this.#svg ??= renderSvg(this.spec, this.grammar).then(
      (svg) => {
        this.#svgText = svg;
        return svg;
      },
      (error: unknown) => {
        this.#svg = undefined;
        throw error;
      },
    );
    return this.#svg;
  }

  /** Renders the SVG now, so that the notebook display carries it; answers the chart. */
  async ready(): Promise<this> {
    await this.toSVG();
    return this;
  }

  /** The chart as a PNG image (the SVG rasterized by resvg, on a white background). */
  async toPNG(options: PngOptions = {}): Promise<Uint8Array> {
    const scale = options.scale ?? 2;
    if (!(typeof scale === 'number' && scale > 0 && scale <= 8))
      throw new RangeError('scale must be a number above 0 and at most 8');
    const [svg, { Resvg }] = await Promise.all([this.toSVG(), loadResvg()]);
    const probe = new Resvg(svg);
    const fit = Math.min(
      scale,
      MAX_PNG_SIDE / Math.max(1, probe.width),
      MAX_PNG_SIDE / Math.max(1, probe.height),
    );
    const image = new Resvg(svg, {
      fitTo: { mode: 'zoom', value: fit },
      background: 'white',
      font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
    });
    return image.render().asPng();
  }

  /** A standalone HTML page: the SVG inline and the spec in a data block; no script, no network. */
  async toHTML(): Promise<string> {
    const svg = await this.toSVG();
    const title = escapeHtml(titleOf(this.spec));
    // `</` cannot end the data block early once escaped.
    const spec = JSON.stringify(this.spec, null, 1).replace(/<\//g, '<\\/');
    return [
      '<!DOCTYPE html>',
      '<html lang="en">',
      '<head>',
      '<meta charset="utf-8">',
      `<title>${title}</title>`,
      '<style>body{margin:16px;background:#fff;color:#222;font-family:sans-serif}</style>',
      '</head>',
      '<body>',
      svg,
      `<script type="application/json" id="${this.grammar}-spec">${spec}</script>`,
      '</body>',
      '</html>',
      '',
    ].join('\n');
  }

  /** The spec, so `JSON.stringify(chart)` writes it. */
  toJSON(): VegaLiteSpec {
    return this.spec;
  }

  /**
   * Writes the chart to `file` in the format its extension names: `.svg`, `.png`, `.html` or
   * `.json`. Written whole or not at all; answers where and how big.
   * @throws TypeError (as a rejection) for another extension
   */
  async save(file: string): Promise<SavedFile> {
    const ext = extensionOf(file, 'chart.png');
    switch (ext) {
      case 'svg':
        return writeWhole(file, await this.toSVG(), 'SVG');
      case 'png':
        return writeWhole(file, await this.toPNG(), 'PNG');
      case 'html':
      case 'htm':
        return writeWhole(file, await this.toHTML(), 'HTML');
      case 'json':
        return writeWhole(
          file,
          `${JSON.stringify(this.spec, null, 2)}\n`,
          this.grammar === 'vega' ? 'Vega JSON' : 'Vega-Lite JSON',
        );
      default:
        throw new TypeError(`save() writes .svg, .png, .html or .json, not "${file}"`);
    }
  }

  /** The terminal drawing (the summary when the chart has none). */
  render(context: ChartTerminal): string {
    if (this.#terminal) return this.#terminal(context);
    return this.summary
      .split('\n')
      .map((line) => truncateToWidth(line, Math.max(1, context.width - 1)))
      .join('\n');
  }

  /** The drawing without colours, 80 columns wide. */
  toString(): string {
    return this.render({ width: 81, height: 28, color: false });
  }

  /** The REPL shows the terminal drawing. */
  [REPL_DISPLAY](context: ChartTerminal): string {
    return this.render(context);
  }

  /**
   * Notebooks show the bundle: Vega-Lite (interactive front ends), the SVG once rendered (static
   * exports; see {@link ready}) and the summary as text.
   */
  [JUPYTER_DISPLAY](): Record<string, unknown> {
    const bundle: Record<string, unknown> =
      this.grammar === 'vega'
        ? { [VEGA_MIME]: { ...this.spec, $schema: VEGA_V5_SCHEMA } }
        : { [VEGA_LITE_MIME]: { ...this.spec, $schema: VEGA_LITE_V5_SCHEMA } };
    if (this.#svgText !== undefined) bundle['image/svg+xml'] = this.#svgText;
    bundle['text/plain'] = this.summary;
    return bundle;
  }
}
