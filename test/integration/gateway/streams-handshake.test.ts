// The 101 of a stream's WebSocket subscriber goes through the API's response steps like every other answer of the
// API (the ws library writes the handshake; the steps' headers join it): the quota headers of the key, CORS for an
// allowed origin, while the handshake's own headers stay the handshake's. A real gateway process, no broker (an
// http_server input straight to an http_server output).
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { subscribeSse, subscribeWs } from '../../support/stream-clients.ts';
import { keyedStreamsApi } from '../../support/streams-api.ts';
import { waitUntil } from '../../support/wait.ts';

/** A raw upgrade handshake: status and head of the answer (the socket is closed at once). */
function handshakeHead(url: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      hostname,
      port,
      path: pathname,
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
    });
    req.once('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.once('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.once('error', reject);
    req.end();
  });
}

describe('stream WebSocket handshake through the response steps', () => {
  let gw: RunningGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startGateway();
    const api = keyedStreamsApi({
      id: 'live',
      name: 'live',
      listenPath: '/live',
      streams: { live: { input: { http_server: { path: '/post' } }, output: { http_server: { stream_path: '/get/stream', ws_path: '/get/ws' } } } },
      extension: { middleware: { global: { cors: { enabled: true, allowedOrigins: ['https://app.example'] } } } },
    });
    expect((await gw.admin('POST', '/gw/apis/oas', api)).status).toBe(200);
    await gw.reload();
    key = await addKey(gw, ['live'], { quota_max: 100, quota_renewal_rate: 3600 });
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('carries the quota and CORS headers the SSE answer carries, and stays a working WebSocket', async () => {
    const headers = { authorization: key, origin: 'https://app.example' };
    const sse = await subscribeSse(`${gw.url}/live/get/stream`, headers);
    sse.close();
    const answer = await handshakeHead(`${gw.url}/live/get/ws`, headers);
    expect(answer.status).toBe(101);
    expect(answer.headers).toMatchObject({ upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-accept': 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=' });
    for (const name of ['x-ratelimit-limit', 'access-control-allow-origin']) {
      expect(answer.headers[name], name).toBeDefined();
      expect(answer.headers[name], name).toBe(sse.headers[name]);
    }
    expect(answer.headers['x-ratelimit-limit']).toBe('100');
    expect(answer.headers['access-control-allow-origin']).toBe('https://app.example');

    const ws = await subscribeWs(`${gw.url.replace('http', 'ws')}/live/get/ws`, headers);
    await waitUntil('a message over the WebSocket', async () => {
      expect((await gw.call('/live/post', { method: 'POST', body: 'hello', headers: { authorization: key } })).status).toBe(200);
      return ws.messages.includes('hello');
    });
    ws.close();
  });

  it('adds nothing for an origin CORS does not allow', async () => {
    const answer = await handshakeHead(`${gw.url}/live/get/ws`, { authorization: key, origin: 'https://elsewhere.example' });
    expect(answer.status).toBe(101);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['x-ratelimit-limit']).toBe('100');
  });
});
