// The operator's HTTP endpoints:
//   metrics         plain HTTP GET /metrics (metricsPort, default 8080; the chart binds it to 127.0.0.1 only)
//   secure metrics  HTTPS GET /metrics (the chart's rbac.port, 8443) for Prometheus in the cluster: the caller's
//                   bearer token must be allowed `get` on the non-resource URL /metrics (RequestAuthorizer: a
//                   TokenReview, then a SubjectAccessReview) — the job kube-rbac-proxy does as a sidecar elsewhere
//   health          GET /healthz answers 200 while the process runs; GET /readyz answers 200 once every informer
//                   has listed, 503 before (healthProbePort, default 8081)
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { RequestAuthorizer } from '../../kube/request-authorizer.ts';

export interface ProbeServers {
  metricsPort: number;
  healthPort: number;
  /** 0 when no secure metrics endpoint was asked for. */
  secureMetricsPort: number;
  close(): Promise<void>;
}

export interface SecureMetricsOptions {
  host: string;
  port: number;
  authorizer: RequestAuthorizer;
  tls: { cert: string; key: string };
}

export interface ProbeOptions {
  registry: Registry;
  ready: () => boolean;
  metrics?: { host: string; port: number };
  health: { host: string; port: number };
  secureMetrics?: SecureMetricsOptions;
}

export function parseBindAddress(value: string, flag: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(value);
  if (!match) throw new Error(`${flag} must be [host]:port, got ${value}`);
  return { host: match[1] || '0.0.0.0', port: Number(match[2]) };
}

export async function startProbes(options: ProbeOptions): Promise<ProbeServers> {
  const { registry, ready } = options;
  const serveMetrics = (res: ServerResponse): void => {
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  };
  const servers: Server[] = [];
  const metricsServer = options.metrics
    ? createServer((req, res) => {
        if (req.url?.split('?')[0] !== '/metrics') return void res.writeHead(404).end();
        serveMetrics(res);
      })
    : undefined;
  const secure = options.secureMetrics;
  const secureServer = secure
    ? createHttpsServer({ cert: secure.tls.cert, key: secure.tls.key }, (req: IncomingMessage, res: ServerResponse) => {
        if (req.url?.split('?')[0] !== '/metrics') return void res.writeHead(404).end();
        if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
        secure.authorizer.authorize(req.headers.authorization, '/metrics').then(
          (decision) =>
            decision.allowed
              ? serveMetrics(res)
              : res
                  .writeHead(decision.status, { 'content-type': 'text/plain' })
                  .end(`${decision.status === 401 ? 'Unauthorized' : 'Forbidden'}: ${decision.reason}\n`),
          (error: unknown) => res.writeHead(503, { 'content-type': 'text/plain' }).end(`authorization check failed: ${(error as Error).message}\n`),
        );
      })
    : undefined;
  const healthServer = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (path === '/healthz') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (path === '/readyz')
      return void (ready()
        ? res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
        : res.writeHead(503, { 'content-type': 'text/plain' }).end('caches not synced yet'));
    res.writeHead(404).end();
  });
  const listening: Promise<void>[] = [listen(healthServer, options.health)];
  servers.push(healthServer);
  if (metricsServer && options.metrics) {
    listening.push(listen(metricsServer, options.metrics));
    servers.push(metricsServer);
  }
  if (secureServer && secure) {
    listening.push(listen(secureServer, secure));
    servers.push(secureServer);
  }
  try {
    await Promise.all(listening);
  } catch (error) {
    for (const server of servers) server.close();
    throw error;
  }
  const portOf = (server: Server | undefined): number => (server ? (server.address() as AddressInfo).port : 0);
  return {
    metricsPort: portOf(metricsServer),
    healthPort: portOf(healthServer),
    secureMetricsPort: portOf(secureServer),
    close: async () => {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}

function listen(server: Server, at: { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => resolve());
  });
}
