// What the default transport puts on the wire, read back by a plain node:http server.
import { createServer, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/http/http.js';
import { closeLocal, listenLocal } from '../support/local-server.js';

let base = '';
const server = createServer((request: IncomingMessage, response) => {
  // rawHeaders keeps every line as sent, so a header sent twice shows twice.
  const lines = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i]!.toLowerCase() === 'accept-encoding') lines.push(request.rawHeaders[i + 1]);
  }
  response.setHeader('Content-Type', 'application/json');
  response.end(JSON.stringify(lines));
});

beforeAll(async () => {
  base = await listenLocal(server);
});
afterAll(async () => {
  await closeLocal(server);
});

describe('default transport headers', () => {
  it('asks for the encodings it decodes when the caller names none', async () => {
    expect(await new HttpClient().json<string[]>(`${base}/`)).toEqual(['gzip, deflate, br']);
  });

  it("sends the caller's Accept-Encoding alone, whatever its case", async () => {
    const http = new HttpClient();
    expect(await http.json<string[]>(`${base}/`, { headers: { 'Accept-Encoding': 'identity' } })).toEqual([
      'identity',
    ]);
  });
});
