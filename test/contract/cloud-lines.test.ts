/**
 * The cloud WebSocket's lines as the site's own web client writes them and as it reads the
 * server's (`test/fixtures/captured/cloud-lines.json`, from scratch-gui's cloud provider; source in
 * SOURCES.md): the client writes the very same bytes, and the sandbox's cloud host takes the
 * site's lines and answers with lines of the form the site reads.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { Cloud } from '../../src/cloud/cloud.js';
import { CloudState } from '../../src/sandbox/cloud/index.js';
import { HARNESS_PROJECT, type Harness, RawSocket, startHarness, waitFor } from '../cloud/support.js';
import { shapeOf } from '../support/json-shape.js';
import { closeLocal, listenLocal } from '../support/local-server.js';
import { captured } from './captured.js';

const site = captured<{ handshake: string; set: string; serverSet: string }>('cloud-lines.json');

/** One of the site's lines with its user and project changed, its keys kept in their order. */
const siteLine = (line: string, user: string, project: string): string =>
  `${JSON.stringify({ ...JSON.parse(line), user, project_id: project })}\n`;

describe("the client's lines are the site's", () => {
  it('the handshake and a set, byte for byte, one line per frame', async () => {
    const server = createServer();
    const wss = new WebSocketServer({ server });
    const frames: string[] = [];
    wss.on('connection', (socket) => socket.on('message', (data) => frames.push(data.toString())));
    const base = await listenLocal(server);
    const cloud = new Cloud({
      projectId: '1182391014',
      host: base.replace('http:', 'ws:'),
      username: 'ScratchCat',
    });
    try {
      await cloud.connect();
      await cloud.setVar('cloud', '1');
      await waitFor(() => frames.length >= 2, 'the set to arrive');
      expect(frames).toEqual([site.handshake, site.set]);
    } finally {
      await cloud.disconnect();
      for (const socket of wss.clients) socket.terminate();
      wss.close();
      await closeLocal(server);
    }
  });
});

describe("the sandbox's cloud host and the site's lines", () => {
  let harness: Harness;
  beforeAll(async () => {
    const state = new CloudState();
    state.project(HARNESS_PROJECT).values.set('☁ cloud', '0');
    harness = await startHarness({ state });
  });
  afterAll(() => harness.close());

  it("takes the site's handshake and set, and forwards the set in the form the site reads", async () => {
    const alice = new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid="sid-alice"' });
    const bob = new RawSocket(harness.wsUrl, { Cookie: 'scratchsessionsid="sid-bob"' });
    await Promise.all([alice.opened, bob.opened]);
    alice.send(siteLine(site.handshake, 'alice', HARNESS_PROJECT));
    bob.send(siteLine(site.handshake, 'bob', HARNESS_PROJECT));
    // The values the project holds, right after the handshake, in the form the site reads.
    expect(await bob.frame(1)).toBe(site.serverSet.replace('"value":"1"', '"value":"0"'));
    await alice.frame(1);
    alice.send(siteLine(site.set, 'alice', HARNESS_PROJECT));
    const forwarded = await bob.frame(2);
    expect(forwarded.split('\n').map((line) => shapeOf(JSON.parse(line)))).toEqual([
      shapeOf(JSON.parse(site.serverSet)),
    ]);
    expect(forwarded).toBe(site.serverSet);
    expect(alice.ws.readyState).toBe(WebSocket.OPEN);
    await Promise.all([alice.close(), bob.close()]);
  });
});
