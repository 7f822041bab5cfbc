// WebSocket upgrade requests on the proxy ports (the server's 'upgrade' event). node:http hands such a request over
// with its raw socket and no response object; this gives it one (a ServerResponse on that socket, closed once
// answered) so the pipeline answers refusals exactly as for any request. Only GraphQL APIs tunnel upgrades (their
// subscriptions, upgrade-tunnel.ts); every other upgrade request is handled as the plain request it was before
// the gateway listened for upgrades (the caller re-emits it as 'request'), on a connection closed after the answer.
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** A response object on an upgrade request's socket; the socket is ended after the answer unless a tunnel took it. */
export function upgradeResponse(req: IncomingMessage, socket: Duplex, head: Buffer): ServerResponse {
  if (head.length > 0) socket.unshift(head);
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

export function isWebSocketUpgrade(req: IncomingMessage): boolean {
  return req.headers.upgrade?.toLowerCase() === 'websocket';
}
