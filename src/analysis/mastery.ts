/**
 * Dr. Scratch's computational-thinking score: seven dimensions, each 0-3, from which blocks a
 * project uses. The rules are those of Dr. Scratch's Scratch 3 analyzer (`AngelaVargas/drscratchv3`,
 * `app/analyzer.py`, class `Mastery`; the rubric of Moreno-León, Robles and Román-González, 2015),
 * written anew here. Like it, we look at every block stored as an object (shadows included, the
 * primitives stored as arrays not), in every target, under a hat or not.
 */
import { isRecord } from './blocks.js';

/** A score of Dr. Scratch's seven dimensions (0-3 each), its total and its level. */
export interface MasteryScore {
  abstraction: number;
  parallelism: number;
  logic: number;
  synchronization: number;
  flowControl: number;
  userInteractivity: number;
  dataRepresentation: number;
  /** The sum, 0-21. */
  total: number;
  /** The average over seven: above 2 `proficiency`, above 1 `developing`, else `basic`. */
  level: 'basic' | 'developing' | 'proficiency';
}

/** The names of the seven dimensions, in the order the rubric lists them. */
export const CT_DIMENSIONS = [
  'abstraction',
  'parallelism',
  'logic',
  'synchronization',
  'flowControl',
  'userInteractivity',
  'dataRepresentation',
] as const;

interface Facts {
  count: (opcode: string) => number;
  any: (opcodes: readonly string[]) => boolean;
  /** Some block has a `next`. */
  chained: boolean;
  /** Blocks whose `parent` is stored as null. */
  roots: number;
  /** Field name → the values met, the analyzer's way (see {@link fieldValues}). */
  fields: Map<string, unknown[]>;
  /** Some `TO` or `TOUCHINGOBJECTMENU` field chooses the mouse pointer. */
  mouse: boolean;
}

/** Scores a project body (already checked to have a targets array). */
export function scoreMastery(json: { targets: readonly unknown[] }): MasteryScore {
  const facts = gather(json.targets);
  const scores = {
    abstraction: abstraction(facts),
    parallelism: parallelism(facts),
    logic: logic(facts),
    synchronization: synchronization(facts),
    flowControl: flowControl(facts),
    userInteractivity: userInteractivity(facts),
    dataRepresentation: dataRepresentation(facts),
  };
  const total = CT_DIMENSIONS.reduce((sum, name) => sum + scores[name], 0);
  const average = total / 7;
  return { ...scores, total, level: average > 2 ? 'proficiency' : average > 1 ? 'developing' : 'basic' };
}

function gather(targets: readonly unknown[]): Facts {
  const counts = new Map<string, number>();
  const fields = new Map<string, unknown[]>();
  let chained = false;
  let roots = 0;
  let mouse = false;
  for (const target of targets) {
    if (!isRecord(target) || !isRecord(target.blocks)) continue;
    // for…in, not Object.values and Object.entries: no arrays made for each target and block.
    const stored = target.blocks;
    for (const id in stored) {
      const block = stored[id];
      if (!isRecord(block)) continue;
      if ('opcode' in block) {
        const opcode = String(block.opcode);
        counts.set(opcode, (counts.get(opcode) ?? 0) + 1);
      }
      if ('next' in block && block.next !== null) chained = true;
      if ('parent' in block && block.parent === null) roots++;
      const blockFields = block.fields;
      if (!isRecord(blockFields)) continue;
      for (const name in blockFields) {
        const value = blockFields[name];
        if (!Array.isArray(value)) continue;
        fieldValues(fields, name, value);
        if ((name === 'TO' || name === 'TOUCHINGOBJECTMENU') && value[0] === '_mouse_') mouse = true;
      }
    }
  }
  const count = (opcode: string) => counts.get(opcode) ?? 0;
  return {
    count,
    any: (opcodes) => opcodes.some((opcode) => count(opcode) > 0),
    chained,
    roots,
    fields,
    mouse,
  };
}

/**
 * The analyzer keeps, per field name, the whole first field it meets (value and id) and then the
 * value of each later one; a message counts as "the same" when it occurs twice in that list.
 */
function fieldValues(fields: Map<string, unknown[]>, name: string, value: readonly unknown[]): void {
  const list = fields.get(name);
  if (list) list.push(value[0]);
  else fields.set(name, [...value]);
}

/** True when some value occurs more than once among the values met for a field. */
function repeats(facts: Facts, field: string): boolean {
  const seen = new Map<unknown, number>();
  for (const value of facts.fields.get(field) ?? []) {
    const times = (seen.get(value) ?? 0) + 1;
    if (times > 1) return true;
    seen.set(value, times);
  }
  return false;
}

function logic(facts: Facts): number {
  if (facts.any(['operator_and', 'operator_or', 'operator_not'])) return 3;
  if (facts.count('control_if_else')) return 2;
  return facts.count('control_if') ? 1 : 0;
}

function flowControl(facts: Facts): number {
  if (facts.count('control_repeat_until')) return 3;
  if (facts.any(['control_repeat', 'control_forever'])) return 2;
  return facts.chained ? 1 : 0;
}

function synchronization(facts: Facts): number {
  if (facts.any(['control_wait_until', 'event_whenbackdropswitchesto', 'event_broadcastandwait'])) return 3;
  if (facts.any(['event_broadcast', 'event_whenbroadcastreceived', 'control_stop'])) return 2;
  return facts.count('control_wait') ? 1 : 0;
}

function abstraction(facts: Facts): number {
  if (facts.count('control_start_as_clone')) return 3;
  if (facts.count('procedures_definition')) return 2;
  return facts.roots > 1 ? 1 : 0;
}

const MODIFIERS = [
  'motion_movesteps',
  'motion_gotoxy',
  'motion_glidesecstoxy',
  'motion_setx',
  'motion_sety',
  'motion_changexby',
  'motion_changeyby',
  'motion_pointindirection',
  'motion_pointtowards',
  'motion_turnright',
  'motion_turnleft',
  'motion_goto',
  'looks_changesizeby',
  'looks_setsizeto',
  'looks_switchcostumeto',
  'looks_nextcostume',
  'looks_changeeffectby',
  'looks_seteffectto',
  'looks_show',
  'looks_hide',
  'looks_switchbackdropto',
  'looks_nextbackdrop',
];
const LIST_BLOCKS = [
  'data_lengthoflist',
  'data_showlist',
  'data_insertatlist',
  'data_deleteoflist',
  'data_addtolist',
  'data_replaceitemoflist',
  'data_listcontainsitem',
  'data_hidelist',
  'data_itemoflist',
];

function dataRepresentation(facts: Facts): number {
  if (facts.any(LIST_BLOCKS)) return 3;
  if (facts.any(['data_changevariableby', 'data_setvariableto'])) return 2;
  return facts.any(MODIFIERS) ? 1 : 0;
}

function userInteractivity(facts: Facts): number {
  const proficient = [
    'videoSensing_videoToggle',
    'videoSensing_videoOn',
    'videoSensing_whenMotionGreaterThan',
    'videoSensing_setVideoTransparency',
    'sensing_loudness',
  ];
  if (facts.any(proficient)) return 3;
  const developing = [
    'event_whenkeypressed',
    'event_whenthisspriteclicked',
    'sensing_mousedown',
    'sensing_keypressed',
    'sensing_askandwait',
    'sensing_answer',
  ];
  if (facts.any(developing)) return 2;
  // "go to mouse-pointer" or "touching mouse-pointer?": the analyzer asks for either menu block,
  // then for a mouse choice in any TO or TOUCHINGOBJECTMENU field.
  if (facts.any(['motion_goto_menu', 'sensing_touchingobjectmenu']) && facts.mouse) return 2;
  return facts.count('event_whenflagclicked') ? 1 : 0;
}

function parallelism(facts: Facts): number {
  // Two scripts start on the same message, backdrop, loudness or timer event, or on video motion.
  if (facts.count('event_whenbroadcastreceived') > 1 && repeats(facts, 'BROADCAST_OPTION')) return 3;
  if (facts.count('event_whenbackdropswitchesto') > 1 && repeats(facts, 'BACKDROP')) return 3;
  if (facts.count('event_whengreaterthan') > 1 && repeats(facts, 'WHENGREATERTHANMENU')) return 3;
  if (facts.count('videoSensing_whenMotionGreaterThan') > 1) return 3;
  // Two scripts on the same key, or two on a sprite's click.
  if (facts.count('event_whenkeypressed') > 1 && repeats(facts, 'KEY_OPTION')) return 2;
  if (facts.count('event_whenthisspriteclicked') > 1) return 2;
  return facts.count('event_whenflagclicked') > 1 ? 1 : 0;
}
