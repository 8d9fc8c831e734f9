/**
 * Each of Dr. Scratch's seven dimensions at each of its levels, on projects built here, by the
 * rules of its Scratch 3 analyzer (drscratchv3 `app/analyzer.py`), and the total's levels.
 */
import { describe, expect, it } from 'vitest';
import { analyzeProject } from '../../src/index.js';
import { type BlockSpec, buildProject, projectOf } from '../support/project-builder.js';

const flag = 'event_whenflagclicked';
const ct = (...scripts: BlockSpec[][]) => analyzeProject(projectOf(...scripts)).ct;
const receive = (message: string): BlockSpec => ({
  op: 'event_whenbroadcastreceived',
  fields: { BROADCAST_OPTION: [message, `id-${message}`] },
});
const key = (name: string): BlockSpec => ({ op: 'event_whenkeypressed', fields: { KEY_OPTION: [name] } });

describe('CT score', () => {
  it('logic: 0, if 1, if-else 2, and/or/not 3', () => {
    expect(ct([flag, 'looks_show']).logic).toBe(0);
    expect(ct([flag, 'control_if']).logic).toBe(1);
    expect(ct([flag, 'control_if', 'control_if_else']).logic).toBe(2);
    for (const op of ['operator_and', 'operator_or', 'operator_not'])
      expect(ct([flag, { op: 'control_if', inputs: { CONDITION: op } }]).logic).toBe(3);
  });

  it('flow control: 0 a lone block, 1 a sequence, 2 repeat or forever, 3 repeat until', () => {
    expect(ct([flag]).flowControl).toBe(0);
    expect(ct([flag, 'looks_show']).flowControl).toBe(1);
    expect(ct(['control_repeat']).flowControl).toBe(2);
    expect(ct(['control_forever']).flowControl).toBe(2);
    expect(ct(['control_repeat_until']).flowControl).toBe(3);
  });

  it('synchronization: wait 1; broadcast, when I receive or stop 2; wait until, backdrop hat or broadcast and wait 3', () => {
    expect(ct([flag]).synchronization).toBe(0);
    expect(ct([flag, 'control_wait']).synchronization).toBe(1);
    for (const op of ['event_broadcast', 'event_whenbroadcastreceived', 'control_stop'])
      expect(ct([op]).synchronization).toBe(2);
    for (const op of ['control_wait_until', 'event_whenbackdropswitchesto', 'event_broadcastandwait'])
      expect(ct([op]).synchronization).toBe(3);
  });

  it('abstraction: 1 for more than one script, 2 a custom block, 3 clones', () => {
    expect(ct([flag, 'looks_show']).abstraction).toBe(0);
    expect(ct([flag], [flag]).abstraction).toBe(1);
    expect(ct(['procedures_definition']).abstraction).toBe(2);
    expect(ct(['control_start_as_clone']).abstraction).toBe(3);
  });

  it('data representation: 1 a property changed, 2 a variable, 3 a list', () => {
    expect(ct([flag]).dataRepresentation).toBe(0);
    expect(ct([flag, 'motion_movesteps']).dataRepresentation).toBe(1);
    expect(ct([flag, 'looks_nextbackdrop']).dataRepresentation).toBe(1);
    expect(ct([flag, 'data_setvariableto']).dataRepresentation).toBe(2);
    expect(ct([flag, 'data_addtolist']).dataRepresentation).toBe(3);
    // "item # of" is not among the analyzer's list blocks.
    expect(ct([flag, 'data_itemnumoflist']).dataRepresentation).toBe(0);
  });

  it('user interactivity: 1 green flag, 2 keys, clicks, asking or the mouse, 3 video or loudness', () => {
    expect(ct(['looks_show']).userInteractivity).toBe(0);
    expect(ct([flag]).userInteractivity).toBe(1);
    expect(ct([key('space')]).userInteractivity).toBe(2);
    expect(ct(['sensing_askandwait']).userInteractivity).toBe(2);
    const goTo = (choice: string): BlockSpec => ({
      op: 'motion_goto',
      inputs: { TO: { op: 'motion_goto_menu', shadow: true, fields: { TO: [choice] } } },
    });
    expect(ct([flag, goTo('_mouse_')]).userInteractivity).toBe(2);
    expect(ct([flag, goTo('_random_')]).userInteractivity).toBe(1);
    expect(ct(['sensing_loudness']).userInteractivity).toBe(3);
    expect(ct(['videoSensing_videoToggle']).userInteractivity).toBe(3);
  });

  it('parallelism: 1 two green flags, 2 two scripts on a key or a click, 3 two on one message', () => {
    expect(ct([flag]).parallelism).toBe(0);
    expect(ct([flag], [flag]).parallelism).toBe(1);
    expect(ct([key('a')], [key('b')]).parallelism).toBe(0);
    expect(ct([key('a')], [key('a')]).parallelism).toBe(2);
    expect(ct(['event_whenthisspriteclicked'], ['event_whenthisspriteclicked']).parallelism).toBe(2);
    expect(ct([receive('go')], [receive('stop')]).parallelism).toBe(0);
    expect(ct([receive('go')], [receive('go')]).parallelism).toBe(3);
    expect(
      ct(['videoSensing_whenMotionGreaterThan'], ['videoSensing_whenMotionGreaterThan']).parallelism,
    ).toBe(3);
  });

  it("parallelism follows the analyzer's list of field values: a broadcast menu naming a received message counts", () => {
    const send = (message: string): BlockSpec => ({
      op: 'event_broadcast',
      inputs: {
        BROADCAST_INPUT: {
          op: 'event_broadcast_menu',
          shadow: true,
          fields: { BROADCAST_OPTION: [message, `id-${message}`] },
        },
      },
    });
    // Two hats on different messages, a broadcast of one of them: the analyzer sees "go" twice.
    expect(ct([receive('go')], [receive('stop')], [flag, send('go')]).parallelism).toBe(3);
    // It keeps the first field whole, id included: an id that equals a later message counts too.
    const first: BlockSpec = {
      op: 'event_whenbroadcastreceived',
      fields: { BROADCAST_OPTION: ['go', 'stop'] },
    };
    expect(ct([first], [receive('stop')]).parallelism).toBe(3);
  });

  it('levels: total 0-7 basic, 8-14 developing, 15-21 proficiency (the average above 1, above 2)', () => {
    const basic = ct([flag, 'control_forever']);
    expect(basic).toMatchObject({ total: 3, level: 'basic' });
    const developing = ct(
      [flag, 'control_if_else', 'data_setvariableto', 'event_broadcast', 'control_repeat'],
      [flag],
    );
    expect(developing).toMatchObject({ total: 11, level: 'developing' });
    const proficient = analyzeProject(
      buildProject({}, [
        {
          name: 'Cat',
          scripts: [
            [receive('go'), 'control_repeat_until', 'data_addtolist', 'control_wait_until'],
            [receive('go'), 'operator_and', 'sensing_loudness'],
            ['control_start_as_clone'],
          ],
        },
      ]),
    ).ct;
    expect(proficient).toEqual({
      abstraction: 3,
      parallelism: 3,
      logic: 3,
      synchronization: 3,
      flowControl: 3,
      userInteractivity: 3,
      dataRepresentation: 3,
      total: 21,
      level: 'proficiency',
    });
    // The edges: 7 is basic (average 1), 8 developing, 14 developing (average 2), 15 proficiency.
    expect(
      ct([flag, 'control_repeat_until', 'control_if', 'control_wait', 'motion_movesteps']),
    ).toMatchObject({ total: 7, level: 'basic' });
    expect(
      ct([flag, 'control_repeat_until', 'control_if', 'control_wait', 'motion_movesteps'], [flag]),
    ).toMatchObject({ total: 9, level: 'developing' });
    const keyScripts = (sync: string) =>
      ct([key('a'), 'control_if_else', 'control_repeat_until', sync, 'data_setvariableto'], [key('a')]);
    expect(keyScripts('event_broadcast')).toMatchObject({ total: 14, level: 'developing' });
    expect(keyScripts('control_wait_until')).toMatchObject({ total: 15, level: 'proficiency' });
  });
});
