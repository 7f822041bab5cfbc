// The bounds TcpListeners puts on a tcp API's connections, with real loopback sockets and an echo upstream:
// tcp_proxy.max_connections_per_api (a connection beyond it is closed unanswered; a freed slot serves again) and
// tcp_proxy.idle_timeout_seconds (a silent connection is closed on both sides).
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../up/ports.ts';
import { GatewayConfigSchema } from '../config.ts';
import { ServerCertificates } from '../tls/server-certificates.ts';
import { waitUntil } from '../../../test/support/wait.ts';
import type { TcpApi } from './tcp-api.ts';
import { TcpListeners } from './tcp-listeners.ts';

async function open(port: number): Promise<{ socket: Socket; closed: Promise<void>; echo(text: string): Promise<string> }> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolveConnect, reject) => socket.once('connect', resolveConnect).once('error', reject));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolveClose) => socket.once('close', () => resolveClose()));
  return {
    socket,
    closed,
    echo: (text) =>
      new Promise((resolveEcho) => {
        socket.once('data', (data) => resolveEcho(data.toString()));
        socket.write(text);
      }),
  };
}

/** A connection the gateway serves (echoes through), retried while the API's one slot is still taken. */
function served(port: number): ReturnType<typeof open> {
  return waitUntil('a connection to be served', async () => {
    const client = await open(port);
    const answer = await Promise.race([client.echo('ping'), client.closed.then(() => undefined)]);
    return answer === 'ping' && client;
  });
}

/** TcpListeners serving one tcp API to `upstreamPort` on a free port, with these tcp_proxy options. */
async function serveEcho(upstreamPort: number, tcpProxy: Record<string, number>): Promise<{ listeners: TcpListeners; port: number }> {
  const port = await freePort();
  const config = GatewayConfigSchema.parse({ secret: 's', listen_address: '127.0.0.1', disable_ports_whitelist: true, tcp_proxy: tcpProxy });
  const listeners = new TcpListeners({ config, certificates: new ServerCertificates('TLSv1.2'), reusePort: false, log: pino({ level: 'silent' }) });
  const api: TcpApi = {
    id: 'echo',
    protocol: 'tcp',
    port,
    target: { tls: false, host: '127.0.0.1', port: upstreamPort },
    domain: undefined,
    ipAccess: undefined,
    certificates: [],
    fingerprint: 'echo',
  };
  expect(await listeners.apply([api])).toEqual([]);
  return { listeners, port };
}

describe('tcp API connection bounds', () => {
  let upstream: Server;
  let bounded: { listeners: TcpListeners; port: number };
  let idle: { listeners: TcpListeners; port: number };

  beforeAll(async () => {
    upstream = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolveListen) => upstream.listen(0, '127.0.0.1', resolveListen));
    const upstreamPort = (upstream.address() as AddressInfo).port;
    bounded = await serveEcho(upstreamPort, { max_connections_per_api: 1 });
    idle = await serveEcho(upstreamPort, { idle_timeout_seconds: 0.3 });
  });
  afterAll(async () => {
    await Promise.all([bounded.listeners.close(), idle.listeners.close()]);
    upstream.close();
  });

  it('closes a connection beyond max_connections_per_api unanswered, and serves again once a slot frees', async () => {
    const first = await open(bounded.port);
    expect(await first.echo('one')).toBe('one');
    const second = await open(bounded.port);
    await second.closed;
    expect(second.socket.bytesRead).toBe(0);
    first.socket.destroy();
    await first.closed;
    // The slot frees once the gateway sees the first one's close: poll until a connection is served.
    const third = await served(bounded.port);
    third.socket.destroy();
  });

  it('closes a connection that carries no byte for idle_timeout_seconds', async () => {
    const client = await served(idle.port);
    await client.closed;
    expect(client.socket.destroyed).toBe(true);
  });
});
