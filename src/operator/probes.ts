// The operator's HTTP endpoints: Prometheus metrics (metricsPort, default 8080: GET /metrics) and health probes
// (healthProbePort, default 8081: GET /healthz answers 200 while the process runs; GET /readyz answers 200 once
// every informer has listed, 503 before).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface ProbeServers {
  metricsPort: number;
  healthPort: number;
  close(): Promise<void>;
}

export function parseBindAddress(value: string, flag: string): { host: string; port: number } {
  const match = /^(.*):(\d+)$/.exec(value);
  if (!match) throw new Error(`${flag} must be [host]:port, got ${value}`);
  return { host: match[1] || '0.0.0.0', port: Number(match[2]) };
}

export async function startProbes(registry: Registry, ready: () => boolean, metrics: { host: string; port: number }, health: { host: string; port: number }): Promise<ProbeServers> {
  const metricsServer = createServer((req, res) => {
    if (req.url?.split('?')[0] !== '/metrics') return void res.writeHead(404).end();
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  const healthServer = createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (path === '/healthz') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    if (path === '/readyz') return void (ready() ? res.writeHead(200, { 'content-type': 'text/plain' }).end('ok') : res.writeHead(503, { 'content-type': 'text/plain' }).end('caches not synced yet'));
    res.writeHead(404).end();
  });
  await Promise.all([listen(metricsServer, metrics), listen(healthServer, health)]);
  return {
    metricsPort: (metricsServer.address() as AddressInfo).port,
    healthPort: (healthServer.address() as AddressInfo).port,
    close: async () => {
      await Promise.all([metricsServer, healthServer].map((s) => new Promise((r) => s.close(r))));
    },
  };
}

function listen(server: Server, at: { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => resolve());
  });
}
