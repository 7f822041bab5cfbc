// A real HTTP proxy on loopback in front of a gateway's management API, for operator tests that need the gateway
// to misbehave in one precise way (a reload answering 500, a write answering 409) while everything else reaches
// the real gateway unchanged. `fault` sees each request (method, path, body) and answers it itself by returning
// {status, body}, holds it unanswered by returning 'hang' (a gateway stuck mid-write), or lets it through by
// returning undefined. Every request is recorded. Closed after the file.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll } from 'vitest';

export interface ProxiedRequest {
  method: string;
  path: string;
  body: string;
}

export type Fault = (request: ProxiedRequest) => { status: number; body: string } | 'hang' | undefined;

export interface ManagementProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Replaces the fault (undefined: pass everything through). */
  setFault(fault: Fault | undefined): void;
}

const servers = new Set<Server>();
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  servers.clear();
});

export async function startManagementProxy(targetUrl: string, initial?: Fault): Promise<ManagementProxy> {
  let fault = initial;
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', body: Buffer.concat(chunks).toString() };
      requests.push(seen);
      const injected = fault?.(seen);
      if (injected === 'hang') return;
      if (injected) {
        res.writeHead(injected.status, { 'content-type': 'application/json' });
        res.end(injected.body);
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<
        string,
        string
      >;
      request(`${targetUrl}${seen.path}`, { method: seen.method as 'GET', headers, ...(seen.body ? { body: seen.body } : {}) }).then(
        async (answer) => {
          const body = await answer.body.text();
          res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/json') });
          res.end(body);
        },
        () => {
          res.writeHead(502);
          res.end();
        },
      );
    });
  });
  servers.add(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    setFault: (next) => (fault = next),
  };
}
