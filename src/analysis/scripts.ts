/**
 * Scripts as trees: each top-level block with its stack (`next` links) and, under each block,
 * what its inputs hold (reporters, and the stacks in C-blocks' mouths). The walk is iterative and
 * bounded: a block reached twice, a link to a missing block or nesting past the limit is an
 * AnalysisError, never a hang or a stack overflow.
 */
import { AnalysisError } from './analysis-error.js';
import type { Block, Primitive } from './blocks.js';
import { isHat, isStackInput } from './opcodes.js';

/** A block in a script, with what its inputs hold. */
export interface ScriptNode {
  block: Block;
  inputs: readonly ScriptInput[];
}

/** What one input of a block in a script holds. */
export interface ScriptInput {
  name: string;
  /** The stack in a C-block's mouth, or the one reporter (or shadow) in a slot. */
  value: readonly ScriptNode[];
  /** The shadow hidden under a reporter dropped in. */
  obscured: readonly ScriptNode[];
  /** A primitive stored as an array (`[4, "10"]`, `[12, name, id]`). */
  primitive: Primitive | null;
}

/** One script: a top-level block and everything under it. */
export interface Script {
  target: string;
  top: Block;
  /** The top block and the blocks `next` links chain under it. */
  stack: readonly ScriptNode[];
  /** True when its top block is a hat, so that it can run. */
  hat: boolean;
  /** Its blocks, shadows left out (as the Scratch Team's statistics count them). */
  blockCount: number;
  /** How many C-blocks deep its deepest block sits (0: none inside a C-block). */
  nesting: number;
  /** Every block of the script in walk order (the top first), shadows included. */
  blocks: readonly Block[];
}

interface Task {
  start: string;
  /** The block whose input links to `start` (null for the top block): named when `start` is missing. */
  from: string | null;
  /** Where the stack's nodes go; null when only counting. */
  out: ScriptNode[] | null;
  depth: number;
  nesting: number;
}

interface Walked {
  stack: ScriptNode[];
  blocks: Block[];
  blockCount: number;
  nesting: number;
}

/**
 * Walks one script from its top block. `seen` is shared by every script of a target, so that a
 * block reached from two places is found, and each block is walked once. The tree (`stack`) is
 * built only when first read: most analyses need the counts, not the nodes.
 */
export function walkScript(
  target: string,
  top: Block,
  blocks: ReadonlyMap<string, Block>,
  seen: Set<string>,
  maxDepth: number,
): Script {
  const walked = walk(target, top, blocks, seen, maxDepth, false);
  let tree: ScriptNode[] | undefined;
  return {
    target,
    top,
    get stack() {
      // The links were checked by the first walk; this one meets the same blocks.
      tree ??= walk(target, top, blocks, new Set(), maxDepth, true).stack;
      return tree;
    },
    hat: isHat(top.opcode),
    blockCount: walked.blockCount,
    nesting: walked.nesting,
    blocks: walked.blocks,
  };
}

function walk(
  target: string,
  top: Block,
  blocks: ReadonlyMap<string, Block>,
  seen: Set<string>,
  maxDepth: number,
  build: boolean,
): Walked {
  const result: Walked = { stack: [], blocks: [], blockCount: 0, nesting: 0 };
  const tasks: Task[] = [
    { start: top.id, from: null, out: build ? result.stack : null, depth: 0, nesting: 0 },
  ];
  for (let task = tasks.pop(); task; task = tasks.pop()) {
    if (task.depth > maxDepth) {
      throw new AnalysisError(
        'too-deep',
        `target ${JSON.stringify(target)}: the script of block ${JSON.stringify(top.id)} nests deeper than ${maxDepth} inputs`,
        target,
        task.start,
      );
    }
    let from = task.from;
    for (let id: string | null = task.start, block = blocks.get(id); id !== null; ) {
      if (!block) {
        throw new AnalysisError(
          'missing-block',
          `target ${JSON.stringify(target)}: block ${JSON.stringify(from)} links to block ${JSON.stringify(id)}, which does not exist`,
          target,
          id,
        );
      }
      if (seen.has(id)) {
        throw new AnalysisError(
          'cycle',
          `target ${JSON.stringify(target)}: block ${JSON.stringify(id)} is reached twice (a cycle of links or a block with two parents)`,
          target,
          id,
        );
      }
      seen.add(id);
      result.blocks.push(block);
      if (!block.shadow) result.blockCount++;
      if (task.nesting > result.nesting) result.nesting = task.nesting;
      // Counting allocates nothing per block but the tasks of its inputs' blocks.
      const inputs: ScriptInput[] | null = build ? [] : null;
      for (const input of block.inputs) {
        const value: ScriptNode[] | null = build ? [] : null;
        const obscured: ScriptNode[] | null = build ? [] : null;
        const inner = task.nesting + (isStackInput(input.name) ? 1 : 0);
        if (input.value && 'block' in input.value)
          tasks.push({
            start: input.value.block,
            from: id,
            out: value,
            depth: task.depth + 1,
            nesting: inner,
          });
        if (input.obscured && 'block' in input.obscured)
          tasks.push({
            start: input.obscured.block,
            from: id,
            out: obscured,
            depth: task.depth + 1,
            nesting: inner,
          });
        if (inputs && value && obscured) {
          const primitive = input.value && 'primitive' in input.value ? input.value.primitive : null;
          inputs.push({ name: input.name, value, obscured, primitive });
        }
      }
      if (inputs) task.out?.push({ block, inputs });
      from = id;
      id = block.next;
      block = id === null ? undefined : blocks.get(id);
    }
  }
  return result;
}
