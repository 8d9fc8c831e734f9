/**
 * The recorder behind `live` in both front ends, against real cloud connections (the sandbox's
 * alternate endpoint, over loopback): seeded from the values the cloud holds, then others' sets
 * and its own, the chosen variables only (named with or without `☁ `), numbers only.
 */
import { describe, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { type LiveChange, LiveRecorder } from '../../src/presentation/index.js';
import { waitFor } from '../cloud/support.js';
import { useSandbox } from '../support/sandbox.js';

const ctx = useSandbox();

function guest(projectId: string): Cloud {
  return Cloud.alternate(projectId, {
    purpose: 'tests',
    contact: '@tester',
    host: ctx.sandbox.alternateCloudHost,
  });
}

/** Digits that are text encoded as a number (WIRE.md §7): numeric on the wire, not a quantity. */
const ENCODED_TEXT = '1234567890123456789012';

describe('LiveRecorder', () => {
  it('starts from the held values of the chosen variables, records sets, and counts non-numeric ones', async () => {
    const writer = guest('live-recorder');
    await writer.setVars({ alpha: 1, bravo: 2, charlie: 3 });
    const viewer = guest('live-recorder');
    await viewer.connect();
    await waitFor(() => Object.keys(viewer.getAllVars()).length === 3, 'the initial values');

    const changes: LiveChange[] = [];
    const recorder = new LiveRecorder(viewer, { variables: ['☁ alpha', 'bravo'], window: 30 }, (change) =>
      changes.push(change),
    );
    expect(recorder.variables).toEqual(new Set(['alpha', 'bravo']));
    expect(recorder.data.map((p) => [p.name, p.value])).toEqual([
      ['alpha', 1],
      ['bravo', 2],
    ]);
    expect(changes).toEqual([]);
    const seeded = recorder.data.map((p) => p.time);

    await viewer.setVar('alpha', 42); // its own set: the server never echoes it
    expect(recorder.data.at(-1)).toMatchObject({ name: 'alpha', value: 42 });
    // Seeded at the window's start (when they were set is not known): both at one time, a whole
    // window (30 s) or more before the first value recorded after.
    expect(new Set(seeded).size).toBe(1);
    expect(recorder.data.at(-1)!.time - seeded[0]!).toBeGreaterThanOrEqual(30_000);
    await writer.setVar('charlie', 9); // not chosen
    await writer.setVar('bravo', ENCODED_TEXT);
    await writer.setVar('bravo', 7);
    await waitFor(() => recorder.data.at(-1)?.value === 7, "the other client's set");
    expect(recorder.data.map((p) => [p.name, p.value])).toEqual([
      ['alpha', 1],
      ['bravo', 2],
      ['alpha', 42],
      ['bravo', 7],
    ]);
    expect(recorder.skipped).toBe(1);
    expect(changes).toEqual(['point', 'skipped', 'point']);

    recorder.stop();
    expect(recorder.recording).toBe(false);
    expect(viewer.listenerCount('set')).toBe(0);
    expect(viewer.listenerCount('sent')).toBe(0);
    await viewer.setVar('alpha', 5);
    expect(recorder.data).toHaveLength(4);
    await Promise.all([writer.disconnect(), viewer.disconnect()]);
  });

  it('connects a cloud that is not connected yet and starts from what the server sends', async () => {
    const writer = guest('live-recorder-connect');
    await writer.setVars({ alpha: 10, bravo: 20 });
    const viewer = guest('live-recorder-connect');
    const changes: LiveChange[] = [];
    const recorder = new LiveRecorder(viewer, {}, (change) => changes.push(change));
    expect(recorder.data).toEqual([]);
    await recorder.connect();
    expect(new Map(recorder.data.map((p) => [p.name, p.value]))).toEqual(
      new Map([
        ['alpha', 10],
        ['bravo', 20],
      ]),
    );
    expect(changes).toContain('point');
    recorder.stop();
    await Promise.all([writer.disconnect(), viewer.disconnect()]);
  });

  it('answers null for a source without connect, and refuses what is not a cloud', () => {
    const source = { on: () => {}, off: () => {} };
    expect(new LiveRecorder(source).connect()).toBeNull();
    expect(() => new LiveRecorder({} as never)).toThrow(TypeError);
    expect(() => new LiveRecorder(source, { window: 0 })).toThrow(RangeError);
  });
});
