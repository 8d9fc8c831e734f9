import { md5ext } from '../../project/assets.js';
import { stageTarget } from '../../project/empty-project.js';
import type { Random } from '../seed/random.js';
import { type ScriptContext, type SpriteScripts, spriteScripts } from './generated-scripts.js';

/** A file for the asset host, named by the md5 of its bytes. */
export interface Asset {
  md5ext: string;
  assetId: string;
  dataFormat: string;
  bytes: Uint8Array;
}

/**
 * Makes an asset of some bytes (a string is taken as UTF-8): the name is always the md5 of
 * exactly these bytes, made by the client's own `md5ext`, so a generated name is one the client
 * accepts. An extension the client would refuse throws a RangeError.
 */
export function asset(bytes: Uint8Array | string, dataFormat: string): Asset {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const name = md5ext(data, dataFormat);
  const dot = name.indexOf('.');
  return { md5ext: name, assetId: name.slice(0, dot), dataFormat: name.slice(dot + 1), bytes: data };
}

/** Costumes and a sound that generated projects share. */
interface AssetPool {
  backdrops: Asset[];
  costumes: Asset[];
  /** A short wav (the fixtures' "pop"), named by every generated sprite. */
  pop: Asset;
}

const COLOURS = ['#4c97ff', '#9966ff', '#cf63cf', '#ffbf00', '#ffab19', '#4cbf56', '#40bf9f', '#ff6680'];
const SKIES = [
  ['#87ceeb', '#4caf50'],
  ['#0b1d3a', '#2e3f66'],
  ['#ffe0b2', '#f4a261'],
  ['#e0f7fa', '#90caf9'],
];

function costumeSvg(shape: number, colour: string): string {
  const body = [
    `<circle cx="48" cy="50" r="40" fill="${colour}" stroke="#333" stroke-width="3"/>`,
    `<rect x="8" y="10" width="80" height="80" rx="14" fill="${colour}" stroke="#333" stroke-width="3"/>`,
    `<polygon points="48,6 90,90 6,90" fill="${colour}" stroke="#333" stroke-width="3"/>`,
    `<path d="M48 8 L60 38 L92 40 L66 60 L76 92 L48 74 L20 92 L30 60 L4 40 L36 38 Z" fill="${colour}" stroke="#333" stroke-width="3"/>`,
  ][shape % 4];
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="100" viewBox="0 0 96 100">' +
    `${body}<circle cx="36" cy="44" r="5" fill="#fff"/><circle cx="60" cy="44" r="5" fill="#fff"/></svg>`
  );
}

function backdropSvg(sky: string, ground: string): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360" viewBox="0 0 480 360">' +
    `<rect width="480" height="360" fill="${sky}"/><rect y="270" width="480" height="90" fill="${ground}"/></svg>`
  );
}

/** The shared pool: fixed content, so its md5 names never change. */
export function assetPool(pop: Asset): AssetPool {
  return {
    backdrops: SKIES.map(([sky, ground]) => asset(backdropSvg(sky!, ground!), 'svg')),
    costumes: COLOURS.map((colour, i) => asset(costumeSvg(i, colour), 'svg')),
    pop,
  };
}

/** `n` distinct small SVGs (for the asset-heavy benchmark project). */
export function distinctCostumes(n: number): Asset[] {
  const out: Asset[] = [];
  for (let i = 0; i < n; i++) {
    const colour = COLOURS[i % COLOURS.length]!;
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="100" viewBox="0 0 96 100">' +
      `<rect x="4" y="4" width="88" height="92" rx="10" fill="${colour}"/>` +
      `<text x="48" y="60" font-size="28" text-anchor="middle" fill="#fff">${i + 1}</text></svg>`;
    out.push(asset(svg, 'svg'));
  }
  return out;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function costumeEntry(a: Asset, name: string, isBackdrop: boolean): Json {
  return {
    assetId: a.assetId,
    name,
    bitmapResolution: 1,
    md5ext: a.md5ext,
    dataFormat: a.dataFormat,
    rotationCenterX: isBackdrop ? 240 : 48,
    rotationCenterY: isBackdrop ? 180 : 50,
  };
}

function popEntry(a: Asset): Json {
  return {
    assetId: a.assetId,
    name: 'pop',
    dataFormat: a.dataFormat,
    format: '',
    rate: 44100,
    sampleCount: 1032,
    md5ext: a.md5ext,
  };
}

const BLOCK_ID_CHARS =
  'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#%()*+,-./:;=?@[]^_`{|}~';

/**
 * A sprite's scripts: a greeting, then (with a context) a few more from the library of
 * `generated-scripts.ts`. Draws from `rng` exactly what the one greeting script always drew, so
 * that every other seeded value stays as it was.
 */
function script(rng: Random, greeting: string, context: ScriptContext | null): SpriteScripts {
  const [seed] = Array.from({ length: 5 }, () => rng.chars(20, BLOCK_ID_CHARS));
  return spriteScripts(seed!, greeting, rng.int(3, 30), context);
}

function stage(backdrops: Json[], sounds: Json[], variables: Record<string, Json>): Json {
  return stageTarget(backdrops, sounds, variables);
}

function sprite(
  name: string,
  layer: number,
  costumes: Json[],
  sounds: Json[],
  { blocks, lists }: SpriteScripts,
  rng: Random,
): Json {
  return {
    isStage: false,
    name,
    variables: {},
    lists,
    broadcasts: {},
    blocks,
    comments: {},
    currentCostume: 0,
    costumes,
    sounds,
    volume: 100,
    layerOrder: layer,
    visible: true,
    x: rng.int(-180, 180),
    y: rng.int(-120, 120),
    size: 100,
    direction: 90,
    draggable: false,
    rotationStyle: 'all around',
  };
}

const META = {
  semver: '3.0.0',
  vm: '5.0.40',
  agent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
};

const SPRITE_NAMES = ['Sprite1', 'Player', 'Cat', 'Ball', 'Star', 'Button', 'Hero', 'Ghost', 'Dot'];
const GREETINGS = ['Hello!', 'Press space to start', 'Let’s go!', 'Hi there!', 'Click me!', 'Ready?'];

/**
 * A small valid Scratch 3 project body that names only assets of the pool. `cloud` adds a stage
 * cloud variable (`☁ high score`), as games that keep a leaderboard have.
 */
export function generatedBody(rng: Random, pool: AssetPool, options: { cloud: boolean }): string {
  const scoreId = rng.chars(20, BLOCK_ID_CHARS);
  const variables: Record<string, Json> = { [scoreId]: ['score', 0] };
  if (options.cloud) variables[rng.chars(20, BLOCK_ID_CHARS)] = ['☁ high score', '0', true];
  const backdrop = rng.pick(pool.backdrops);
  const theStage = stageTarget([costumeEntry(backdrop, 'backdrop1', true)], [popEntry(pool.pop)], variables);
  const context: ScriptContext = { score: ['score', scoreId], messages: {} };
  const targets: Json[] = [theStage];
  const spriteCount = rng.int(1, 3);
  const names = rng.sample(SPRITE_NAMES, spriteCount);
  for (let i = 0; i < spriteCount; i++) {
    const costumes = rng
      .sample(pool.costumes, rng.int(1, 3))
      .map((a, k) => costumeEntry(a, `costume${k + 1}`, false));
    targets.push(
      sprite(
        names[i]!,
        i + 1,
        costumes,
        [popEntry(pool.pop)],
        script(rng, rng.pick(GREETINGS), context),
        rng,
      ),
    );
  }
  // The format keys a message by its id (`{id: name}`, as the VM writes it); the scripts' context by name.
  theStage.broadcasts = Object.fromEntries(Object.entries(context.messages).map(([name, id]) => [id, name]));
  return JSON.stringify({ targets, monitors: [], extensions: [], meta: META });
}

/**
 * The benchmark project: exactly `costumes.length` distinct assets, the first as the backdrop and
 * the others spread over sprites of 25 costumes each; no sounds, so nothing else is named.
 */
export function assetHeavyBody(rng: Random, costumes: Asset[]): string {
  const [backdrop, ...frames] = costumes;
  if (!backdrop) throw new Error('assetHeavyBody needs at least one asset');
  const targets: Json[] = [stage([costumeEntry(backdrop, 'backdrop1', true)], [], {})];
  const perSprite = 25;
  for (let i = 0; i * perSprite < frames.length; i++) {
    const entries = frames
      .slice(i * perSprite, (i + 1) * perSprite)
      .map((a, k) => costumeEntry(a, `frame${k + 1}`, false));
    targets.push(sprite(`Flipbook${i + 1}`, i + 1, entries, [], script(rng, 'Frame by frame', null), rng));
  }
  return JSON.stringify({ targets, monitors: [], extensions: [], meta: META });
}
