/**
 * Typed, read-only views of a target's blocks as project JSON stores them: objects keyed by id,
 * and primitives stored as arrays, in inputs (`[4, "10"]`, `[12, name, id]`) and at the top level
 * (`[12, name, id, x, y]`, a variable reporter lying loose in the editor).
 */
import { AnalysisError } from './analysis-error.js';
import { categoryOf, PRIMITIVE_OPCODES } from './opcodes.js';

/** A primitive stored as an array: a literal, a broadcast menu, or a variable or list reporter. */
export interface Primitive {
  /** Its type in the array's first place (4-13). */
  type: number;
  /** The opcode the editor gives it (`math_number`, `text`, `data_variable`…). */
  opcode: string;
  /** The number or text; a variable's, list's or broadcast's name. */
  value: string;
  /** A variable's, list's or broadcast's id. */
  id?: string;
}

/** What an input holds: a block (by id), a primitive, or nothing (an empty mouth or slot). */
export type InputValue = { block: string } | { primitive: Primitive } | null;

/** One input of a block. */
export interface BlockInput {
  name: string;
  /** What the input holds: the block dropped in, or its shadow when none is. */
  value: InputValue;
  /** The shadow hidden under a block dropped in (shadow type 3), else null. */
  obscured: InputValue;
}

/** A field: the menu choice or name a block carries (`VARIABLE: ["score", "id"]`). */
export interface BlockField {
  /** A string, number or boolean as stored; null for anything else. */
  value: string | number | boolean | null;
  id: string | null;
}

/** One block of a target. */
export interface Block {
  id: string;
  opcode: string;
  /** The opcode's prefix (`motion`, `control`, `pen`…). */
  category: string;
  shadow: boolean;
  topLevel: boolean;
  parent: string | null;
  next: string | null;
  inputs: readonly BlockInput[];
  fields: Readonly<Record<string, BlockField>>;
  /** Custom blocks' definitions and calls, some control blocks: as stored (strings). */
  mutation: Readonly<Record<string, unknown>> | null;
  /** Set for a primitive stored as an array at the top level. */
  primitive: Primitive | null;
}

/**
 * A primitive's or field's value as text: a string, or a number or boolean written out. Anything
 * else (an array nested 100,000 deep in a hostile body) is empty: `String()` of it would recurse.
 */
function scalarText(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** Reads one stored primitive; undefined when the array is not one. */
export function readPrimitive(value: readonly unknown[]): Primitive | undefined {
  // By index, not destructuring: no iterator for each of a project's many primitives.
  const type = value[0];
  const text = value[1];
  const id = value[2];
  if (typeof type !== 'number') return undefined;
  const opcode = PRIMITIVE_OPCODES[type];
  if (opcode === undefined) return undefined;
  const primitive: Primitive = {
    type,
    opcode,
    value: scalarText(text),
  };
  if (typeof id === 'string') primitive.id = id;
  return primitive;
}

/** Reads every block of one target (`blocks`, keyed by id). AnalysisError for a malformed entry. */
export function readBlocks(stored: unknown, target: string): Map<string, Block> {
  const blocks = new Map<string, Block>();
  if (stored === undefined) return blocks;
  if (!isRecord(stored)) throw bad(target, 'its blocks are not an object keyed by id');
  // for…in, not Object.entries: no array of pairs for a target of 100,000 blocks.
  for (const id in stored) {
    const entry = stored[id];
    const block = Array.isArray(entry)
      ? topLevelPrimitive(id, entry, target)
      : storedBlock(id, entry, target);
    blocks.set(id, block);
  }
  return blocks;
}

function topLevelPrimitive(id: string, entry: readonly unknown[], target: string): Block {
  const primitive = readPrimitive(entry);
  if (!primitive) throw bad(target, `block ${JSON.stringify(id)} is an array that is not a primitive`, id);
  const fields: Record<string, BlockField> = {};
  const field = primitive.type === 12 ? 'VARIABLE' : primitive.type === 13 ? 'LIST' : undefined;
  if (field) fields[field] = { value: primitive.value, id: primitive.id ?? null };
  return {
    id,
    opcode: primitive.opcode,
    category: categoryOf(primitive.opcode),
    shadow: false,
    topLevel: true,
    parent: null,
    next: null,
    inputs: NO_INPUTS,
    fields,
    mutation: null,
    primitive,
  };
}

function storedBlock(id: string, entry: unknown, target: string): Block {
  if (!isRecord(entry) || typeof entry.opcode !== 'string') {
    throw bad(target, `block ${JSON.stringify(id)} is not an object with an opcode`, id);
  }
  return {
    id,
    opcode: entry.opcode,
    category: categoryOf(entry.opcode),
    shadow: entry.shadow === true,
    topLevel: entry.topLevel === true,
    parent: link(entry, 'parent', target, id),
    next: link(entry, 'next', target, id),
    inputs: readInputs(entry.inputs, target, id),
    fields: readFields(entry.fields),
    mutation: isRecord(entry.mutation) ? entry.mutation : null,
    primitive: null,
  };
}

/**
 * A block's `next` or `parent`: a block id or null (absent reads as null). Anything else is
 * refused, as scratch-parser's schema refuses it, rather than read as "no link", which would
 * drop the blocks it leads to without a word.
 */
function link(
  entry: Record<string, unknown>,
  key: 'next' | 'parent',
  target: string,
  id: string,
): string | null {
  const value = entry[key];
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return null;
  throw bad(
    target,
    `block ${JSON.stringify(id)} has a ${key} that is not a block id (${JSON.stringify(value)?.slice(0, 40)})`,
    id,
  );
}

/**
 * What a block without inputs or fields holds: one frozen empty list and record shared by all of
 * them (most blocks have no fields, hats no inputs), so that reading costs no allocation for them.
 */
const NO_INPUTS: readonly BlockInput[] = Object.freeze([]);
const NO_FIELDS: Readonly<Record<string, BlockField>> = Object.freeze({});

function readInputs(stored: unknown, target: string, block: string): readonly BlockInput[] {
  if (!isRecord(stored)) return NO_INPUTS;
  let inputs: BlockInput[] | undefined;
  for (const name in stored) {
    const input = stored[name];
    if (Array.isArray(input)) {
      // [shadowType, value, obscured shadow?]: type 1 holds its shadow, 2 a block, 3 a block over a shadow.
      inputs ??= [];
      inputs.push({
        name,
        value: inputValue(input[1]),
        obscured: input[0] === 3 ? inputValue(input[2]) : null,
      });
    } else if (isRecord(input)) {
      // Scratch 3.0's first files: { name, block, shadow } (scratch-vm's test/fixtures/demo.json).
      const obscured = input.shadow !== input.block ? inputValue(input.shadow) : null;
      inputs ??= [];
      inputs.push({ name, value: inputValue(input.block), obscured });
    } else throw bad(target, `input ${name} of block ${JSON.stringify(block)} is not an array`, block);
  }
  return inputs ?? NO_INPUTS;
}

function inputValue(value: unknown): InputValue {
  if (typeof value === 'string') return { block: value };
  if (Array.isArray(value)) {
    const primitive = readPrimitive(value);
    return primitive ? { primitive } : null;
  }
  return null;
}

function readFields(stored: unknown): Readonly<Record<string, BlockField>> {
  if (!isRecord(stored)) return NO_FIELDS;
  let fields: Record<string, BlockField> | undefined;
  for (const name in stored) {
    const field = stored[name];
    if (Array.isArray(field)) {
      fields ??= {};
      fields[name] = { value: scalarField(field[0]), id: typeof field[1] === 'string' ? field[1] : null };
    } else if (isRecord(field)) {
      // Scratch 3.0's first files stored fields as objects ({ name, value, id }).
      fields ??= {};
      fields[name] = { value: scalarField(field.value), id: typeof field.id === 'string' ? field.id : null };
    }
  }
  return fields ?? NO_FIELDS;
}

function scalarField(value: unknown): string | number | boolean | null {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : null;
}

/** The blocks an input holds and hides, by id. */
export function inputBlocks(input: BlockInput): string[] {
  const ids: string[] = [];
  if (input.value && 'block' in input.value) ids.push(input.value.block);
  if (input.obscured && 'block' in input.obscured) ids.push(input.obscured.block);
  return ids;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function bad(target: string, what: string, block?: string): AnalysisError {
  return new AnalysisError('bad-project', `target ${JSON.stringify(target)}: ${what}`, target, block);
}
