// The sample upstream of `gw up`: a loopback HTTP server answering every request with what it received (method,
// path, query, headers, body length) as JSON — enough to see what the gateway forwards and strips.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EchoServer {
  url: string;
  close(): Promise<void>;
}

export async function startEchoServer(host = '127.0.0.1'): Promise<EchoServer> {
  const server: Server = createServer((req, res) => {
    let length = 0;
    req.on('data', (chunk: Buffer) => (length += chunk.length));
    req.on('end', () => {
      const [path, query = ''] = (req.url ?? '/').split('?');
      const body = JSON.stringify(
        { method: req.method, path, query: Object.fromEntries(new URLSearchParams(query)), headers: req.headers, bodyBytes: length },
        null,
        2,
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(`${body}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
