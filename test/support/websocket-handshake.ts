// A raw WebSocket upgrade handshake against a gateway (no WebSocket library): what it answers, refusal or 101.
import { request as httpRequest } from 'node:http';

/** A raw upgrade handshake: the status and body of a refusal, or 101. */
export function handshake(url: string, protocol: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      hostname,
      port,
      path: pathname,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-protocol': protocol,
        ...headers,
      },
    });
    req.once('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.once('response', (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => (body += chunk))
        .once('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once('error', reject);
    req.end();
  });
}
