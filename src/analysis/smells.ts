/**
 * Code smells: patterns that make a project harder to read or hide a mistake. Each follows a
 * published definition, cited beside it: LitterBox's bug patterns and smells (Fraser, Heuer,
 * Körber, Obermüller, Stahlbauer et al., "LitterBox: A Linter for Scratch Programs", ICSE-SEET
 * 2021; its catalogue names in quotes) and Dr. Scratch's bad-smell plugins (`drscratchv3`,
 * `app/deadCode.py`, `duplicateScripts.py`, `spriteNaming.py`, `backdropNaming.py`).
 */
import type { Block } from './blocks.js';
import type { Procedures } from './procedures.js';
import type { ProjectModel } from './project-model.js';
import type { References } from './references.js';
import type { Script } from './scripts.js';

/** Where a smell is: a target and, for code, a script's top block or a declaration's id. */
export interface SmellSite {
  target: string;
  /** A block id, a variable's or list's id, a proccode, or a costume's or sprite's name. */
  id: string;
  /** What a reader sees: an opcode, a name, a message. */
  name: string;
  /** Blocks involved (dead code, duplicated scripts), else 1. */
  blocks: number;
}

/** The smells of a project, each a list of sites. */
export interface ProjectSmells {
  /** Scripts under no hat, and blocks no script reaches: they never run (LitterBox "Dead Code"; Dr. Scratch dead code). */
  deadCode: readonly SmellSite[];
  /** Variables no block uses (LitterBox "Unused Variable"). */
  unusedVariables: readonly SmellSite[];
  /** Lists no block uses (LitterBox "Unused Variable", for lists). */
  unusedLists: readonly SmellSite[];
  /** Custom blocks never called (LitterBox "Unused Custom Block"). */
  unusedProcedures: readonly SmellSite[];
  /** Scripts of more than 5 blocks that repeat another's blocks (Dr. Scratch duplicated scripts; LitterBox "Duplicated Script"); one site per repeat. */
  duplicatedScripts: readonly SmellSite[];
  /** Sprites left with a default name, `Sprite1` (Dr. Scratch sprite naming). */
  defaultSpriteNames: readonly SmellSite[];
  /** Backdrops left with a default name, `backdrop1` (Dr. Scratch backdrop naming). */
  defaultBackdropNames: readonly SmellSite[];
  /** Messages some hat receives but no block sends (LitterBox "Message Never Sent"). */
  messagesNeverSent: readonly SmellSite[];
  /** Messages some block sends but no hat receives (LitterBox "Message Never Received"). */
  messagesNeverReceived: readonly SmellSite[];
}

/** The names the editor gives new sprites, in the languages Dr. Scratch checks, then a number. */
const DEFAULT_SPRITE = /^(Sprite|Objeto|Personatge|Figura|o actor|Personaia)\d*$/;
/** The names the editor gives new backdrops. */
const DEFAULT_BACKDROP = /^(backdrop|fondo|fons|atzeko oihala)\d*$/;
/** Dr. Scratch counts a repeat only of scripts longer than this. */
const DUPLICATE_MIN_BLOCKS = 5;

/** Finds the smells of a project. */
export function findSmells(
  model: ProjectModel,
  procedures: Procedures,
  references: References,
): ProjectSmells {
  const deadCode: SmellSite[] = [];
  const site = (target: string, script: Script): SmellSite => ({
    target,
    id: script.top.id,
    name: script.top.opcode,
    blocks: script.blockCount,
  });
  // Scripts that could repeat another: as many blocks, the same top block. Only these are
  // written out as text to compare (most scripts have no such twin).
  const candidates = new Map<string, Script[]>();
  const blocksOf = new Map<Script, ReadonlyMap<string, Block>>();
  for (const target of model.targets) {
    for (const script of target.scripts) {
      if (!script.hat && script.blockCount > 0) deadCode.push(site(target.name, script));
      if (script.blockCount > DUPLICATE_MIN_BLOCKS) {
        const key = `${script.blocks.length} ${script.top.opcode}`;
        const group = candidates.get(key) ?? [];
        candidates.set(key, group);
        group.push(script);
        blocksOf.set(script, target.blocks);
      }
    }
    for (const orphan of target.orphans) {
      deadCode.push({ target: target.name, id: orphan.id, name: orphan.opcode, blocks: 1 });
    }
  }
  const duplicated = new Set<Script>();
  for (const group of candidates.values()) {
    const shapes = new Set<string>();
    for (const script of group.length > 1 ? group : []) {
      const shape = shapeOf(script, blocksOf.get(script)!);
      if (shapes.has(shape)) duplicated.add(script);
      else shapes.add(shape);
    }
  }
  // In the project's order of scripts.
  const duplicatedScripts = model.targets.flatMap((target) =>
    target.scripts.filter((script) => duplicated.has(script)).map((script) => site(target.name, script)),
  );
  const unused = (usages: References['variables']) =>
    usages
      .filter((usage) => usage.sets === 0 && usage.reads === 0)
      .map((usage) => ({ target: usage.target, id: usage.id, name: usage.name, blocks: 1 }));
  const messages = (keep: (usage: References['broadcasts'][number]) => boolean) =>
    references.broadcasts.filter(keep).map((usage) => ({
      target: model.stage?.name ?? 'Stage',
      id: usage.name,
      name: usage.name,
      blocks: 1,
    }));
  return {
    deadCode,
    unusedVariables: unused(references.variables),
    unusedLists: unused(references.lists),
    unusedProcedures: procedures.defined
      .filter((procedure) => procedure.calls === 0)
      .map((procedure) => ({
        target: procedure.target,
        id: procedure.definition,
        name: procedure.proccode,
        blocks: 1,
      })),
    duplicatedScripts,
    defaultSpriteNames: model.sprites
      .filter((sprite) => DEFAULT_SPRITE.test(sprite.name))
      .map((sprite) => ({ target: sprite.name, id: sprite.name, name: sprite.name, blocks: 1 })),
    defaultBackdropNames: (model.stage?.costumes ?? [])
      .filter((costume) => DEFAULT_BACKDROP.test(costume.name))
      .map((costume) => ({ target: model.stage!.name, id: costume.name, name: costume.name, blocks: 1 })),
    messagesNeverSent: messages((usage) => usage.received > 0 && usage.sent === 0),
    messagesNeverReceived: messages((usage) => usage.sent > 0 && usage.received === 0),
  };
}

/**
 * A script's blocks as text: opcodes in walk order with their fields, nesting marked, ids left out.
 * Read from the blocks themselves, not from `script.stack`, so that no tree is built and kept; the
 * first walk checked the links (no cycle, no missing block, the depth bounded), and this one meets
 * the same blocks, each once, with an explicit stack.
 */
function shapeOf(script: Script, blocks: ReadonlyMap<string, Block>): string {
  const parts: string[] = [];
  // A block stands for itself and the blocks `next` links chain under it; a string is written as is.
  const pending: (Block | string)[] = [script.top];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (typeof item === 'string') {
      parts.push(item);
      continue;
    }
    let head = `${item.opcode}(`;
    let first = true;
    for (const name in item.fields) {
      head += `${first ? '' : ','}${name}=${String(item.fields[name]!.value)}`;
      first = false;
    }
    parts.push(head);
    if (item.next !== null) pending.push(blocks.get(item.next)!);
    pending.push(')');
    for (let i = item.inputs.length - 1; i >= 0; i--) {
      const { name, value } = item.inputs[i]!;
      pending.push(']');
      if (value && 'block' in value) pending.push(blocks.get(value.block)!);
      pending.push(`${name}[${value && 'primitive' in value ? JSON.stringify(value.primitive.value) : ''}`);
    }
  }
  return parts.join(' ');
}
