// Bench-only: the fan-out of TurboWarp's cloud-server (the alternate server's code), written from a
// reading of its src/server.js (not copied), for measuring the sandbox against it side by side.
//
// As there: a connection's frame is parsed with JSON.parse, a handshake joins a room (any username
// of 3-20 letters, digits, `_` or `-`, a room id of digits), a set's value must be numeric or it
// is dropped, the room keeps the value, and the set goes into the buffer of every other member.
// `bufferSends` times a second (60, its default) each buffer goes out as one text frame, its sets
// joined by `\n` (a string, so `ws` encodes it once per receiver). Frames are text everywhere.
//
// Two steps of the current source are left out, so the model is at least as fast as the real
// server on the bench's workload: it serializes each set once (the current source builds the
// JSON of every buffered set for each receiver at flush time), and it does not replace a set still
// waiting in a receiver's buffer by a newer one of the same variable (with one variable set over
// and over, that would deliver fewer sets than were sent, so the counts would not compare).
import { createServer } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';

const BUFFER_SENDS = 60;
const USERNAME = /^[a-z0-9_-]{3,20}$/i;
const ROOM_ID = /^\d+$/;

/** Its value rule: an optional leading `-`, then digits and at most one `.`; not `-` or `.` alone. */
function isValidValue(value) {
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string' || value.length >= 100_000 || value === '-' || value === '.') return false;
  let i = value.charCodeAt(0) === 45 ? 1 : 0;
  let dot = false;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 46) {
      if (dot) return false;
      dot = true;
    } else if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Starts the model on a loopback port; resolves to its URL and a close function. */
export async function startTurboWarpModel() {
  const server = createServer();
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, perMessageDeflate: false });
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
  );
  /** room id -> { values: Map, clients: Set<WebSocket> } */
  const rooms = new Map();
  /** receiver -> set lines waiting for the next flush */
  const buffered = new Map();
  const sockets = new Set();
  const timer = setInterval(() => {
    for (const [ws, lines] of buffered) if (ws.readyState === WebSocket.OPEN) ws.send(lines.join('\n'));
    buffered.clear();
  }, 1000 / BUFFER_SENDS);

  wss.on('connection', (ws, req) => {
    sockets.add(ws);
    if (!req.headers['user-agent']) {
      ws.send('Please provide a valid User-Agent header.');
      ws.close(4006);
      return;
    }
    let room = null;
    ws.on('error', () => undefined);
    ws.on('close', () => {
      sockets.delete(ws);
      buffered.delete(ws);
      room?.clients.delete(ws);
    });
    ws.on('message', (data, isBinary) => {
      if (ws.readyState !== WebSocket.OPEN || isBinary) return;
      let message;
      try {
        message = JSON.parse(data.toString());
      } catch {
        ws.close(4000);
        return;
      }
      if (!message || typeof message !== 'object' || typeof message.method !== 'string')
        return ws.close(4000);
      if (message.method === 'handshake') {
        const id = `${message.project_id}`;
        if (room || !ROOM_ID.test(id)) return ws.close(4000);
        if (!USERNAME.test(String(message.user))) return ws.close(4002);
        room = rooms.get(id);
        if (room) {
          const lines = [];
          for (const [name, value] of room.values) lines.push(JSON.stringify({ method: 'set', name, value }));
          if (lines.length > 0) ws.send(lines.join('\n'));
        } else {
          room = { values: new Map(), clients: new Set() };
          rooms.set(id, room);
        }
        room.clients.add(ws);
        return;
      }
      if (!room) return ws.close(4000);
      if (message.method !== 'set' && message.method !== 'create') return;
      if (!isValidValue(message.value)) return;
      room.values.set(message.name, message.value);
      if (room.clients.size < 2) return;
      const line = JSON.stringify({ method: 'set', name: message.name, value: message.value });
      for (const other of room.clients) {
        if (other === ws) continue;
        const lines = buffered.get(other);
        if (lines) lines.push(line);
        else buffered.set(other, [line]);
      }
    });
  });

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        clearInterval(timer);
        for (const ws of sockets) ws.terminate();
        wss.close();
        server.close(resolve);
      }),
  };
}
