// One client connection of a tcp or tls API piped to its upstream: dial `tcp://` plainly or `tls://` with a verified
// handshake (the system's trust plus NODE_EXTRA_CA_CERTS, the name checked against the target host), then bytes
// both ways with back-pressure (pipe) and half-close passed on (a client that stops sending still gets the answer).
// Bounded: the upstream must answer within connect_timeout_seconds, and a connection that carries no byte either
// way for idle_timeout_seconds is closed on both sides. Nothing of the stream is read or logged.
import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { Logger } from 'pino';
import type { TcpApi } from './tcp-api.ts';

export interface PipeBounds {
  connectMs: number;
  idleMs: number;
}

/** Pipes `client` (plain, or the decrypted side of a tls listener) to the API's upstream. */
export function pipeToUpstream(client: Socket, api: TcpApi, bounds: PipeBounds, log: Logger): void {
  const { host, port, tls } = api.target;
  const upstream = tls ? connectTls({ host, port, ...(isIP(host) ? {} : { servername: host }) }) : connectTcp({ host, port, allowHalfOpen: true });
  let connected = false;
  upstream.setTimeout(bounds.connectMs, () => {
    if (connected) return;
    log.warn({ api_id: api.id, target: `${host}:${port}` }, `tcp api ${api.id}: upstream did not answer within ${bounds.connectMs} ms`);
    upstream.destroy();
  });
  upstream.once(tls ? 'secureConnect' : 'connect', () => {
    connected = true;
    upstream.setTimeout(0);
    // Activity either way (reads and writes) resets the client socket's timer.
    client.setTimeout(bounds.idleMs, () => {
      client.destroy();
      upstream.destroy();
    });
  });
  upstream.on('error', (error: Error) => {
    log.warn({ api_id: api.id, target: `${host}:${port}`, err: error.message }, `tcp api ${api.id}: upstream connection failed`);
    client.destroy();
  });
  client.on('error', () => upstream.destroy());
  upstream.on('close', (hadError) => (hadError || !connected ? client.destroy() : client.end()));
  client.on('close', () => upstream.destroy());
  client.pipe(upstream);
  upstream.pipe(client);
}
