/**
 * Test-only, kept for what the real web client cannot show (cloud-in-browser.test.ts: the close
 * code of a refused socket, which scratch-gui's provider discards); the web client itself runs in
 * scratch-gui.test.ts. A web page whose cloud code handles the wire exactly as the Scratch web client does
 * (scratch-gui's `src/lib/cloud-provider.js`, written here from a reading of it, not copied):
 *
 * - the handshake and every set are one `JSON.stringify` of `{method, user, project_id, name?,
 *   value?}` followed by `\n`, sent as a string (a text frame);
 * - a message from the server is taken as a string: `event.data.split('\n')`, empty pieces
 *   skipped, `JSON.parse` of each, and a `set` becomes `{varUpdate: {name, value}}` for the VM.
 *   A binary frame arrives as a `Blob`, which has no `split`: the handler throws, as the web
 *   client's does.
 *
 * Where the web client hands an update to the VM, the page records it; where it would reconnect
 * after a close, the page records the close (a test must see it).
 */

/** What a test reads back from the page's `window.cloud`. */
export interface PageCloud {
  /** Every `{varUpdate}` / `{varCreate}` / `{}` the provider would have posted to the VM, in order. */
  updates: { varUpdate?: { name: string; value: string | number } }[];
  /** Frames received (the raw count, whatever their type). */
  frames: number;
  opened: boolean;
  closes: { code: number; reason: string }[];
}

const SCRIPT = String.raw`
'use strict';
class CloudProvider {
  constructor(cloudUrl, username, projectId) {
    this.cloudUrl = cloudUrl;
    this.username = username;
    this.projectId = projectId;
    this.updates = [];
    this.frames = 0;
    this.opened = false;
    this.closes = [];
    this.connection = new WebSocket(cloudUrl);
    this.connection.onerror = () => {}; // the web client only logs; a close always follows
    this.connection.onmessage = this.onMessage.bind(this);
    this.connection.onopen = this.onOpen.bind(this);
    this.connection.onclose = (event) => this.closes.push({ code: event.code, reason: event.reason });
  }

  onMessage(event) {
    this.frames++;
    const messageString = event.data;
    // Several messages may come in one frame, one per line.
    messageString.split('\n').forEach((message) => {
      if (message) {
        this.updates.push(this.parseMessage(JSON.parse(message)));
      }
    });
  }

  onOpen() {
    this.opened = true;
    this.writeToServer('handshake');
  }

  parseMessage(message) {
    const varData = {};
    switch (message.method) {
      case 'ack':
        varData.varCreate = { name: message.name };
        break;
      case 'set':
        varData.varUpdate = { name: message.name, value: message.value };
        break;
    }
    return varData;
  }

  writeToServer(methodName, dataName, dataValue) {
    const msg = {};
    msg.method = methodName;
    msg.user = this.username;
    msg.project_id = this.projectId;
    if (dataName) msg.name = dataName;
    if (typeof dataValue !== 'undefined') msg.value = dataValue;
    this.connection.send(JSON.stringify(msg) + '\n');
  }

  updateVariable(name, value) {
    this.writeToServer('set', name, value);
  }
}

window.clouds = {};

window.openCloud = (key, cloudUrl, username, projectId) => {
  window.clouds[key] = new CloudProvider(cloudUrl, username, projectId);
};

window.setCloudVar = (key, name, value) => window.clouds[key].updateVariable(name, value);

window.readCloud = (key) => {
  const c = window.clouds[key];
  return { updates: c.updates, frames: c.frames, opened: c.opened, closes: c.closes };
};
`;

/** The page: no other resource to load (the icon is inline), so nothing else can fail. */
export const SCRATCH_CLOUD_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>cloud</title></head>
<body><script>${SCRIPT}</script></body></html>`;
