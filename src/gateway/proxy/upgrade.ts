// WebSocket upgrade requests on the proxy ports (the server's 'upgrade' event). node:http hands such a request over
// with its raw socket and no response object; this gives it one (a ServerResponse on that socket, closed once
// answered) so the pipeline answers it exactly as any request: refusals, and for an API that takes no upgrades the
// upstream's answer to the plain request (the Upgrade header is hop-by-hop). A step that takes the socket over
// either marks it (a GraphQL tunnel answers 101 through the response phase: upgrade-tunnel.ts) or never answers
// through `res` (a stream's WebSocket subscribers: the ws library writes the 101).
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** A response object on an upgrade request's socket; the socket is ended after the answer unless a tunnel took it. */
export function upgradeResponse(req: IncomingMessage, socket: Duplex): ServerResponse {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Parameters<ServerResponse['assignSocket']>[0]);
  res.once('finish', () => {
    if (tunnelled.has(socket)) return;
    res.detachSocket(socket as Parameters<ServerResponse['detachSocket']>[0]);
    socket.end();
  });
  socket.on('error', () => socket.destroy());
  return res;
}

const tunnelled = new WeakSet<Duplex>();

/** Marks the socket as taken over by a tunnel: answering the upgrade (101) does not end it. */
export function keepUpgradedSocket(socket: Duplex): void {
  tunnelled.add(socket);
}
