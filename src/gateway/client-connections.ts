// How the gateway's listening HTTP servers treat client connections (config `client_connections`): the limits a
// reverse proxy in front of the internet needs so that slow or idle clients cannot hold it open.
//   headers_timeout_seconds    the complete request headers must arrive within it (slowloris): 408, disconnect;
//   request_timeout_seconds    the whole request, body included (a client trickling its body): 408, disconnect;
//   keep_alive_timeout_seconds an idle keep-alive connection is closed after it;
//   max_connections            connections the proxy port holds at once; one beyond it is closed as soon as it is
//                              accepted (Node's server.maxConnections), before a byte is read, so a flood costs
//                              the gateway one accept and one close each and the connections it holds keep being
//                              served. The management port, when separate, is not limited (the operator and
//                              probes still reach it during a flood).
// Node enforces the two request timeouts from a periodic sweep (30 s by default): the sweep here runs every
// second, so a timeout is honoured within a second of its deadline. Owns no request handling.
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer, type ServerOptions as HttpsServerOptions } from 'node:https';
import type { Logger } from 'pino';
import type { GatewayConfig } from './config.ts';

type ClientConnections = GatewayConfig['client_connections'];

const SWEEP_MS = 1_000;
const DROP_LOG_INTERVAL_MS = 10_000;

/** An HTTP server for clients (the proxy port) with the configured timeouts and connection limit. */
export function createClientServer(limits: ClientConnections, listener: RequestListener, log: Logger): Server {
  const server = createServer(serverOptions(limits), listener);
  limitConnections(server, limits.max_connections, log);
  return server;
}

/** The same for HTTPS: the same timeouts and connection limit, plus the TLS options (tls/https-listener.ts). */
export function createClientTlsServer(limits: ClientConnections, tls: HttpsServerOptions, listener: RequestListener, log: Logger): HttpsServer {
  const server = createHttpsServer({ ...serverOptions(limits), ...tls }, listener);
  limitConnections(server, limits.max_connections, log);
  return server;
}

function serverOptions(limits: ClientConnections): ServerOptions {
  return {
    headersTimeout: limits.headers_timeout_seconds * 1000,
    requestTimeout: limits.request_timeout_seconds * 1000,
    keepAliveTimeout: limits.keep_alive_timeout_seconds * 1000,
    connectionsCheckingInterval: SWEEP_MS,
  };
}

/** Applies the timeouts to a server created elsewhere (Fastify's, on a separate management port). */
export function applyClientTimeouts(server: Server, limits: ClientConnections): Server {
  server.headersTimeout = limits.headers_timeout_seconds * 1000;
  server.requestTimeout = limits.request_timeout_seconds * 1000;
  server.keepAliveTimeout = limits.keep_alive_timeout_seconds * 1000;
  return server;
}

/** Caps the connections held at once; logs refused connections at most once per interval, with their count. */
function limitConnections(server: Server, max: number, log: Logger): void {
  server.maxConnections = max;
  let dropped = 0;
  let lastLog = 0;
  server.on('drop', () => {
    dropped++;
    const now = Date.now();
    if (now - lastLog < DROP_LOG_INTERVAL_MS) return;
    log.warn({ dropped, max_connections: max }, 'client connections refused: client_connections.max_connections reached');
    lastLog = now;
    dropped = 0;
  });
}
