/**
 * Test-only: a TCP proxy that, while flapping, cuts each connection after a random lifetime, as
 * an unreliable network or load balancer would. Both sides are destroyed (no close frame: the
 * clients see 1006). When the target is down, a new connection is cut at once.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

export interface FlappingProxy {
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Connections cut by flapping. */
  readonly cut: number;
  /** Cut every connection after a random lifetime in [minMs, maxMs] (from now on, and existing ones). */
  flap(minMs: number, maxMs: number): void;
  /** Stop cutting. */
  steady(): void;
  close(): Promise<void>;
}

export async function startFlappingProxy(targetPort: number, host = '127.0.0.1'): Promise<FlappingProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket; timer: ReturnType<typeof setTimeout> | null }>();
  let flapping: { minMs: number; maxMs: number } | null = null;
  let accepted = 0;
  let cut = 0;

  const arm = (pair: { client: Socket; upstream: Socket; timer: ReturnType<typeof setTimeout> | null }) => {
    if (pair.timer !== null) clearTimeout(pair.timer);
    pair.timer = null;
    if (!flapping) return;
    const life = flapping.minMs + Math.random() * (flapping.maxMs - flapping.minMs);
    pair.timer = setTimeout(() => {
      cut++;
      pair.client.destroy();
      pair.upstream.destroy();
    }, life);
  };

  const server: Server = createServer((client) => {
    accepted++;
    const upstream = tcpConnect(targetPort, host);
    const pair = { client, upstream, timer: null as ReturnType<typeof setTimeout> | null };
    pairs.add(pair);
    const end = () => {
      if (pair.timer !== null) clearTimeout(pair.timer);
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
    client.on('close', end);
    upstream.on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
    arm(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    get accepted() {
      return accepted;
    },
    get cut() {
      return cut;
    },
    flap(minMs, maxMs) {
      flapping = { minMs, maxMs };
      for (const pair of pairs) arm(pair);
    },
    steady() {
      flapping = null;
      for (const pair of pairs) arm(pair);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) {
          pair.client.destroy();
          pair.upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
