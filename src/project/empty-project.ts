/**
 * The body of a new, empty project: a stage with one plain white backdrop, as the editor starts
 * one. The backdrop's file is made here, so a new project never names an asset it did not upload.
 */
import { md5ext } from './assets.js';
import type { ProjectFiles } from './project-json.js';

const BACKDROP_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360" viewBox="0 0 480 360">' +
  '<rect width="480" height="360" fill="#ffffff"/></svg>';

/** A stage target with the editor's defaults, in the editor's key order. */
export function stageTarget<C, S = never, V = never>(
  costumes: C[],
  sounds: S[] = [],
  variables: Record<string, V> = {},
) {
  return {
    isStage: true,
    name: 'Stage',
    variables,
    lists: {},
    broadcasts: {},
    blocks: {},
    comments: {},
    currentCostume: 0,
    costumes,
    sounds,
    volume: 100,
    layerOrder: 0,
    tempo: 60,
    videoTransparency: 50,
    videoState: 'on',
    textToSpeechLanguage: null,
  };
}

/** A fresh empty project: its body and its one asset. */
export function emptyProject(): ProjectFiles {
  const bytes = new TextEncoder().encode(BACKDROP_SVG);
  const name = md5ext(bytes, 'svg');
  const backdrop = {
    name: 'backdrop1',
    dataFormat: 'svg',
    assetId: name.slice(0, 32),
    md5ext: name,
    rotationCenterX: 240,
    rotationCenterY: 180,
  };
  const json = {
    targets: [stageTarget([backdrop])],
    monitors: [],
    extensions: [],
    meta: { semver: '3.0.0', vm: '0.2.0', agent: 'scratchlab' },
  };
  return { json, assets: new Map([[name, bytes]]) };
}
