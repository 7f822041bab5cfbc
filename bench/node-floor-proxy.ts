// The floor of any Node.js reverse proxy on this machine, for bench/proxy to measure gw against: node:http in,
// undici Pool.dispatch out, nothing else — no routing, no headers policy, no auth, no error pages. Whatever gw costs
// beyond this is gw's; whatever this costs beyond nginx is Node's.
//   node bench/node-floor-proxy.ts <port> <origin-url>
import { createServer } from 'node:http';
import { Pool, type Dispatcher } from 'undici';

const [port, origin] = process.argv.slice(2);
if (!port || !origin) {
  console.error('usage: node bench/node-floor-proxy.ts <port> <origin-url>');
  process.exit(2);
}
const pool = new Pool(origin, { keepAliveTimeout: 10_000 });
createServer((req, res) => {
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart: () => {},
    onResponseStart: (_controller, statusCode, headers) => void res.writeHead(statusCode, headers),
    onResponseData: (_controller, chunk) => void res.write(chunk),
    onResponseEnd: () => void res.end(),
    onResponseError: () => {
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    },
  };
  pool.dispatch({ path: req.url ?? '/', method: req.method ?? 'GET', headers: ['host', new URL(origin).host], body: null }, handler);
}).listen(Number(port), '127.0.0.1');
