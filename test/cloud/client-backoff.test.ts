/**
 * Issue 10 §3: a server that takes the handshake and closes at once. The count of failed tries
 * must not start over when such a connection becomes ready, so the waits grow to their cap and
 * `error` says what is happening; a connection that stays up does start it over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Cloud, CloudError } from '../../src/index.js';
import { type Peer, startPeer } from './client-peer.js';
import { waitFor } from './support.js';

const peers: Peer[] = [];
const clouds: Cloud[] = [];
afterEach(async () => {
  await Promise.all(clouds.splice(0).map((cloud) => cloud.disconnect()));
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

function bot(server: Peer, options: Partial<Parameters<typeof Cloud.alternate>[1]>): Cloud {
  const cloud = Cloud.alternate('flap', {
    purpose: 'tests',
    contact: '@tester',
    host: server.url,
    ...options,
  });
  clouds.push(cloud);
  return cloud;
}

/** Watches a cloud: its connects and its errors. */
function watch(cloud: Cloud) {
  const seen = { connects: 0, errors: [] as Error[] };
  cloud.on('connect', () => seen.connects++);
  cloud.on('error', (error) => seen.errors.push(error));
  return seen;
}

describe('backing off from a flapping server', () => {
  it('a server that closes right after each handshake: the count of tries grows and the waits grow to their cap', async () => {
    // Answers the handshake (values included), then drops the connection at once.
    const server = await startPeer({ handshaken: (ws) => ws.close(1001, 'going away') });
    peers.push(server);
    server.broadcast('flap', '☁ v', '1'); // a value, so each handshake is answered before the close
    // Units of 50 ms: waits of up to 0.05, 0.15, 0.35, 0.75, 1.55 s, then 1.55 s at most.
    const cloud = bot(server, { reconnectDelay: 0.05 });
    const seen = watch(cloud);
    await cloud.connect();
    // From the second drop in a row on, `error` says what happens, with the growing cap. Before
    // the fix every connection reset the count: no error ever came, and the wait timed out.
    await waitFor(() => seen.errors.length >= 5, 'five drops in a row reported');
    const errors = seen.errors.slice(0, 5);
    // Each error follows one more drop: the first connection's, then one per error.
    expect(server.handshakes).toBeGreaterThanOrEqual(errors.length + 1);
    for (const error of errors) {
      expect(error).toBeInstanceOf(CloudError);
      expect(error.message).toMatch(
        /the server closed the connection [\d.]+ s after the handshake \(code 1001, "going away"\); \d+ tries in a row without a connection that stayed up 10 s\. Next try in [\d.]+ s/,
      );
      expect((error as CloudError).closeCode).toBe(1001);
    }
    const caps = errors.map((error) => /up to ([\d.]+) s now/.exec(error.message)![1]);
    expect(caps).toEqual(['0.15', '0.35', '0.75', '1.55', '1.55']);
    const tries = errors.map((error) => Number(/; (\d+) tries in a row/.exec(error.message)![1]));
    expect(tries).toEqual([2, 3, 4, 5, 6]);
  });

  it('a connection that stays up starts the count over: no error, quick reconnects', async () => {
    const server = await startPeer({ handshaken: (ws) => setTimeout(() => ws.close(1001, 'restart'), 150) });
    peers.push(server);
    const cloud = bot(server, { reconnectDelay: 0.02, stableAfter: 0.05 });
    const seen = watch(cloud);
    await cloud.connect();
    await waitFor(() => seen.connects >= 5, 'five connections');
    // Each connection stayed up 150 ms, more than stableAfter: each drop is a first failure.
    expect(seen.errors).toEqual([]);
  });

  it('reconnects that fail (nothing listens) are reported from the second in a row', async () => {
    const server = await startPeer();
    peers.push(server);
    const cloud = bot(server, { reconnectDelay: 0.02 });
    const seen = watch(cloud);
    await cloud.connect();
    await server.close();
    peers.length = 0;
    await waitFor(() => seen.errors.length >= 2, 'two failed reconnects reported');
    expect(seen.errors[0]!.message).toMatch(
      /a reconnect failed \(.*ECONNREFUSED.*\); 2 tries in a row without a connection that stayed up 10 s\. Next try in/,
    );
    expect(seen.errors[1]!.message).toMatch(/; 3 tries in a row/);
    expect(cloud.state).toBe('waiting');
  });
});
