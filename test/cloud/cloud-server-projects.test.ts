/**
 * How the sandbox's cloud server keys and keeps projects: platform ids are numbers, whatever the
 * digits look like (review finding 12), and the alternate endpoint's projects, which any client
 * may name, are bounded and keep no log nobody can read (review finding 8). Checked by counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALTERNATE_IDLE_PROJECTS, CloudState } from '../../src/sandbox/cloud/index.js';
import { BOT_AGENT, HARNESS_PROJECT, type Harness, RawSocket, startHarness, waitFor } from './support.js';

let harness: Harness;
beforeAll(async () => {
  const state = new CloudState();
  state.project(HARNESS_PROJECT).values.set('☁ score', '7');
  harness = await startHarness({ state, alternateRateLimit: null });
});
afterAll(() => harness.close());

const message = (method: string, user: string, projectId: string | number, extra: object = {}) => ({
  method,
  user,
  project_id: projectId,
  ...extra,
});

async function platformClient(user: 'alice' | 'bob', projectId: string | number): Promise<RawSocket> {
  const socket = new RawSocket(harness.wsUrl, { Cookie: `scratchsessionsid="sid-${user}"` });
  await socket.opened;
  socket.send(message('handshake', user, projectId));
  await socket.frame(1);
  return socket;
}

/** A guest that has handshaken (an empty project answers nothing, so the server's count says so). */
async function guest(user: string, projectId: string): Promise<RawSocket> {
  const socket = new RawSocket(harness.altUrl, { 'User-Agent': BOT_AGENT });
  await socket.opened;
  const before = harness.cloud.members('alternate', projectId);
  socket.send(message('handshake', user, projectId));
  await waitFor(() => harness.cloud.members('alternate', projectId) > before, `${user} to join ${projectId}`);
  return socket;
}

describe('platform project ids', () => {
  it('takes "0042" as project 42: same values, same room, same log', async () => {
    const padded = `00${HARNESS_PROJECT}`;
    const a = await platformClient('alice', padded);
    const b = await platformClient('bob', Number(HARNESS_PROJECT));
    expect(a.frames[0]).toBe('{"method":"set","name":"☁ score","value":"7"}');
    a.send(message('set', 'alice', padded, { name: '☁ zero', value: '5' }));
    await waitFor(() => b.sets().at(-1) === '☁ zero=5', 'the first set');
    // Later messages compare ids the same way: the plain id is not "another project".
    a.send(message('set', 'alice', HARNESS_PROJECT, { name: '☁ zero', value: '6' }));
    await waitFor(() => b.sets().at(-1) === '☁ zero=6', 'the second set');
    expect(a.closeInfo).toBeNull();
    const logs = await fetch(`${harness.logsHost}/logs?projectid=${HARNESS_PROJECT}&limit=2`);
    const entries = (await logs.json()) as { value: string }[];
    expect(entries.map((e) => e.value)).toEqual(['6', '5']);
    expect(harness.state.projectIds()).toEqual([HARNESS_PROJECT]);
    await Promise.all([a.close(), b.close()]);
  });

  it('still refuses ids that name no project with 4004', async () => {
    for (const id of ['0', '000', '4242x', '']) {
      const socket = new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid="sid-alice"' });
      await socket.opened;
      socket.send(message('handshake', 'alice', id));
      expect((await socket.closed).code).toBe(id === '' ? 4000 : 4004);
    }
  });
});

describe('alternate projects', () => {
  it('keeps no log', async () => {
    const a = await guest('logless', 'no-log');
    a.send(message('set', 'logless', 'no-log', { name: '☁ v', value: '12' }));
    await waitFor(() => harness.cloud.alternateState.peek('no-log')?.values.size === 1, 'the set');
    expect(harness.cloud.alternateState.peek('no-log')!.log).toHaveLength(0);
    await a.close();
  });

  it(`keeps the values of at most ${ALTERNATE_IDLE_PROJECTS} projects nobody is connected to`, async () => {
    const total = ALTERNATE_IDLE_PROJECTS + 20;
    const staying = await guest('stayer', 'busy');
    staying.send(message('set', 'stayer', 'busy', { name: '☁ v', value: '777' }));
    for (let i = 0; i < total; i++) {
      const id = `room-${i}`;
      const socket = await guest(`player${i}`, id);
      socket.send(message('set', `player${i}`, id, { name: '☁ v', value: `${i}` }));
      await waitFor(() => harness.cloud.alternateState.peek(id)?.values.size === 1, `the set of ${id}`);
      await socket.close();
    }
    const state = harness.cloud.alternateState;
    await waitFor(() => harness.cloud.connections === 1, 'the guests to be gone');
    const rooms = state.projectIds().filter((id) => id.startsWith('room-'));
    expect(rooms).toHaveLength(ALTERNATE_IDLE_PROJECTS);
    // The most recently left ones stay, the oldest went first.
    expect(rooms).toContain(`room-${total - 1}`);
    expect(rooms).not.toContain('room-0');
    // A project with a connection is never dropped, however long ago it was set.
    expect(state.peek('busy')?.values.get('☁ v')).toBe('777');
    // Coming back to a kept project finds its values.
    const back = await guest('returning', `room-${total - 1}`);
    expect(await back.frame(1)).toBe(`{"method":"set","name":"☁ v","value":"${total - 1}"}`);
    await Promise.all([back.close(), staying.close()]);
  });
});
