/**
 * The shape of a load's records once the table's columns are settled: each object's own keys in
 * order, and for each key the column its value goes into (or the keys under it, or nothing for a
 * secret). A record of that shape is written straight into the load's row of values, without a
 * flat row per record (the cost of a large load was mostly those objects and their garbage). A
 * record of any other shape (a key more, less or in another order, an object where a value was,
 * or the reverse) is not written: its batch goes through flat rows (`toFlatRecord`) as before, so
 * the shape only ever takes the records the flat rows would write the same way.
 */
import { isSecretKey } from '../redact.js';
import { MAX_FLAT_DEPTH, recordLeaf } from '../rows/flat-rows.js';

/** A key whose value is left out (a secret). */
const SECRET = -1;
/** A key whose value is an object (its keys are in `nodes`). */
const NESTED = -2;
/** A key with no column yet: its value must be null (a value would need a new column). */
const NO_COLUMN = -3;

/** The keys of one object of the shape. */
interface ShapeNode {
  readonly keys: readonly string[];
  /** Per key: its column, {@link SECRET}, {@link NESTED} or {@link NO_COLUMN}. */
  readonly slots: Int32Array;
  /** Per key: the keys of its object (a {@link NESTED} key), else null. */
  readonly nodes: readonly (ShapeNode | null)[];
}

/** The shape of a record (see the file's comment). */
export class RecordShape {
  readonly #root: ShapeNode;

  private constructor(root: ShapeNode) {
    this.#root = root;
  }

  /**
   * The shape of `record`, its flat names mapped to columns by `columnOf`; null when a record of
   * it could not be written directly: not an object, a value (not null) with no column, or two keys
   * into one column (a clash of case, which the flat rows report).
   */
  static of(record: unknown, columnOf: (name: string) => number): RecordShape | null {
    if (!isObject(record)) return null;
    const used = new Set<number>();
    const root = nodeOf(record, '', 1, columnOf, used);
    return root === null ? null : new RecordShape(root);
  }

  /**
   * Writes the values of `record` (row `r` of a batch) into `values` by column, stamping each
   * column given a value with `r`; false when the record is not of this shape (some values may
   * have been written: the caller drops the row).
   */
  write(record: unknown, values: unknown[], stamps: Int32Array, r: number): boolean {
    return isObject(record) && writeNode(record, this.#root, values, stamps, r);
  }
}

/** A value whose keys become flat names (not a list, a date or null). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function nodeOf(
  object: Record<string, unknown>,
  prefix: string,
  depth: number,
  columnOf: (name: string) => number,
  used: Set<number>,
): ShapeNode | null {
  const keys: string[] = [];
  const slots: number[] = [];
  const nodes: (ShapeNode | null)[] = [];
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    keys.push(key);
    const name = prefix === '' ? key : `${prefix}.${key}`;
    const value = object[key];
    if (isSecretKey(key)) {
      slots.push(SECRET);
      nodes.push(null);
    } else if (isObject(value) && depth < MAX_FLAT_DEPTH) {
      const node = nodeOf(value, name, depth + 1, columnOf, used);
      if (node === null) return null;
      slots.push(NESTED);
      nodes.push(node);
    } else {
      // An object this deep is JSON text in a flat row: such records take the flat rows' way.
      if (isObject(value)) return null;
      const column = columnOf(name);
      if (column < 0) {
        // A key that was only ever null has no column until a value tells its type.
        if (value !== null && value !== undefined) return null;
        slots.push(NO_COLUMN);
      } else {
        if (used.has(column)) return null;
        used.add(column);
        slots.push(column);
      }
      nodes.push(null);
    }
  }
  return { keys, slots: Int32Array.from(slots), nodes };
}

function writeNode(
  object: Record<string, unknown>,
  node: ShapeNode,
  values: unknown[],
  stamps: Int32Array,
  r: number,
): boolean {
  const { keys, slots, nodes } = node;
  let at = 0;
  // No own-key check (a tenth of the walk): an inherited key, never in a shape, is a key more.
  for (const key in object) {
    if (at >= keys.length || keys[at] !== key) return false;
    const slot = slots[at]!;
    const value = object[key];
    if (slot >= 0) {
      const leaf = recordLeaf(value);
      if (leaf === undefined) return false;
      values[slot] = leaf;
      stamps[slot] = r;
    } else if (slot === NESTED) {
      if (!isObject(value) || !writeNode(value, nodes[at]!, values, stamps, r)) return false;
    } else if (slot === NO_COLUMN && value !== null && value !== undefined) {
      return false;
    }
    at++;
  }
  return at === keys.length;
}
