// A test's own HTTP (or raw TCP) server on a free loopback port.
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo, Server as NetServer } from 'node:net';

/** Listens on a free loopback port and answers the server's base URL, e.g. `http://127.0.0.1:41234`. */
export async function listenLocal(server: Server | NetServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes the server and every connection it still holds. */
export async function closeLocal(server: Server | NetServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/**
 * A request's whole body as text (a test server's; loopback bodies are small), or null when the
 * client went away before its end (nothing to answer then).
 */
export async function requestBody(req: IncomingMessage): Promise<string | null> {
  let body = '';
  try {
    for await (const chunk of req) body += chunk;
  } catch {
    return null;
  }
  return body;
}
