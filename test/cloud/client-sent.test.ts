/**
 * The `sent` event: one per set of this client's actually written to the server (servers never
 * echo them back), with the name without `☁ ` and the value as written. Live charts rely on it.
 */
import { afterEach, expect, it } from 'vitest';
import { Cloud, type CloudSentEvent } from '../../src/index.js';
import { type Peer, startPeer } from './client-peer.js';
import { waitFor } from './support.js';

let server: Peer | undefined;
afterEach(() => server?.close());

it('is emitted once per written set, in order, with the value as written; not for refused or dropped sets', async () => {
  server = await startPeer();
  const cloud = Cloud.alternate('sent', {
    purpose: 'tests',
    contact: '@tester',
    host: server.url,
    rateLimit: 0,
  });
  const sent: CloudSentEvent[] = [];
  const seenAtSend: (string | undefined)[] = [];
  cloud.on('sent', (event) => {
    sent.push(event);
    seenAtSend.push(cloud.getVar(event.name));
  });
  await cloud.setVars({ a: 1, '☁ b': '2.5', c: 1e21 });
  await expect(cloud.setVar('d', 'text')).rejects.toThrow(TypeError);
  expect(sent).toEqual([
    { name: 'a', value: '1' },
    { name: 'b', value: '2.5' },
    { name: 'c', value: '1000000000000000000000' },
  ]);
  expect(seenAtSend).toEqual(['1', '2.5', '1000000000000000000000']); // already the latest value
  await waitFor(() => Object.keys(server!.values('sent')).length === 3, 'the server to hold them');

  // Sets still queued when disconnect() is called are rejected, never written, never `sent`.
  const paced = Cloud.alternate('sent', {
    purpose: 'tests',
    contact: '@tester',
    host: server.url,
    rateLimit: 5,
  });
  const pacedSent: string[] = [];
  paced.on('sent', ({ name }) => pacedSent.push(name));
  const first = paced.setVar('x', 1);
  const second = expect(paced.setVar('y', 2)).rejects.toThrow(/disconnected/);
  await first;
  await paced.disconnect();
  await second;
  expect(pacedSent).toEqual(['x']);
  await cloud.disconnect();
});
