/**
 * The public type of the chart specs: plain JSON, so callers can serialize, tweak or send them as a
 * `application/vnd.vegalite.*+json` display without vega-lite's types (or `any`) leaking out.
 */

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A Vega-Lite specification as a JSON object (e.g. with `$schema`, `data`, `mark`, `vconcat`). */
export type VegaLiteSpec = JsonObject;

/** The schema the specs declare: the installed vega-lite major version. */
export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
