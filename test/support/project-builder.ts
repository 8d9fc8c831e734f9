/**
 * Builds Scratch 3 project bodies for tests from a short description of their scripts, the way
 * the editor stores them: ids, `parent`/`next` links, `topLevel`, inputs as `[shadowType, …]`.
 */

/** A block: its opcode, or the opcode with fields, inputs (a stack or one reporter) and a mutation. */
export type BlockSpec =
  | string
  | {
      op: string;
      fields?: Record<string, unknown[]>;
      inputs?: Record<string, BlockSpec | BlockSpec[] | unknown[]>;
      mutation?: Record<string, unknown>;
      shadow?: boolean;
    };

export interface TargetSpec {
  name: string;
  scripts?: BlockSpec[][];
  variables?: Record<string, unknown[]>;
  lists?: Record<string, unknown[]>;
  broadcasts?: Record<string, string>;
  costumes?: string[];
  blocks?: Record<string, unknown>;
  comments?: Record<string, unknown>;
}

let counter = 0;
const nextId = () => `b${++counter}`;

/** The blocks of one target, from its scripts. */
export function buildBlocks(scripts: BlockSpec[][]): Record<string, unknown> {
  const blocks: Record<string, unknown> = {};
  for (const [index, script] of scripts.entries()) addStack(blocks, script, null, index);
  return blocks;
}

function addStack(
  blocks: Record<string, unknown>,
  specs: BlockSpec[],
  parent: string | null,
  x?: number,
): string {
  const ids = specs.map(() => nextId());
  specs.forEach((spec, i) => {
    const full = typeof spec === 'string' ? { op: spec } : spec;
    const { op, fields = {}, inputs = {}, mutation, shadow = false } = full as Exclude<BlockSpec, string>;
    const stored: Record<string, unknown> = {
      opcode: op,
      next: ids[i + 1] ?? null,
      parent: i === 0 ? parent : ids[i - 1],
      inputs: {},
      fields,
      shadow,
      topLevel: parent === null && i === 0,
    };
    if (stored.topLevel) Object.assign(stored, { x: (x ?? 0) * 300, y: 0 });
    if (mutation) stored.mutation = { tagName: 'mutation', children: [], ...mutation };
    for (const [name, value] of Object.entries(inputs)) {
      const storedInputs = stored.inputs as Record<string, unknown>;
      if (Array.isArray(value) && typeof value[0] === 'number') storedInputs[name] = [1, value];
      else {
        const stack = (Array.isArray(value) ? value : [value]) as BlockSpec[];
        const isShadow = typeof stack[0] === 'object' && stack[0].shadow === true;
        storedInputs[name] = [isShadow ? 1 : 2, addStack(blocks, stack, ids[i]!)];
      }
    }
    blocks[ids[i]!] = stored;
  });
  return ids[0]!;
}

/** A project body: the stage first, then the sprites. */
export function buildProject(
  stage: Omit<TargetSpec, 'name'> & { name?: string },
  sprites: TargetSpec[] = [],
) {
  const target = (spec: TargetSpec, isStage: boolean) => ({
    isStage,
    name: spec.name,
    variables: spec.variables ?? {},
    lists: spec.lists ?? {},
    broadcasts: spec.broadcasts ?? {},
    blocks: { ...buildBlocks(spec.scripts ?? []), ...spec.blocks },
    comments: spec.comments ?? {},
    currentCostume: 0,
    costumes: (spec.costumes ?? [isStage ? 'backdrop1' : 'costume1']).map((name) => ({
      name,
      assetId: 'cd21514d0531fdffb22204e0ec5ed84a',
      md5ext: 'cd21514d0531fdffb22204e0ec5ed84a.svg',
      dataFormat: 'svg',
      rotationCenterX: 240,
      rotationCenterY: 180,
    })),
    sounds: [],
    volume: 100,
    layerOrder: 0,
    ...(isStage
      ? { tempo: 60, videoTransparency: 50, videoState: 'on', textToSpeechLanguage: null }
      : {
          visible: true,
          x: 0,
          y: 0,
          size: 100,
          direction: 90,
          draggable: false,
          rotationStyle: 'all around',
        }),
  });
  return {
    targets: [
      target({ name: 'Stage', ...stage }, true),
      ...sprites.map((sprite, index) => ({ ...target(sprite, false), layerOrder: index + 1 })),
    ],
    monitors: [],
    extensions: [],
    meta: { semver: '3.0.0', vm: '0.2.0', agent: 'scratchlab tests' },
  };
}

/** A project with one sprite holding these scripts. */
export function projectOf(...scripts: BlockSpec[][]) {
  return buildProject({}, [{ name: 'Cat', scripts }]);
}
