/**
 * The cloud rate limit belongs to the user and the project (issue 10 §2): reconnecting does not
 * refill the bucket, other users and projects have their own, and the table of buckets is bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateBuckets } from '../../src/sandbox/rules/rate-buckets.js';
import { BOT_AGENT, type Harness, RawSocket, startHarness, waitFor } from './support.js';

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ alternateRateLimit: { perSecond: 0.5, burst: 5 } });
});
afterAll(() => harness.close());

/** A guest joined to `projectId`, after the server counted its handshake. */
async function guest(user: string, projectId: string): Promise<RawSocket> {
  const socket = new RawSocket(harness.altUrl, { 'User-Agent': BOT_AGENT });
  await socket.opened;
  const before = harness.cloud.members('alternate', projectId);
  socket.send({ method: 'handshake', user, project_id: projectId });
  await waitFor(() => harness.cloud.members('alternate', projectId) > before, `${user} to join`);
  return socket;
}

const set = (user: string, projectId: string, value: number) => ({
  method: 'set',
  name: '☁ n',
  value,
  user,
  project_id: projectId,
});

describe('rate limit per user and project', () => {
  it('does not refill when the same user reconnects', async () => {
    const first = await guest('racer', '100');
    for (let i = 1; i <= 5; i++) first.send(set('racer', '100', i));
    await waitFor(() => harness.cloud.alternateState.peek('100')?.values.get('☁ n') === 5, 'the burst');
    await first.close();
    const second = await guest('RACER', '100'); // the same user, whatever the case
    second.send(set('RACER', '100', 6));
    const closed = await second.closed;
    expect(closed.code).toBe(4003);
    expect(closed.reason).toMatch(/rate limit/);
    expect(harness.cloud.alternateState.peek('100')?.values.get('☁ n')).toBe(5);
  });

  it('gives other users and other projects their own buckets', async () => {
    const other = await guest('walker', '100');
    const elsewhere = await guest('racer', '101');
    for (let i = 1; i <= 5; i++) {
      other.send(set('walker', '100', 10 + i));
      elsewhere.send(set('racer', '101', 20 + i));
    }
    await waitFor(
      () =>
        harness.cloud.alternateState.peek('100')?.values.get('☁ n') === 15 &&
        harness.cloud.alternateState.peek('101')?.values.get('☁ n') === 25,
      'both bursts',
    );
    expect(other.closeInfo).toBeNull();
    expect(elsewhere.closeInfo).toBeNull();
    await Promise.all([other.close(), elsewhere.close()]);
  });
});

describe('the bucket table', () => {
  it('stays within its bound, dropping refilled buckets first, then the least recently used', () => {
    const buckets = new RateBuckets({ perSecond: 1, burst: 2 }, 100);
    for (let i = 0; i < 1000; i++) buckets.take(`user${i}`, 0);
    expect(buckets.size).toBeLessThanOrEqual(100);
    // A drained bucket that was used recently survives a wave of new keys; its state is kept.
    buckets.take('busy', 1000);
    buckets.take('busy', 1000);
    expect(buckets.take('busy', 1000)).toBe(false);
    for (let i = 0; i < 50; i++) buckets.take(`late${i}`, 1000);
    expect(buckets.size).toBeLessThanOrEqual(100);
    expect(buckets.take('busy', 1000)).toBe(false);
    // Refilled buckets are the same as new ones: they are the first to go.
    for (let i = 0; i < 500; i++) buckets.take(`later${i}`, 10_000);
    expect(buckets.size).toBeLessThanOrEqual(100);
  });
});
