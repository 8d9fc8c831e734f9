/**
 * A server restart in the middle of a stream of sets: the sandbox closes and starts again on the
 * same port while a sender has sets queued. Both clients reconnect on their own; the receiver
 * ends with every value exactly once, in order.
 *
 * Each set names its own variable: whichever client reconnects first, a value set while the
 * receiver was away reaches it in the server's first frame (current values, in the order they
 * were set), and later ones live. So the outcome does not depend on who wins the race.
 */
import { afterAll, expect, it } from 'vitest';
import { Cloud } from '../../src/cloud/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { waitFor } from './support.js';

let sandbox: Sandbox | undefined;
afterAll(() => sandbox?.close());

const connect = (name: string, host: string) =>
  Cloud.alternate('restart', {
    purpose: 'restart test',
    contact: '@tester',
    host,
    username: name,
    rateLimit: 0.06,
    reconnectDelay: 0.05,
  });

it('delivers every set exactly once, in order, across a server restart', async () => {
  sandbox = await startSandbox();
  const port = sandbox.port;
  const host = sandbox.alternateCloudHost;
  const sender = connect('sender', host);
  const receiver = connect('receiver', host);
  await Promise.all([sender.connect(), receiver.connect()]);

  const disconnects: string[] = [];
  const reconnects: boolean[] = [];
  for (const [who, cloud] of [
    ['sender', sender],
    ['receiver', receiver],
  ] as const) {
    cloud.on('disconnect', (e) => disconnects.push(`${who} ${e.code} ${e.willReconnect}`));
    cloud.on('connect', (e) => reconnects.push(e.reconnected));
  }

  const seen: string[] = [];
  let restart: Promise<void> | undefined;
  let queuedAtRestart = 0;
  receiver.on('set', (e) => {
    seen.push(`${e.name}=${e.value}`);
    // Mid-stream, from inside the delivery of value 8: stop the server and start it again.
    if (e.value === '8' && !restart) {
      queuedAtRestart = sender.pendingSets;
      restart = sandbox!.close().then(async () => {
        sandbox = await startSandbox({ port });
      });
    }
  });

  const names = Array.from({ length: 24 }, (_, i) => `n${String(i + 1).padStart(2, '0')}`);
  await Promise.all(names.map((name, i) => sender.setVar(name, i + 1)));
  expect(restart).toBeDefined();
  expect(queuedAtRestart).toBe(names.length - 8);
  await restart;
  // A last marker: once it is in, any repeat of an earlier value would have arrived before it.
  await sender.setVar('done', 1);
  await waitFor(() => seen.includes('done=1'), 'the marker');

  expect(seen).toEqual([...names.map((name, i) => `${name}=${i + 1}`), 'done=1']);
  expect(disconnects.sort()).toEqual(['receiver 1001 true', 'sender 1001 true']);
  expect(reconnects).toEqual([true, true]);
  expect(sender.pendingSets).toBe(0);
  expect(sandbox!.port).toBe(port);
  await Promise.all([sender.disconnect(), receiver.disconnect()]);
});
