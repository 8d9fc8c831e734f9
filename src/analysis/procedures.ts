/**
 * Custom blocks: each definition (its hat and prototype, with the argument names) and how many
 * times it is called. A call names its definition by `proccode` within its own sprite.
 */
import type { Block } from './blocks.js';
import type { ProjectModel, TargetView } from './project-model.js';

/** A custom block of one sprite. */
export interface Procedure {
  target: string;
  /** Its text with placeholders (`jump %s times`): what calls name it by. */
  proccode: string;
  /** Its definition's hat block id. */
  definition: string;
  argumentNames: readonly string[];
  /** Calls of it in its sprite (under a hat or not). */
  calls: number;
  /** True for "run without screen refresh". */
  warp: boolean;
}

/** Every custom block of the project, and calls of procedures no sprite defines. */
export interface Procedures {
  defined: readonly Procedure[];
  /** Calls whose proccode the sprite does not define (the editor ignores them). */
  undefinedCalls: number;
}

/** Finds every definition and call. */
export function findProcedures(model: ProjectModel): Procedures {
  const defined: Procedure[] = [];
  let undefinedCalls = 0;
  for (const target of model.targets) {
    const mine = new Map<string, Procedure>();
    for (const block of target.blocks.values()) {
      if (block.opcode !== 'procedures_definition') continue;
      const prototype = prototypeOf(block, target);
      const proccode = stringOf(prototype?.mutation?.proccode);
      // The editor runs the first definition of a proccode; later ones are never called.
      if (proccode === undefined || mine.has(proccode)) continue;
      const procedure: Procedure = {
        target: target.name,
        proccode,
        definition: block.id,
        argumentNames: jsonList(prototype?.mutation?.argumentnames),
        calls: 0,
        warp: String(prototype?.mutation?.warp) === 'true',
      };
      mine.set(proccode, procedure);
      defined.push(procedure);
    }
    for (const block of target.blocks.values()) {
      if (block.opcode !== 'procedures_call') continue;
      const called = mine.get(stringOf(block.mutation?.proccode) ?? '');
      if (called) called.calls++;
      else undefinedCalls++;
    }
  }
  return { defined, undefinedCalls };
}

function prototypeOf(definition: Block, target: TargetView): Block | undefined {
  const input = definition.inputs.find((each) => each.name === 'custom_block');
  return input?.value && 'block' in input.value ? target.blocks.get(input.value.block) : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `argumentnames` is a list stored as JSON text. */
function jsonList(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}
