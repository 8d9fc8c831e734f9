/**
 * Where a project's variables, lists and broadcasts are used: which blocks set, read and receive
 * them. A variable is found by its field (`VARIABLE: [name, id]`) or a stored reporter
 * (`[12, name, id]`); a broadcast by its menu (`BROADCAST_OPTION`) or a stored `[11, name, id]`.
 */
import type { BlockField, Primitive } from './blocks.js';
import type { ProjectModel, TargetView } from './project-model.js';

/** The blocks that change a variable; every other block naming it reads it. */
const VARIABLE_SETTERS = new Set(['data_setvariableto', 'data_changevariableby']);
/** The blocks that change a list. */
const LIST_SETTERS = new Set([
  'data_addtolist',
  'data_deleteoflist',
  'data_deletealloflist',
  'data_insertatlist',
  'data_replaceitemoflist',
]);
const SENDERS = new Set(['event_broadcast', 'event_broadcastandwait']);

/** How a variable or list is used. */
export interface Usage {
  /** The target that declares it. */
  target: string;
  id: string;
  name: string;
  /** Blocks that change it. */
  sets: number;
  /** Blocks that read it (reporters, show and hide, list reporters). */
  reads: number;
}

/** How a broadcast is used, by name (the editor matches names without case). */
export interface BroadcastUsage {
  name: string;
  /** `broadcast` and `broadcast and wait` blocks whose menu names it. */
  sent: number;
  /** `when I receive` hats for it. */
  received: number;
}

/** The uses of a project's variables, lists and broadcasts. */
export interface References {
  variables: readonly Usage[];
  lists: readonly Usage[];
  broadcasts: readonly BroadcastUsage[];
}

interface Tally {
  sets: number;
  reads: number;
}

/** Finds every use, in every block of every target (blocks under no hat included). */
export function findReferences(model: ProjectModel): References {
  const variables = new Map<string, Tally>();
  const lists = new Map<string, Tally>();
  const broadcasts = new Map<string, BroadcastUsage>();
  const broadcast = (name: string) => {
    const key = name.toLowerCase();
    const usage = broadcasts.get(key) ?? { name, sent: 0, received: 0 };
    broadcasts.set(key, usage);
    return usage;
  };
  for (const target of model.targets) for (const { name } of target.broadcasts) broadcast(name);
  for (const target of model.targets) {
    for (const block of target.blocks.values()) {
      tallyField(variables, block.fields.VARIABLE, VARIABLE_SETTERS.has(block.opcode));
      tallyField(lists, block.fields.LIST, LIST_SETTERS.has(block.opcode));
      if (block.opcode === 'event_whenbroadcastreceived') {
        const name = block.fields.BROADCAST_OPTION?.value;
        if (typeof name === 'string') broadcast(name).received++;
      }
      for (const input of block.inputs) {
        const primitive = input.value && 'primitive' in input.value ? input.value.primitive : undefined;
        if (primitive) tallyPrimitive(variables, lists, primitive);
        if (SENDERS.has(block.opcode) && input.name === 'BROADCAST_INPUT') {
          const name = sentName(primitive, input.value, target);
          if (name !== undefined) broadcast(name).sent++;
        }
      }
    }
  }
  return {
    variables: usages(model, 'variables', variables),
    lists: usages(model, 'lists', lists),
    broadcasts: [...broadcasts.values()],
  };
}

/** The message a broadcast block sends when its menu holds it; undefined for a reporter dropped in. */
function sentName(
  primitive: Primitive | undefined,
  value: { block: string } | { primitive: Primitive } | null,
  target: TargetView,
): string | undefined {
  if (primitive?.type === 11) return primitive.value;
  if (value && 'block' in value) {
    const menu = target.blocks.get(value.block);
    const name = menu?.opcode === 'event_broadcast_menu' ? menu.fields.BROADCAST_OPTION?.value : undefined;
    return typeof name === 'string' ? name : undefined;
  }
  return undefined;
}

function tallyField(tallies: Map<string, Tally>, field: BlockField | undefined, sets: boolean): void {
  if (!field) return;
  // By id, and by name too: blocks copied between sprites may carry another id for the same name.
  const keys =
    field.id === null ? [`name:${String(field.value)}`] : [field.id, `name:${String(field.value)}`];
  for (const key of keys) {
    const tally = tallies.get(key) ?? { sets: 0, reads: 0 };
    tallies.set(key, tally);
    if (sets) tally.sets++;
    else tally.reads++;
  }
}

function tallyPrimitive(
  variables: Map<string, Tally>,
  lists: Map<string, Tally>,
  primitive: Primitive,
): void {
  if (primitive.type !== 12 && primitive.type !== 13) return;
  tallyField(
    primitive.type === 12 ? variables : lists,
    { value: primitive.value, id: primitive.id ?? null },
    false,
  );
}

function usages(model: ProjectModel, kind: 'variables' | 'lists', tallies: Map<string, Tally>): Usage[] {
  const found: Usage[] = [];
  for (const target of model.targets) {
    for (const declared of target[kind]) {
      // By id; failing that, by name (a sprite's block may name a variable by another id).
      const tally = tallies.get(declared.id) ?? tallies.get(`name:${declared.name}`) ?? { sets: 0, reads: 0 };
      found.push({
        target: target.name,
        id: declared.id,
        name: declared.name,
        sets: tally.sets,
        reads: tally.reads,
      });
    }
  }
  return found;
}
