/**
 * The scripts of the sandbox's generated projects: a library of small scripts such as beginners'
 * and games' projects hold (a greeting, arrow-key movement, a score loop that broadcasts a win,
 * clones, a custom block, a list, a question), a few per sprite, so that a studio's projects
 * differ as real ones do in blocks, CT score and smells. Stored the way the editor stores them:
 * ids, parent and next links, shadows for menus and literals as arrays.
 */
import { Random } from '../seed/random.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What one input holds. */
type Input =
  | { number: number | string }
  | { text: string }
  | { stack: Step[] }
  | { reporter: Step }
  | { menu: Step }
  | { variable: string }
  | { message: string };

/** One block of a script. */
interface Step {
  op: string;
  inputs?: Record<string, Input>;
  fields?: Record<string, Json[]>;
  mutation?: Record<string, Json>;
  shadow?: boolean;
}

/** What a sprite's scripts need from its project: the stage's variables and messages. */
export interface ScriptContext {
  /** The stage's `score` variable: [name, id]. */
  score: [string, string];
  /** Messages the scripts use, name → id (added to the stage's `broadcasts`). */
  messages: Record<string, string>;
}

/** What the scripts of one sprite add to it. */
export interface SpriteScripts {
  blocks: Record<string, Json>;
  lists: Record<string, Json>;
}

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#%()*+,-./:;=?@[]^_`{|}~';

/** Writes steps as stored blocks, with ids from its own random stream. */
class Writer {
  readonly blocks: Record<string, Json> = {};
  readonly lists: Record<string, Json> = {};
  #scripts = 0;

  constructor(
    readonly rng: Random,
    readonly context: ScriptContext,
  ) {}

  id(): string {
    return this.rng.chars(20, ID_CHARS);
  }

  message(name: string): [string, string] {
    this.context.messages[name] ??= this.id();
    return [name, this.context.messages[name]!];
  }

  /** A script at the top of the workspace. */
  script(steps: Step[]): void {
    const top = this.stack(steps, null);
    Object.assign(this.blocks[top] as Record<string, Json>, {
      x: 48 + 320 * (this.#scripts % 2),
      y: 64 + 240 * Math.floor(this.#scripts / 2),
    });
    this.#scripts++;
  }

  stack(steps: Step[], parent: string | null): string {
    const ids = steps.map(() => this.id());
    steps.forEach((step, i) => {
      const id = ids[i]!;
      const inputs: Record<string, Json> = {};
      for (const [name, input] of Object.entries(step.inputs ?? {})) inputs[name] = this.input(input, id);
      const block: Record<string, Json> = {
        opcode: step.op,
        next: ids[i + 1] ?? null,
        parent: i === 0 ? parent : ids[i - 1]!,
        inputs,
        fields: step.fields ?? {},
        shadow: step.shadow === true,
        topLevel: parent === null && i === 0,
      };
      if (step.mutation) block.mutation = { tagName: 'mutation', children: [], ...step.mutation };
      this.blocks[id] = block;
    });
    return ids[0]!;
  }

  input(input: Input, parent: string): Json {
    if ('number' in input) return [1, [4, String(input.number)]];
    if ('text' in input) return [1, [10, input.text]];
    if ('stack' in input) return [2, this.stack(input.stack, parent)];
    if ('menu' in input) return [1, this.stack([{ ...input.menu, shadow: true }], parent)];
    if ('reporter' in input) return [3, this.stack([input.reporter], parent), [10, '']];
    if ('variable' in input) return [3, [12, ...this.context.score], [10, '']];
    return [1, [11, ...this.message(input.message)]];
  }
}

const flag: Step = { op: 'event_whenflagclicked' };
const wait = (seconds: number): Step => ({ op: 'control_wait', inputs: { DURATION: { number: seconds } } });

/** The library: each writes one or two scripts. */
const LIBRARY: ((w: Writer, greeting: string, turn: number) => void)[] = [
  // A greeting, then turning forever.
  (w, greeting, turn) =>
    w.script([
      flag,
      { op: 'looks_sayforsecs', inputs: { MESSAGE: { text: greeting }, SECS: { number: 2 } } },
      {
        op: 'control_forever',
        inputs: {
          SUBSTACK: { stack: [{ op: 'motion_turnright', inputs: { DEGREES: { number: turn } } }, wait(0.1)] },
        },
      },
    ]),
  // Arrow keys move the sprite.
  (w) => {
    for (const [key, axis, step] of [
      ['right arrow', 'motion_changexby', 10],
      ['left arrow', 'motion_changexby', -10],
      ['up arrow', 'motion_changeyby', 10],
    ] as const) {
      w.script([
        { op: 'event_whenkeypressed', fields: { KEY_OPTION: [key, null] } },
        { op: axis, inputs: { [axis === 'motion_changexby' ? 'DX' : 'DY']: { number: step } } },
        { op: 'motion_ifonedgebounce' },
      ]);
    }
  },
  // A score counts up until it passes 10, then a win is broadcast and received.
  (w) => {
    const [name, id] = w.context.score;
    w.script([
      flag,
      { op: 'data_setvariableto', fields: { VARIABLE: [name, id] }, inputs: { VALUE: { text: '0' } } },
      {
        op: 'control_repeat_until',
        inputs: {
          CONDITION: {
            reporter: {
              op: 'operator_gt',
              inputs: { OPERAND1: { variable: name }, OPERAND2: { text: '10' } },
            },
          },
          SUBSTACK: {
            stack: [
              {
                op: 'data_changevariableby',
                fields: { VARIABLE: [name, id] },
                inputs: { VALUE: { number: 1 } },
              },
              wait(0.5),
            ],
          },
        },
      },
      { op: 'event_broadcast', inputs: { BROADCAST_INPUT: { message: 'win' } } },
    ]);
    w.script([
      { op: 'event_whenbroadcastreceived', fields: { BROADCAST_OPTION: w.message('win') } },
      { op: 'looks_sayforsecs', inputs: { MESSAGE: { text: 'You win!' }, SECS: { number: 2 } } },
      { op: 'control_stop', fields: { STOP_OPTION: ['all', null] }, mutation: { hasnext: 'false' } },
    ]);
  },
  // Clones fall from random places.
  (w) => {
    w.script([
      flag,
      { op: 'looks_hide' },
      {
        op: 'control_repeat',
        inputs: {
          TIMES: { number: 5 },
          SUBSTACK: {
            stack: [
              {
                op: 'control_create_clone_of',
                inputs: {
                  CLONE_OPTION: {
                    menu: {
                      op: 'control_create_clone_of_menu',
                      fields: { CLONE_OPTION: ['_myself_', null] },
                    },
                  },
                },
              },
              wait(1),
            ],
          },
        },
      },
    ]);
    w.script([
      { op: 'control_start_as_clone' },
      {
        op: 'motion_goto',
        inputs: { TO: { menu: { op: 'motion_goto_menu', fields: { TO: ['_random_', null] } } } },
      },
      { op: 'looks_show' },
      { op: 'motion_glidesecstoxy', inputs: { SECS: { number: 2 }, X: { number: 0 }, Y: { number: -170 } } },
      { op: 'control_delete_this_clone' },
    ]);
  },
  // A custom block, called when the sprite is clicked.
  (w) => {
    const argument = w.id();
    const mutation = (extra: Record<string, Json>) => ({
      proccode: 'jump %s',
      argumentids: JSON.stringify([argument]),
      warp: 'false',
      ...extra,
    });
    w.script([
      {
        op: 'procedures_definition',
        inputs: {
          custom_block: {
            menu: {
              op: 'procedures_prototype',
              mutation: mutation({ argumentnames: '["height"]', argumentdefaults: '[""]' }),
              inputs: {
                [argument]: {
                  menu: { op: 'argument_reporter_string_number', fields: { VALUE: ['height', null] } },
                },
              },
            },
          },
        },
      },
      {
        op: 'motion_changeyby',
        inputs: {
          DY: { reporter: { op: 'argument_reporter_string_number', fields: { VALUE: ['height', null] } } },
        },
      },
      wait(0.2),
      { op: 'motion_changeyby', inputs: { DY: { number: -20 } } },
    ]);
    w.script([
      { op: 'event_whenthisspriteclicked' },
      { op: 'procedures_call', mutation: mutation({}), inputs: { [argument]: { number: 20 } } },
    ]);
  },
  // A list of answers, and a question.
  (w) => {
    const list = w.id();
    w.lists[list] = ['answers', []];
    w.script([
      { op: 'event_whenthisspriteclicked' },
      { op: 'sensing_askandwait', inputs: { QUESTION: { text: 'What is your name?' } } },
      {
        op: 'data_addtolist',
        fields: { LIST: ['answers', list] },
        inputs: { ITEM: { reporter: { op: 'sensing_answer' } } },
      },
      {
        op: 'control_if_else',
        inputs: {
          CONDITION: {
            reporter: {
              op: 'operator_and',
              inputs: {
                OPERAND1: {
                  reporter: {
                    op: 'operator_gt',
                    inputs: {
                      OPERAND1: {
                        reporter: { op: 'data_lengthoflist', fields: { LIST: ['answers', list] } },
                      },
                      OPERAND2: { text: '3' },
                    },
                  },
                },
                OPERAND2: { reporter: { op: 'sensing_mousedown' } },
              },
            },
          },
          SUBSTACK: { stack: [{ op: 'data_deletealloflist', fields: { LIST: ['answers', list] } }] },
          SUBSTACK2: {
            stack: [
              {
                op: 'looks_say',
                inputs: {
                  MESSAGE: {
                    reporter: {
                      op: 'operator_join',
                      inputs: {
                        STRING1: { text: 'Hello ' },
                        STRING2: { reporter: { op: 'sensing_answer' } },
                      },
                    },
                  },
                },
              },
            ],
          },
        },
      },
    ]);
  },
  // A loose block left in the workspace: dead code, as many projects have.
  (w) =>
    w.script([
      { op: 'looks_changeeffectby', fields: { EFFECT: ['COLOR', null] }, inputs: { CHANGE: { number: 25 } } },
    ]),
];

/** A seed for a sprite's own stream, from text its project's stream already made. */
function seedOf(text: string, salt: number): number {
  let hash = 2166136261 ^ salt;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

/**
 * One sprite's scripts: the greeting and (with a context) 0-3 more from the library, drawn from a
 * stream seeded by `seed` (so that the project's own stream is used as it always was).
 */
export function spriteScripts(
  seed: string,
  greeting: string,
  turn: number,
  context: ScriptContext | null,
): SpriteScripts {
  const rng = new Random(seedOf(seed, turn));
  const writer = new Writer(rng, context ?? { score: ['score', ''], messages: {} });
  LIBRARY[0]!(writer, greeting, turn);
  if (context) for (const write of rng.sample(LIBRARY.slice(1), rng.int(0, 3))) write(writer, greeting, turn);
  return { blocks: writer.blocks, lists: writer.lists };
}
