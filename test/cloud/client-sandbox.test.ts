/**
 * The client against the sandbox, which answers like the real servers: nothing after a
 * handshake on a project without values (so `connect()` must not wait for a frame), and text
 * values dropped silently on the alternate endpoint (so the client refuses them by default).
 */
import { describe, expect, it } from 'vitest';
import { Cloud, type CloudSetEvent, encode } from '../../src/index.js';
import { useSandbox } from '../support/sandbox.js';
import { waitFor } from './support.js';

const ctx = useSandbox();

function guest(
  projectId: string,
  username: string,
  options: Partial<Parameters<typeof Cloud.alternate>[1]> = {},
) {
  return Cloud.alternate(projectId, {
    purpose: 'tests',
    contact: '@tester',
    host: ctx.sandbox.alternateCloudHost,
    username,
    initialValuesWait: 60, // a client that waited for a frame would time out here
    ...options,
  });
}

describe('the sandbox answers like the real servers, and the client follows', () => {
  it('connect() on a project without values settles without a frame; the first set after it is live', async () => {
    const reader = guest('client-empty', 'reader');
    const seen: CloudSetEvent[] = [];
    reader.on('set', (event) => seen.push(event));
    await reader.connect();
    expect(reader.getAllVars()).toEqual({});
    const writer = guest('client-empty', 'writer');
    await writer.setVar('score', 5);
    await waitFor(() => seen.length === 1, 'the set');
    expect(seen).toEqual([{ name: 'score', value: '5', initial: false }]);
    await Promise.all([reader.disconnect(), writer.disconnect()]);
  });

  it('text sent anyway (allowNonNumeric) is dropped by the alternate endpoint; encoded text arrives', async () => {
    const reader = guest('client-text', 'reader');
    const seen: string[] = [];
    reader.on('set', ({ name, value }) => seen.push(`${name}=${value}`));
    await reader.connect();
    const optIn = guest('client-text', 'texter', { allowNonNumeric: true });
    await optIn.setVar('greeting', 'hello');
    const writer = guest('client-text', 'writer');
    await expect(writer.setVar('greeting', 'hello')).rejects.toThrow(/must be numeric/);
    await writer.setVar('greeting', encode('hello'));
    await waitFor(() => seen.length >= 1, 'the encoded greeting');
    // The text never arrived: the encoded value is the only one, although it was sent later.
    expect(seen).toEqual([`greeting=${encode('hello')}`]);
    await Promise.all([reader.disconnect(), optIn.disconnect(), writer.disconnect()]);
  });
});
