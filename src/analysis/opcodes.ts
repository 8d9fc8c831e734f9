/** What an opcode says about its block: its category, whether it starts a script, primitives' opcodes. */

/**
 * A block's category: the opcode's prefix before the first `_` (`motion`, `looks`, `control`,
 * `data`, `procedures`, `argument`, an extension's id…), as the editor's palette groups them.
 */
export function categoryOf(opcode: string): string {
  const cut = opcode.indexOf('_');
  return cut > 0 ? opcode.slice(0, cut) : opcode;
}

/**
 * The opcodes of primitives stored as arrays (`[type, value]`, `[12, name, id]`), by type: how
 * scratch-vm's sb3 serializer compresses shadows and variable reporters (`serialization/sb3.js`).
 */
export const PRIMITIVE_OPCODES: Readonly<Record<number, string>> = Object.freeze({
  4: 'math_number',
  5: 'math_positive_number',
  6: 'math_whole_number',
  7: 'math_integer',
  8: 'math_angle',
  9: 'colour_picker',
  10: 'text',
  11: 'event_broadcast_menu',
  12: 'data_variable',
  13: 'data_listcontents',
});

/** Hats of the core palette that do not follow the extensions' `*_when…` naming. */
const CORE_HATS = new Set(['control_start_as_clone', 'procedures_definition']);

/**
 * True for a hat: a block a script starts from, so that the blocks under it can run (the core
 * `event_when…` hats, clones' and custom blocks' hats, and extensions' `…_when…` hats).
 */
export function isHat(opcode: string): boolean {
  if (CORE_HATS.has(opcode)) return true;
  const cut = opcode.indexOf('_');
  return cut > 0 && opcode.startsWith('when', cut + 1);
}

/** The inputs that hold a C-block's mouth (a stack), not a reporter. */
export function isStackInput(name: string): boolean {
  return name === 'SUBSTACK' || name === 'SUBSTACK2';
}
