/**
 * Metrics (size, nesting, cyclomatic complexity, custom blocks, broadcasts) and smells (dead code,
 * unused variables, lists and custom blocks, duplicated scripts, default names, messages never
 * sent or received) on projects built here and on real ones.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeProject, type SmellSite } from '../../src/index.js';
import { type BlockSpec, buildProject, projectOf, type TargetSpec } from '../support/project-builder.js';

const real = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const flag = 'event_whenflagclicked';
const receive = (message: string): BlockSpec => ({
  op: 'event_whenbroadcastreceived',
  fields: { BROADCAST_OPTION: [message, `m-${message}`] },
});
const send = (message: string, wait = false): BlockSpec => ({
  op: wait ? 'event_broadcastandwait' : 'event_broadcast',
  inputs: { BROADCAST_INPUT: [11, message, `m-${message}`] },
});
const define = (proccode: string): BlockSpec => ({
  op: 'procedures_definition',
  inputs: {
    custom_block: {
      op: 'procedures_prototype',
      shadow: true,
      mutation: {
        proccode,
        argumentids: '["a"]',
        argumentnames: '["size"]',
        argumentdefaults: '[""]',
        warp: 'false',
      },
    },
  },
});
const call = (proccode: string): BlockSpec => ({
  op: 'procedures_call',
  mutation: { proccode, argumentids: '[]' },
});

describe('metrics', () => {
  it('per script: blocks (shadows left out), nesting, cyclomatic complexity', () => {
    const { metrics } = analyzeProject(
      projectOf(
        [
          flag,
          {
            op: 'control_forever',
            inputs: {
              SUBSTACK: [
                {
                  op: 'control_if_else',
                  inputs: {
                    CONDITION: 'sensing_mousedown',
                    SUBSTACK: [
                      { op: 'control_repeat', inputs: { TIMES: [6, '3'], SUBSTACK: ['motion_movesteps'] } },
                    ],
                    SUBSTACK2: ['looks_hide'],
                  },
                },
              ],
            },
          },
        ],
        [
          receive('go'),
          'control_wait_until',
          { op: 'control_repeat_until', inputs: { SUBSTACK: ['looks_show'] } },
        ],
        ['motion_turnright'],
      ),
    );
    expect(
      metrics.scripts.map(({ opcode, hat, blocks, nesting, complexity }) => ({
        opcode,
        hat,
        blocks,
        nesting,
        complexity,
      })),
    ).toEqual([
      { opcode: flag, hat: true, blocks: 7, nesting: 3, complexity: 3 },
      { opcode: 'event_whenbroadcastreceived', hat: true, blocks: 4, nesting: 1, complexity: 3 },
      { opcode: 'motion_turnright', hat: false, blocks: 1, nesting: 0, complexity: 1 },
    ]);
    expect(metrics).toMatchObject({
      blocks: 12,
      meanBlocksPerScript: 4,
      maxBlocksPerScript: 7,
      maxNesting: 3,
      maxComplexity: 3,
      meanComplexity: 2.33,
    });
  });

  it('custom blocks defined and called, broadcasts sent and received', () => {
    const { metrics } = analyzeProject(
      projectOf(
        [define('jump %s'), 'motion_changeyby'],
        [define('spin'), 'motion_turnright'],
        [flag, call('jump %s'), call('jump %s'), call('nothing'), send('go'), send('go', true)],
        [receive('go')],
      ),
    );
    expect(metrics).toMatchObject({
      proceduresDefined: 2,
      proceduresCalled: 1,
      procedureCalls: 2,
      broadcastsSent: 2,
      broadcastsReceived: 1,
    });
  });

  it('on a real project (scratch-vm pen-dolphin-3d)', () => {
    const { scripts, ...project } = analyzeProject(
      real('scratch-vm__load-extensions_confirm-load_pen-dolphin-3d.json'),
    ).metrics;
    expect(scripts.length).toBe(32);
    expect(project).toEqual({
      blocks: 300,
      meanBlocksPerScript: 9.38,
      maxBlocksPerScript: 34,
      maxNesting: 1,
      maxComplexity: 2,
      meanComplexity: 1.38,
      proceduresDefined: 19,
      proceduresCalled: 19,
      procedureCalls: 31,
      broadcastsSent: 4,
      broadcastsReceived: 8,
    });
  });
});

describe('smells', () => {
  it('dead code: scripts under no hat and blocks no script reaches', () => {
    const project = projectOf(
      [flag, 'looks_show'],
      ['motion_movesteps', 'looks_hide'],
      ['procedures_definition'],
    );
    project.targets[1]!.blocks.lost = {
      opcode: 'looks_say',
      next: null,
      parent: 'gone',
      inputs: {},
      fields: {},
      shadow: false,
      topLevel: false,
    };
    const { smells } = analyzeProject(project);
    expect(smells.deadCode).toEqual([
      expect.objectContaining({ target: 'Cat', name: 'motion_movesteps', blocks: 2 }),
      { target: 'Cat', id: 'lost', name: 'looks_say', blocks: 1 },
    ]);
  });

  it('unused variables and lists, by id or by name; cloud variables read by a sprite count as used', () => {
    const stage = {
      variables: { v1: ['score', 0], v2: ['unused', 0], v3: ['☁ best', 0, true] },
      lists: { l1: ['items', []], l2: ['empty', []] },
    };
    const sprites: TargetSpec[] = [
      {
        name: 'Cat',
        scripts: [
          [
            flag,
            {
              op: 'data_setvariableto',
              fields: { VARIABLE: ['score', 'v1'] },
              inputs: { VALUE: [12, '☁ best', 'other-id'] },
            },
            { op: 'data_addtolist', fields: { LIST: ['items', 'l1'] } },
          ],
        ],
        variables: { v4: ['local', 0] },
      },
    ];
    const { smells } = analyzeProject(buildProject(stage, sprites));
    expect(smells.unusedVariables.map((site) => [site.target, site.name])).toEqual([
      ['Stage', 'unused'],
      ['Cat', 'local'],
    ]);
    expect(smells.unusedLists.map((site) => site.name)).toEqual(['empty']);
  });

  it('unused custom blocks', () => {
    const { smells } = analyzeProject(projectOf([define('used')], [define('unused')], [flag, call('used')]));
    expect(smells.unusedProcedures.map((site) => site.name)).toEqual(['unused']);
  });

  it('duplicated scripts: more than 5 blocks, the same blocks and fields (ids aside)', () => {
    const long = [flag, 'motion_movesteps', 'motion_turnright', 'looks_show', 'looks_hide', 'control_wait'];
    const short = [flag, 'motion_movesteps', 'motion_turnright', 'looks_show', 'looks_hide'];
    const { smells } = analyzeProject(
      projectOf(long, long, short, short, [...long.slice(0, 5), 'looks_nextcostume']),
    );
    expect(smells.duplicatedScripts).toEqual([
      expect.objectContaining({ target: 'Cat', name: flag, blocks: 6 }),
    ]);
    const fields = (value: string): BlockSpec[] => [
      ...long,
      { op: 'looks_seteffectto', fields: { EFFECT: [value] } },
    ];
    expect(analyzeProject(projectOf(fields('COLOR'), fields('GHOST'))).smells.duplicatedScripts).toEqual([]);
  });

  it('default sprite and backdrop names', () => {
    const { smells } = analyzeProject(
      buildProject({ costumes: ['backdrop1', 'Sky', 'fondo2'] }, [
        { name: 'Sprite1' },
        { name: 'Hero' },
        { name: 'Sprite' },
        { name: 'Sprite1 copy' },
      ]),
    );
    expect(smells.defaultSpriteNames.map((site) => site.name)).toEqual(['Sprite1', 'Sprite']);
    expect(smells.defaultBackdropNames.map((site) => site.name)).toEqual(['backdrop1', 'fondo2']);
  });

  it('messages never sent and never received, names matched without case; a message sent by a reporter is not known', () => {
    const project = projectOf(
      [receive('Start')],
      [receive('lonely')],
      [
        flag,
        send('start'),
        send('shout'),
        { op: 'event_broadcast', inputs: { BROADCAST_INPUT: 'sensing_answer' } },
      ],
    );
    const { smells } = analyzeProject(project);
    expect(smells.messagesNeverSent.map((site) => site.name)).toEqual(['lonely']);
    expect(smells.messagesNeverReceived.map((site) => site.name)).toEqual(['shout']);
  });

  it('on a real project: scratch-vm broadcast_special_chars (two broadcasts under no hat, of messages none receives)', () => {
    const { smells } = analyzeProject(real('scratch-vm__broadcast_special_chars.json'));
    expect(
      Object.fromEntries(
        Object.entries(smells).map(([name, sites]) => [
          name,
          (sites as SmellSite[]).map((site) => site.name),
        ]),
      ),
    ).toEqual({
      deadCode: ['event_broadcast', 'event_broadcast'],
      unusedVariables: [],
      unusedLists: [],
      unusedProcedures: [],
      duplicatedScripts: [],
      defaultSpriteNames: ['Sprite1'],
      defaultBackdropNames: ['backdrop1'],
      messagesNeverSent: [],
      messagesNeverReceived: ['< perfect', 'a&b'],
    });
  });
});
