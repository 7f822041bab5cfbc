// The gateway's client listeners: the proxy port (with the management API on it when control_api_port is 0), the
// control port, the additional HTTPS port; their TLS (certificates by SNI), timeouts and limits, `Expect:
// 100-continue` and WebSocket upgrade wiring; and their graceful close (requests in flight finish, up to a grace
// period). On worker threads every worker listens on the same ports (SO_REUSEPORT: the kernel spreads connections).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createAdminApp } from './admin/app.ts';
import type { AdminDeps } from './admin/deps.ts';
import { applyClientTimeouts, createClientServer, createClientTlsServer } from './client-connections.ts';
import type { GatewayConfig } from './config.ts';
import type { ProxyHandler } from './proxy/handler.ts';
import type { ServerCertificates } from './tls/server-certificates.ts';
import { tlsVersion } from './tls/tls-versions.ts';

export interface ListenerParts {
  config: GatewayConfig;
  log: Logger;
  proxy: ProxyHandler;
  tls: ServerCertificates;
  /** What the management API serves. */
  deps: AdminDeps;
  /** One of several workers sharing the ports. */
  reusePort: boolean;
}

export class ClientListeners {
  readonly #config: GatewayConfig;
  readonly #log: Logger;
  readonly #proxy: ProxyHandler;
  readonly #tls: ServerCertificates;
  readonly #deps: AdminDeps;
  readonly #reusePort: boolean;
  readonly #servers: Server[] = [];
  /** The additional HTTPS listener (http_server_options.https_port), proxy only. */
  #httpsServer: Server | undefined;
  #admin: FastifyInstance | undefined;

  constructor(parts: ListenerParts) {
    this.#config = parts.config;
    this.#log = parts.log;
    this.#proxy = parts.proxy;
    this.#tls = parts.tls;
    this.#deps = parts.deps;
    this.#reusePort = parts.reusePort;
  }

  /** Ports actually bound: `proxy` and `control` (the same when control_api_port is 0), `https` (0 when none). */
  get ports(): { proxy: number; control: number; https: number } {
    const port = (server: Server | undefined): number => (server?.address() as AddressInfo | null)?.port ?? 0;
    return { proxy: port(this.#servers[0]), control: port(this.#servers[1] ?? this.#servers[0]), https: port(this.#httpsServer) };
  }

  /** Stops accepting; connections close as their last request finishes, every one after `graceMs`. */
  async closeServers(graceMs: number): Promise<void> {
    await Promise.all(
      [...this.#servers, ...(this.#httpsServer ? [this.#httpsServer] : [])].map(
        (server) =>
          new Promise<void>((resolveClose) => {
            const force = setTimeout(() => server.closeAllConnections(), graceMs);
            force.unref();
            // Connections go idle as their last request finishes: close them as they do, not at keep-alive's end.
            const idle = setInterval(() => server.closeIdleConnections(), 100);
            server.close(() => {
              clearTimeout(force);
              clearInterval(idle);
              resolveClose();
            });
            server.closeIdleConnections();
          }),
      ),
    );
  }

  async closeAdmin(): Promise<void> {
    await this.#admin?.close();
  }

  /** A client listener, plain or TLS as `tls` says, with the shared timeouts, limits and `Expect: 100-continue` wiring. */
  #clientServer(
    tls: boolean,
    listener: (req: IncomingMessage, res: ServerResponse) => void,
    onContinue: (req: IncomingMessage, res: ServerResponse) => void,
  ): Server {
    const limits = this.#config.client_connections;
    let server: Server;
    if (tls) {
      const httpsServer = createClientTlsServer(
        limits,
        { SNICallback: this.#tls.sniCallback(), minVersion: tlsVersion(this.#config.http_server_options.min_version) },
        listener,
        this.#log,
      );
      this.#tls.attach(httpsServer);
      server = httpsServer;
    } else {
      server = createClientServer(limits, listener, this.#log);
    }
    server.on('checkContinue', onContinue);
    // WebSocket upgrades run the API's pipeline with the socket on the context (proxy/handler.ts).
    server.on('upgrade', this.#proxy.handleUpgrade);
    return server;
  }

  async listen(): Promise<void> {
    const { listen_address: host, listen_port: port, control_api_port: controlPort, client_connections: limits } = this.#config;
    const { use_ssl: useSsl, https_port: httpsPort } = this.#config.http_server_options;
    // Workers share each port: every one accepts its own connections, the kernel spreads them (SO_REUSEPORT).
    const reusePort = this.#reusePort;
    if ((useSsl || httpsPort > 0) && this.#tls.empty)
      this.#log.warn('a TLS listener is configured but no certificate can be served yet: handshakes fail until one is added and the gateway reloads');
    if (controlPort === 0) {
      const isControl = controlPath(this.#config);
      this.#admin = createAdminApp(this.#deps, (adminHandler) => {
        // `Expect: 100-continue`: the proxy says Continue once its request steps let the body through; the
        // management API at once (node:http's behaviour without this listener).
        const server = this.#clientServer(
          useSsl,
          (req, res) => (isControl(req.url) ? adminHandler(req, res) : this.#proxy.handle(req, res)),
          (req, res) => {
            if (!isControl(req.url)) return this.#proxy.handleExpectingContinue(req, res);
            res.writeContinue();
            adminHandler(req, res);
          },
        );
        this.#servers.push(server);
        return server;
      });
      await this.#admin.listen({ host, port, reusePort } as { host: string; port: number });
    } else {
      const proxyServer = this.#clientServer(useSsl, this.#proxy.handle, this.#proxy.handleExpectingContinue);
      this.#servers.push(proxyServer);
      await listenOn(proxyServer, port, host, reusePort);
      this.#admin = createAdminApp(this.#deps);
      await this.#admin.listen({ host, port: controlPort, reusePort } as { host: string; port: number });
      this.#servers.push(applyClientTimeouts(this.#admin.server, limits));
    }
    if (httpsPort > 0) {
      this.#httpsServer = this.#clientServer(true, this.#proxy.handle, this.#proxy.handleExpectingContinue);
      await listenOn(this.#httpsServer, httpsPort, host, reusePort);
    }
  }
}

function listenOn(server: Server, port: number, host: string, reusePort: boolean): Promise<void> {
  return new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen({ port, host, reusePort }, () => resolveListen());
  });
}

/** Paths the control port answers when it shares the proxy's port: /gw/..., liveness, readiness, metrics. */
function controlPath(config: GatewayConfig): (url: string | undefined) => boolean {
  const exact = new Set(['/gw', `/${config.health_check_endpoint_name}`, '/ready', ...(config.metrics_path ? [config.metrics_path] : [])]);
  return (url) => {
    if (!url) return false;
    const query = url.indexOf('?');
    let path = query === -1 ? url : url.slice(0, query);
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    return path.startsWith('/gw/') || exact.has(path);
  };
}
