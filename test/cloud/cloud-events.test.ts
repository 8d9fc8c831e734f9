/**
 * `CloudEvents` from both sources: the log (polled, exactly once even when entries share a
 * timestamp, surviving a failing poll) and the WebSocket (sets only, no user or time).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cloud, type CloudActivity, type CloudEvents } from '../../src/cloud/index.js';
import { Session } from '../../src/index.js';
import { useSandbox } from '../support/sandbox.js';
import { HARNESS_PROJECT, type Harness, startHarness, waitFor } from './support.js';

const ctx = useSandbox();

function collect(events: CloudEvents): { activity: CloudActivity[]; errors: Error[]; ready: Promise<void> } {
  const activity: CloudActivity[] = [];
  const errors: Error[] = [];
  for (const verb of ['set', 'create', 'delete', 'rename'] as const) events.on(verb, (e) => activity.push(e));
  events.on('error', (e) => errors.push(e));
  const ready = new Promise<void>((resolve) => events.once('ready', () => resolve()));
  return { activity, errors, ready };
}

/** The newest `limit` entries of the seeded cloud project's log, as the sandbox serves them (no SDK). */
async function rawLog(limit: number): Promise<{ value: string | number; timestamp: number }[]> {
  const answer = await fetch(
    `${ctx.sandbox.hosts.cloudHttp}/logs?projectid=${ctx.sandbox.cloudProjectId}&limit=${limit}&offset=0`,
  );
  expect(answer.status).toBe(200);
  return (await answer.json()) as { value: string | number; timestamp: number }[];
}

describe('logs source on the sandbox platform', () => {
  it('is the default on the platform, skips history, and reports new activity with user and time', async () => {
    const [watcherSession, playerSession] = await Promise.all([ctx.login(0), ctx.login(1)]);
    const watcher = watcherSession.cloud(ctx.sandbox.cloudProjectId);
    const events = watcher.events({ interval: 0.05 });
    expect(events.source).toBe('logs');
    const { activity, errors, ready } = collect(events);
    const started = events.start();
    expect(events.start()).toBe(started); // again while running: the same promise
    await started; // settles on ready
    await ready;
    expect(activity).toEqual([]); // 10,000 entries of history are not replayed
    const player = playerSession.cloud(ctx.sandbox.cloudProjectId, { rateLimit: 0.02 });
    const [lastOfHistory] = await rawLog(1);
    await player.setVars({ 'players online': 12, 'last score': 4410, 'total plays': '99999' });
    await waitFor(() => activity.length === 3, 'three events');
    expect(activity.map((e) => [e.user, e.verb, e.name, e.value])).toEqual([
      [playerSession.username, 'set', 'players online', '12'],
      [playerSession.username, 'set', 'last score', '4410'],
      [playerSession.username, 'set', 'total plays', '99999'],
    ]);
    // Each with the time the server logged for it (its log as served, newest first), after the history.
    const logged = (await rawLog(3)).reverse();
    expect(logged.map((entry) => entry.value)).toEqual(['12', '4410', '99999']);
    expect(activity.map((e) => e.timestamp)).toEqual(logged.map((entry) => entry.timestamp));
    expect(logged[0]!.timestamp).toBeGreaterThanOrEqual(lastOfHistory!.timestamp);
    // One more poll round: nothing is reported twice.
    await player.setVar('last score', 1);
    await waitFor(() => activity.length === 4, 'the fourth event');
    expect(activity[3]!.value).toBe('1');
    expect(errors).toEqual([]);
    await events.stop();
    expect(events.running).toBe(false);
    await player.disconnect();
  });
});

describe('logs source: exactly once with shared timestamps, bounded, resilient', () => {
  let harness: Harness;
  let clockValue = 1_700_000_000_000;
  beforeAll(async () => {
    // Every entry gets the same millisecond: only multiplicity tells them apart.
    harness = await startHarness({ clock: () => clockValue, platformRateLimit: null });
  });
  afterAll(() => harness.close());

  const client = (user: 'alice' | 'bob', options: { rateLimit?: number; session?: Session } = {}) =>
    new Cloud({
      projectId: HARNESS_PROJECT,
      host: harness.wsUrl,
      username: user,
      cookies: `scratchsessionsid="sid-${user}"`,
      logsHost: harness.logsHost,
      rateLimit: options.rateLimit ?? 0,
      session: options.session,
    });

  it('reports identical entries in the same millisecond once each, across polls', async () => {
    const watcher = client('bob').events({ source: 'logs', interval: 0.02, limit: 30 });
    const { activity, errors, ready } = collect(watcher);
    const alice = client('alice');
    await alice.setVars({ a: 1, b: 2 }); // history before start: not reported
    await watcher.start();
    await ready;
    // Bursts of the same value in the same millisecond, straddling polls.
    for (let burst = 0; burst < 4; burst++) {
      for (let i = 0; i < 7; i++) await alice.setVar('same', 5);
      await waitFor(() => activity.length === (burst + 1) * 7, `burst ${burst + 1}`);
    }
    // 150 entries at once: more than one poll's `limit` (30), so polls read several pages.
    await Promise.all(Array.from({ length: 150 }, (_, i) => alice.setVar('bulk', i)));
    await alice.setVar('marker', 1);
    await waitFor(() => activity.some((e) => e.name === 'marker'), 'the marker');
    await alice.setVar('marker', 2);
    await waitFor(() => activity.some((e) => e.value === '2' && e.name === 'marker'), 'the second marker');
    expect(activity).toHaveLength(28 + 150 + 2);
    expect(
      activity.slice(0, 28).every((e) => e.name === 'same' && e.value === '5' && e.timestamp === clockValue),
    ).toBe(true);
    expect(activity.slice(28, 178).map((e) => e.value)).toEqual(
      Array.from({ length: 150 }, (_, i) => String(i)),
    );
    expect(activity.slice(178).map((e) => `${e.name}=${e.value}`)).toEqual(['marker=1', 'marker=2']);
    expect(errors).toEqual([]);
    await watcher.stop();
    await alice.disconnect();
  });

  it('survives a failing poll with an error event and goes on', async () => {
    const session = new Session({ retries: 0 });
    const watcher = client('bob', { session }).events({ source: 'logs', interval: 0.02 });
    const { activity, errors, ready } = collect(watcher);
    await watcher.start();
    await ready;
    harness.failLogs = true;
    await waitFor(() => errors.length >= 2, 'failed polls');
    const alice = client('alice');
    await alice.setVar('during outage', 7);
    harness.failLogs = false;
    await waitFor(() => activity.length === 1, 'the entry made during the outage');
    expect(activity[0]).toMatchObject({ user: 'alice', verb: 'set', name: 'during outage', value: '7' });
    expect(errors[0]!.name).toBe('ApiError');
    expect(errors[0]!.message).toMatch(/500/);
    await watcher.stop();
    await alice.disconnect();
  });

  it('start() waits through failing first polls for ready; stop() before ready rejects it', async () => {
    const session = new Session({ retries: 0 });
    harness.failLogs = true;
    try {
      const watcher = client('bob', { session }).events({ source: 'logs', interval: 0.02 });
      const { errors } = collect(watcher);
      let settled = false;
      const started = watcher.start().finally(() => {
        settled = true;
      });
      await waitFor(() => errors.length >= 2, 'failed first polls');
      expect(settled).toBe(false);
      await watcher.stop();
      await expect(started).rejects.toThrow('CloudEvents was stopped before it was ready');
      expect(watcher.running).toBe(false);
      // Started again once the log is back: settles on its first poll.
      harness.failLogs = false;
      await watcher.start();
      expect(watcher.running).toBe(true);
      await watcher.stop();
    } finally {
      harness.failLogs = false;
    }
  });

  it('advances with time like a real log', async () => {
    clockValue += 1000;
    const watcher = client('bob').events({ source: 'logs', interval: 0.02 });
    const { activity, ready } = collect(watcher);
    await watcher.start();
    await ready;
    const alice = client('alice');
    for (let i = 0; i < 5; i++) {
      clockValue += i % 2; // some entries share a millisecond, some do not
      await alice.setVar('tick', i);
    }
    await waitFor(() => activity.length === 5, 'five ticks');
    expect(activity.map((e) => e.value)).toEqual(['0', '1', '2', '3', '4']);
    await watcher.stop();
    await alice.disconnect();
  });
});

describe('websocket source', () => {
  it('is the default elsewhere: sets only, user and timestamp null, no replay of current values', async () => {
    const guest = (name: string) =>
      Cloud.alternate('ws-events', {
        purpose: 'tests',
        contact: '@tester',
        host: ctx.sandbox.alternateCloudHost,
        username: name,
      });
    const writer = guest('writer');
    await writer.setVar('before', 1); // a current value when the watcher connects
    const watcherCloud = guest('watcher');
    const events = watcherCloud.events();
    expect(events.source).toBe('websocket');
    const { activity, errors, ready } = collect(events);
    await events.start();
    await ready;
    expect(watcherCloud.getVar('before')).toBe('1');
    await writer.setVar('after', '12.5');
    await waitFor(() => activity.length === 1, 'the set');
    expect(activity).toEqual([{ user: null, verb: 'set', name: 'after', value: '12.5', timestamp: null }]);
    expect(errors).toEqual([]);
    await events.stop();
    await writer.setVar('after', '99');
    await waitFor(() => watcherCloud.getVar('after') === '99', 'the cloud to see it');
    expect(activity).toHaveLength(1);
    await Promise.all([writer.disconnect(), watcherCloud.disconnect()]);
  });

  it('reports a connection that fails: start() rejects, and error is emitted', async () => {
    const events = new Cloud({ projectId: 'x', host: ctx.sandbox.alternateCloudHost }).events();
    const { errors } = collect(events);
    await expect(events.start()).rejects.toThrow(/identify your bot/);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/identify your bot/);
    expect(events.running).toBe(false);
  });

  it('does not crash a caller who ignores the promise of a failing start()', async () => {
    const events = new Cloud({ projectId: 'y', host: ctx.sandbox.alternateCloudHost }).events();
    const { errors } = collect(events);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      void events.start(); // as the README's `events.start();` does
      await waitFor(() => errors.length === 1, 'the error event');
      // A later failing start, awaited: by its end, Node has long reported any rejection of the
      // first that nobody handled (it does so before the next turn of the event loop).
      const later = new Cloud({ projectId: 'y', host: ctx.sandbox.alternateCloudHost }).events();
      collect(later);
      await expect(later.start()).rejects.toThrow(/identify your bot/);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('rejects start() with a TypeError when the logs source has no logs endpoint', async () => {
    const cloud = Cloud.alternate('z', {
      purpose: 'tests',
      contact: '@tester',
      host: ctx.sandbox.alternateCloudHost,
    });
    await expect(cloud.events({ source: 'logs' }).start()).rejects.toThrow(TypeError);
    await expect(cloud.events({ source: 'logs' }).start()).rejects.toThrow(/pass the logsHost option/);
  });
});
