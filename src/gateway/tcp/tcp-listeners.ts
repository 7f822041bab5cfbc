// The listeners of tcp and tls APIs (their own listen_port each), kept in step with every load: a port no API wants
// any more is closed with its connections, a port whose APIs stay keeps its socket and its open connections (an API
// that changed serves new connections with its new definition), a new port opens; an API gone from a port that
// stays has its connections closed. As the HTTP listeners, worker threads share each port (SO_REUSEPORT).
//
// On accept: the API (tcp: the port's one API; tls: by SNI as Tyk Gateway routes, exact domain, then the API
// without a domain; no SNI: the port's only API), its IP lists (a refused client is disconnected; Tyk Gateway
// applies no IP list to streams), then the per-API bound of open connections, then the pipe (tcp-connection.ts).
// Nothing is answered on a refusal: the connection is closed, as Tyk Gateway does (streams have no status).
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket, type Server as TlsServer } from 'node:tls';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config.ts';
import type { LoadProblem } from '../load-problem.ts';
import type { ServerCertificates } from '../tls/server-certificates.ts';
import { tlsVersion } from '../tls/tls-versions.ts';
import { planPorts, type PortPlan } from './port-plan.ts';
import type { TcpApi } from './tcp-api.ts';
import { pipeToUpstream, type PipeBounds } from './tcp-connection.ts';

interface Listener {
  protocol: 'tcp' | 'tls';
  server: Server;
  apis: TcpApi[];
  /** Open connections by API id. */
  connections: Map<string, Set<Socket>>;
}

export interface TcpListenerDeps {
  config: GatewayConfig;
  certificates: ServerCertificates;
  /** Worker threads share the ports. */
  reusePort: boolean;
  log: Logger;
}

export class TcpListeners {
  readonly #listeners = new Map<number, Listener>();
  readonly #deps: TcpListenerDeps;
  readonly #bounds: PipeBounds;

  constructor(deps: TcpListenerDeps) {
    this.#deps = deps;
    const { connect_timeout_seconds: connect, idle_timeout_seconds: idle } = deps.config.tcp_proxy;
    this.#bounds = { connectMs: connect * 1000, idleMs: idle * 1000 };
  }

  /** The APIs being served (their certificates are offered on the tls ports). */
  apis(): TcpApi[] {
    return [...this.#listeners.values()].flatMap((listener) => listener.apis);
  }

  /** Serves these APIs from now on; answers the ones that could not have their port. */
  async apply(apis: readonly TcpApi[]): Promise<LoadProblem[]> {
    const { plans, problems } = planPorts(apis, this.#deps.config, (id, port) => this.#listeners.get(port)?.apis.some((api) => api.id === id) === true);
    for (const [port, listener] of this.#listeners) {
      const plan = plans.get(port);
      if (!plan || plan.protocol !== listener.protocol) {
        await this.#closeListener(port, listener);
        continue;
      }
      listener.apis = plan.apis;
      const kept = new Set(plan.apis.map((api) => api.id));
      for (const [id, sockets] of listener.connections) {
        if (kept.has(id)) continue;
        for (const socket of sockets) socket.destroy();
        listener.connections.delete(id);
      }
    }
    for (const plan of plans.values()) {
      if (this.#listeners.has(plan.port)) continue;
      const failure = await this.#open(plan);
      if (failure) for (const api of plan.apis) problems.push({ source: 'tcp', id: api.id, reason: 'ListenPortNotOpened', message: failure });
    }
    return problems;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#listeners].map(([port, listener]) => this.#closeListener(port, listener)));
  }

  async #open(plan: PortPlan): Promise<string | undefined> {
    const { config, certificates, reusePort, log } = this.#deps;
    const listener: Listener = { protocol: plan.protocol, server: undefined as unknown as Server, apis: plan.apis, connections: new Map() };
    if (plan.protocol === 'tls') {
      const server = createTlsServer({
        SNICallback: certificates.sniCallback(),
        minVersion: tlsVersion(config.http_server_options.min_version),
        handshakeTimeout: this.#bounds.connectMs,
        allowHalfOpen: true,
      });
      certificates.attach(server);
      server.on('secureConnection', (socket: TLSSocket) => this.#accept(listener, socket, routeBySni(listener.apis, socket.servername)));
      server.on('tlsClientError', (error) => log.debug({ port: plan.port, err: error.message }, 'tls api: handshake failed'));
      listener.server = server;
    } else {
      listener.server = createServer({ allowHalfOpen: true }, (socket) =>
        this.#accept(listener, socket, listener.apis.length === 1 ? listener.apis[0]! : undefined),
      );
    }
    try {
      await new Promise<void>((resolveListen, reject) => {
        listener.server.once('error', reject);
        listener.server.listen({ port: plan.port, host: config.listen_address, reusePort }, () => {
          listener.server.off('error', reject);
          resolveListen();
        });
      });
    } catch (error) {
      if (plan.protocol === 'tls') certificates.detach(listener.server as TlsServer);
      return `listen_port ${plan.port} could not be opened: ${(error as Error).message}`;
    }
    listener.server.on('error', (error) => log.error({ port: plan.port, err: error.message }, 'tcp api listener failed'));
    this.#listeners.set(plan.port, listener);
    log.info({ port: plan.port, apis: plan.apis.map((api) => api.id) }, `${plan.protocol} listener open`);
    return undefined;
  }

  #accept(listener: Listener, socket: Socket, api: TcpApi | undefined): void {
    const address = socket.remoteAddress ?? '';
    if (!api || !allowed(api, address)) {
      socket.destroy();
      return;
    }
    let open = listener.connections.get(api.id);
    if (!open) listener.connections.set(api.id, (open = new Set()));
    if (open.size >= this.#deps.config.tcp_proxy.max_connections_per_api) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    pipeToUpstream(socket, api, this.#bounds, this.#deps.log);
  }

  async #closeListener(port: number, listener: Listener): Promise<void> {
    this.#listeners.delete(port);
    const closed = new Promise<void>((resolveClose) => listener.server.close(() => resolveClose()));
    for (const sockets of listener.connections.values()) for (const socket of sockets) socket.destroy();
    if (listener.protocol === 'tls') this.#deps.certificates.detach(listener.server as TlsServer);
    await closed;
    this.#deps.log.info({ port }, `${listener.protocol} listener closed`);
  }
}

/** Tyk Gateway's choice on a shared tls port: the exact domain, else the API without one; no SNI: the only API. */
export function routeBySni(apis: readonly TcpApi[], servername: string | false | null | undefined): TcpApi | undefined {
  if (!servername) return apis.length === 1 ? apis[0] : undefined;
  const name = servername.toLowerCase();
  return apis.find((api) => api.domain === name) ?? apis.find((api) => api.domain === undefined);
}

function allowed(api: TcpApi, address: string): boolean {
  const access = api.ipAccess;
  if (!access) return true;
  if (access.allow && !access.allow.includes(address)) return false;
  return !access.block?.includes(address);
}
