// Clients of the gateway's stream endpoints for tests: a Server-Sent Events subscriber (node:http, parsing `data:`
// fields and `:` comments as they arrive), a WebSocket subscriber (the `ws` client), and a subscriber that never
// reads (a raw socket, paused): the slow client of the back-pressure tests.
import { request, type IncomingHttpHeaders } from 'node:http';
import { createConnection, type Socket } from 'node:net';
import WebSocket from 'ws';

export interface SseClient {
  status: number;
  headers: IncomingHttpHeaders;
  messages: string[];
  comments: string[];
  /** The gateway ended the response (or the connection closed). */
  ended: boolean;
  close(): void;
}

/** Opens an SSE subscription; resolves with the status once the head arrived (non-200 bodies are not parsed). */
export function subscribeSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolveClient, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const client: SseClient = { status: res.statusCode ?? 0, headers: res.headers, messages: [], comments: [], ended: false, close: () => req.destroy() };
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        pending += chunk;
        let boundary: number;
        while ((boundary = pending.indexOf('\n\n')) >= 0) {
          const event = pending.slice(0, boundary);
          pending = pending.slice(boundary + 2);
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6));
          if (data.length > 0) client.messages.push(data.join('\n'));
          for (const line of event.split('\n')) if (line.startsWith(':')) client.comments.push(line.slice(1).trim());
        }
      });
      res.once('close', () => (client.ended = true));
      resolveClient(client);
    });
    req.once('error', reject);
    req.end();
  });
}

export interface WsClient {
  messages: string[];
  closed?: { code: number; reason: string };
  close(): void;
}

/** Opens a WebSocket subscription; rejects with the status when the upgrade is refused. */
export function subscribeWs(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
  return new Promise((resolveClient, reject) => {
    const socket = new WebSocket(url, { headers });
    const client: WsClient = { messages: [], close: () => socket.close() };
    socket.on('message', (data: Buffer) => client.messages.push(data.toString('utf8')));
    socket.on('close', (code: number, reason: Buffer) => (client.closed = { code, reason: reason.toString('utf8') }));
    socket.once('open', () => resolveClient(client));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

export interface StalledClient {
  /** Bytes received before the client stopped reading. */
  socket: Socket;
  /** Starts reading again and resolves with everything received until the gateway closes the connection. */
  drain(): Promise<string>;
}

/** Sends a GET for `path` on a raw connection and stops reading once the head arrived: a subscriber that stalls. */
export function stalledSubscriber(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<StalledClient> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolveClient, reject) => {
    const socket = createConnection(Number(port), hostname);
    socket.setNoDelay(true);
    const extra = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.once('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n${extra}\r\n`));
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) {
        socket.pause();
        socket.off('data', onData);
        resolveClient({
          socket,
          drain: () =>
            new Promise((resolveDrain) => {
              socket.on('data', (more: Buffer) => (received += more.toString('latin1')));
              socket.once('close', () => resolveDrain(received));
              socket.resume();
            }),
        });
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}
