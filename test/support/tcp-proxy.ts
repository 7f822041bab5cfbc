// A loopback TCP proxy a test controls, in front of a real server (the kube-apiserver): bytes are forwarded as
// they are, so TLS and HTTP are end to end. `hang()` stops forwarding: connections open from then on are accepted
// and never connected, and open ones stop passing bytes either way (held, as a stalled network holds them), until
// `resume()`. Closed by the test's afterAll.
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll } from 'vitest';

export interface TcpProxy {
  /** host:port to put where the real server's address was. */
  address: string;
  hang(): void;
  resume(): void;
}

const servers = new Set<{ server: Server; sockets: Set<Socket> }>();
afterAll(async () => {
  for (const { server, sockets } of servers) {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
  servers.clear();
});

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let hanging = false;
  const pairs = new Set<[Socket, Socket]>();
  const waiting: Socket[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket): Socket => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  };
  const forward = (client: Socket): void => {
    const upstream = track(connect(target.port, target.host));
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    // Written by hand rather than piped: pause() then holds a side until resume(), whatever the other side drains.
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  };
  const server = createServer((client) => {
    track(client);
    if (hanging) {
      client.pause();
      waiting.push(client);
    } else forward(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.add({ server, sockets });
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    hang() {
      hanging = true;
      for (const [client, upstream] of pairs) {
        client.pause();
        upstream.pause();
      }
    },
    resume() {
      hanging = false;
      for (const [client, upstream] of pairs) {
        client.resume();
        upstream.resume();
      }
      for (const client of waiting.splice(0)) {
        forward(client);
        client.resume();
      }
    },
  };
}
