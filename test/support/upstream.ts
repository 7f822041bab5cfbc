// A real upstream HTTP server on loopback for gateway tests. By default it echoes what it received as JSON
// {method, url, headers, body}; paths starting with /delay/<ms> answer after that many ms, /status/<code> with
// that status, /bytes/<n> with n bytes streamed in 64 KiB chunks. Every request is recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll } from 'vitest';

export interface Echo {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  bodyBytes: number;
}

export interface Upstream {
  url: string;
  port: number;
  requests: Echo[];
  close(): Promise<void>;
}

const servers = new Set<Server>();
afterAll(async () => {
  await Promise.all([...servers].map((s) => new Promise((r) => s.close(r))));
  servers.clear();
});

/** listenPort 0 (default): a free one. */
export async function startUpstream(handler?: (req: IncomingMessage, res: ServerResponse, body: Buffer) => boolean, listenPort = 0): Promise<Upstream> {
  const requests: Echo[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const echo: Echo = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: body.length > 65536 ? '' : body.toString(),
        bodyBytes: body.length,
      };
      requests.push(echo);
      if (handler?.(req, res, body)) return;
      const path = (req.url ?? '/').split('?')[0]!;
      const delay = /\/delay\/(\d+)/.exec(path);
      const status = /\/status\/(\d{3})/.exec(path);
      const bytes = /\/bytes\/(\d+)/.exec(path);
      const answer = (): void => {
        if (bytes) {
          let left = Number(bytes[1]);
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': left });
          const chunk = Buffer.alloc(65536, 0x61);
          const pump = (): void => {
            while (left > 0) {
              const piece = chunk.subarray(0, Math.min(left, chunk.length));
              left -= piece.length;
              if (!res.write(piece)) return void res.once('drain', pump);
            }
            res.end();
          };
          pump();
          return;
        }
        res.writeHead(status ? Number(status[1]) : 200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
        res.end(JSON.stringify(echo));
      };
      if (delay) setTimeout(answer, Number(delay[1]));
      else answer();
    });
  });
  servers.add(server);
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', resolveListen);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => {
      servers.delete(server);
      return new Promise((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      });
    },
  };
}

/** An upstream that says which one it is: 200 `{"upstream": name}` to every request (load balancing, uptime tests). */
export function namedUpstream(name: string, port = 0): Promise<Upstream> {
  return startUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ upstream: name }));
    return true;
  }, port);
}
