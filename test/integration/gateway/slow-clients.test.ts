// Slow and numerous clients (issue 10, item 9): slow-header and slow-body connections are closed by the gateway
// at the configured timeouts while it keeps serving others, and the proxy port holds at most max_connections.
// A real gateway process; the clients are raw TCP sockets so nothing on the client side times out or retries.
import { connect, type Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';
import { waitUntil } from '../../support/wait.ts';
import { freePort } from '../../../src/up/ports.ts';

interface HeldConnection {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
  isOpen: () => boolean;
}

/** A raw connection to `url`; resolves once connected. Whatever the server sends is kept. */
async function hold(url: string): Promise<HeldConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  let open = true;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined); // a reset by the gateway is a close like any other
  const closed = new Promise<void>((resolveClose) => socket.once('close', () => ((open = false), resolveClose())));
  await new Promise<void>((resolveConnect, reject) => {
    socket.once('connect', resolveConnect);
    socket.once('close', () => reject(new Error('closed before connecting')));
  });
  return { socket, received: () => received, closed, isOpen: () => open };
}

/** Resolves when every promise has, fails when the deadline passes first. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** One request on a fresh connection that the gateway may refuse: the status, or undefined when it closed on us. */
async function statusOnFreshConnection(url: string, path: string): Promise<number | undefined> {
  const conn = await hold(url).catch(() => undefined);
  if (!conn) return undefined;
  conn.socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n`);
  await within(10_000, 'a response or a close', conn.closed);
  const status = /^HTTP\/1\.1 (\d{3})/.exec(conn.received())?.[1];
  return status ? Number(status) : undefined;
}

describe('slow clients', () => {
  let upstream: Upstream;
  let gw: RunningGateway;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway({ client_connections: { headers_timeout_seconds: 1, request_timeout_seconds: 2 } });
    expect((await gw.admin('POST', '/gw/apis', classicApi('open', '/open', upstream.url, { use_keyless: true }))).status).toBe(200);
    await gw.reload();
  });

  it('closes slow-header connections at the headers timeout while serving a normal request meanwhile', async () => {
    const slow = await Promise.all(Array.from({ length: 20 }, () => hold(gw.url)));
    const tricklers = slow.map((conn, i) => {
      conn.socket.write('GET /open/slow HTTP/1.1\r\nHost: test\r\n');
      // slowloris: one more header line now and then, never the blank line that ends them
      return setInterval(() => conn.isOpen() && conn.socket.write(`X-Slow-${i}: ${Date.now()}\r\n`), 200);
    });
    try {
      const normal = await gw.call('/open/normal');
      const stillOpen = slow.filter((conn) => conn.isOpen()).length;
      expect(normal.status).toBe(200);
      expect(stillOpen, 'slow connections open while the normal request was served').toBeGreaterThan(0);
      await within(15_000, 'every slow-header connection closed by the gateway', Promise.all(slow.map((conn) => conn.closed)));
      for (const conn of slow) expect(conn.received()).toMatch(/^HTTP\/1\.1 408/);
      expect(upstream.requests.filter((r) => r.url === '/slow')).toEqual([]);
    } finally {
      for (const trickler of tricklers) clearInterval(trickler);
      for (const conn of slow) conn.socket.destroy();
    }
  });

  it('closes a connection that trickles its body at the request timeout', async () => {
    const conn = await hold(gw.url);
    conn.socket.write('POST /open/upload HTTP/1.1\r\nHost: test\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n');
    const trickler = setInterval(() => conn.isOpen() && conn.socket.write('x'), 200);
    try {
      await within(15_000, 'the slow-body connection closed by the gateway', conn.closed);
    } finally {
      clearInterval(trickler);
    }
  });
});

describe('connection limit', () => {
  it('refuses the connection beyond max_connections and serves again once others close', async () => {
    const upstream = await startUpstream();
    const gw = await startGateway({ control_api_port: await freePort(), client_connections: { max_connections: 5 } });
    expect((await gw.admin('POST', '/gw/apis', classicApi('open', '/open', upstream.url, { use_keyless: true }))).status).toBe(200);
    await gw.reload();

    const held: HeldConnection[] = [];
    for (let i = 0; i < 5; i++) {
      const conn = await hold(gw.url);
      conn.socket.write('GET /open/held HTTP/1.1\r\nHost: test\r\n\r\n'); // keep-alive: the connection stays
      await waitUntil('a response on a held connection', async () => /^HTTP\/1\.1 200/.test(conn.received()));
      held.push(conn);
    }

    expect(await statusOnFreshConnection(gw.url, '/open/sixth'), 'the sixth connection').toBeUndefined();
    expect(
      held.every((conn) => conn.isOpen()),
      'the five held connections are untouched',
    ).toBe(true);
    held[0]!.socket.write('GET /open/still HTTP/1.1\r\nHost: test\r\n\r\n');
    await waitUntil('a held connection is still served', async () => held[0]!.received().includes('/still'));

    for (const conn of held) conn.socket.destroy();
    await waitUntil('a new connection is served once the held ones closed', async () => (await statusOnFreshConnection(gw.url, '/open/after')) === 200);
    expect(upstream.requests.map((r) => r.url)).not.toContain('/sixth');
  });
});
