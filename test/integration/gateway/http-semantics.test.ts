// HTTP as a reverse proxy must speak it, through a real gateway process to real upstreams: `Expect: 100-continue`
// answered by the gateway after its checks (never forwarded), X-Forwarded-* that say what the gateway saw unless the
// peer is a trusted proxy, one Host per request, and response headers added by the response phase on every kind of
// answer.
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { addKey, classicApi, rawHttp, SECRET, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

interface ContinueOutcome {
  status: number;
  body: string;
  /** The gateway said `100 Continue` before answering. */
  continued: boolean;
  connection: string | undefined;
}

/**
 * A request the way curl sends a large body: `Expect: 100-continue`, and the body only after the server says
 * Continue. When the final answer comes first, the body is never sent.
 */
function sendExpectingContinue(url: string, path: string, body: Buffer, headers: Record<string, string> = {}): Promise<ContinueOutcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = request({
      hostname,
      port,
      path,
      method: 'POST',
      headers: { ...headers, expect: '100-continue', 'content-type': 'application/octet-stream', 'content-length': String(body.length) },
    });
    req.on('continue', () => {
      continued = true;
      req.end(body);
    });
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body: text, continued, connection: res.headers.connection });
        if (!continued) req.destroy(); // the body was refused unread: drop the connection it would have used
      });
    });
    req.on('error', (error) => (continued || !req.destroyed ? reject(error) : undefined));
    req.flushHeaders();
  });
}

/** Raw bytes on a socket, the answer's status line back (no client library would send two Host fields). */
function rawRequestStatus(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      const end = received.indexOf('\r\n');
      if (end !== -1) {
        resolve(received.slice(0, end));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('end', () => resolve(received));
  });
}

describe('HTTP semantics of the proxy', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  beforeAll(async () => {
    upstream = await startUpstream();
    gw = await startGateway();
    for (const api of [classicApi('open', '/open', upstream.url, { use_keyless: true }), classicApi('keyed', '/keyed', upstream.url)]) {
      expect((await gw.admin('POST', '/gw/apis', api)).status).toBe(200);
    }
    await gw.reload();
  });

  describe('Expect: 100-continue', () => {
    const body = Buffer.alloc(3 * 1024 * 1024 + 17, 0x63); // over 1 MB: curl sends Expect: 100-continue for it

    it('is answered by the gateway; the whole body reaches the upstream, without the Expect header', async () => {
      const before = upstream.requests.length;
      const outcome = await sendExpectingContinue(gw.url, '/open/upload', body);
      expect(outcome).toMatchObject({ status: 200, continued: true });
      const echo = JSON.parse(outcome.body) as Echo;
      expect(echo.bodyBytes).toBe(body.length);
      expect(upstream.requests.length).toBe(before + 1);
      expect(upstream.requests.at(-1)!.bodyBytes).toBe(body.length);
      expect(upstream.requests.at(-1)!.headers.expect).toBeUndefined();
    });

    it('is passed with the body to an authenticated API once the key is accepted', async () => {
      const key = await addKey(gw, ['keyed']);
      const outcome = await sendExpectingContinue(gw.url, '/keyed/upload', body, { authorization: key });
      expect(outcome).toMatchObject({ status: 200, continued: true });
      expect((JSON.parse(outcome.body) as Echo).bodyBytes).toBe(body.length);
    });

    it('is refused with the final answer, body unread, when the request is refused (401)', async () => {
      const before = upstream.requests.length;
      const outcome = await sendExpectingContinue(gw.url, '/keyed/upload', body);
      // The body is never read, so the connection cannot carry another request: node:http closes it.
      expect(outcome).toMatchObject({ status: 401, continued: false, connection: 'close' });
      expect(outcome.body).toBe('{\n    "error": "Authorization field missing"\n}');
      expect(upstream.requests.length).toBe(before);
    });

    it('still lets the management API on the same port read its body', async () => {
      const api = Buffer.from(JSON.stringify(classicApi('posted-with-expect', '/posted-with-expect', upstream.url, { use_keyless: true })));
      const outcome = await sendExpectingContinue(gw.controlUrl, '/gw/apis', api, { 'x-gw-authorization': SECRET, 'content-type': 'application/json' });
      expect(outcome).toMatchObject({ status: 200, continued: true });
    });
  });

  describe('X-Forwarded-* and Host', () => {
    const spoofed = { 'x-forwarded-for': '10.1.1.1', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example', forwarded: 'for=10.1.1.1;proto=https' };

    it('overwrites client-sent X-Forwarded-For/-Proto/-Host with what the gateway saw (no trusted proxies by default)', async () => {
      const echo = (await rawHttp(gw.url, '/open/h', spoofed)).json<Echo>();
      expect(echo.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(echo.headers['x-forwarded-proto']).toBe('http');
      expect(echo.headers['x-forwarded-host']).toBe(new URL(gw.url).host);
      expect(echo.headers.forwarded).toBeUndefined();
    });

    it('extends the chain from a peer in trusted_proxies, and only from one', async () => {
      const trusting = await startGateway({ trusted_proxies: ['127.0.0.0/8'] });
      const elsewhere = await startGateway({ trusted_proxies: ['10.0.0.0/8', 'fd00::/8'] });
      for (const g of [trusting, elsewhere])
        expect((await g.admin('POST', '/gw/apis', classicApi('open', '/open', upstream.url, { use_keyless: true }))).status).toBe(200);
      await Promise.all([trusting.reload(), elsewhere.reload()]);

      const kept = (await rawHttp(trusting.url, '/open/h', spoofed)).json<Echo>();
      expect([kept.headers['x-forwarded-for'], kept.headers['x-forwarded-proto'], kept.headers['x-forwarded-host']]).toEqual([
        '10.1.1.1, 127.0.0.1',
        'https',
        'evil.example',
      ]);
      expect(kept.headers.forwarded).toBe('for=10.1.1.1;proto=https');
      const fresh = (await rawHttp(trusting.url, '/open/h')).json<Echo>();
      expect([fresh.headers['x-forwarded-for'], fresh.headers['x-forwarded-proto'], fresh.headers['x-forwarded-host']]).toEqual([
        '127.0.0.1',
        'http',
        new URL(trusting.url).host,
      ]);

      const overwritten = (await rawHttp(elsewhere.url, '/open/h', spoofed)).json<Echo>();
      expect([overwritten.headers['x-forwarded-for'], overwritten.headers['x-forwarded-proto'], overwritten.headers['x-forwarded-host']]).toEqual([
        '127.0.0.1',
        'http',
        new URL(elsewhere.url).host,
      ]);
      expect(overwritten.headers.forwarded).toBeUndefined();
    });

    it('answers 400 to two Host fields, whatever their order, and forwards nothing', async () => {
      const before = upstream.requests.length;
      const { host } = new URL(gw.url);
      for (const hosts of [
        [host, 'evil.example'],
        ['evil.example', host],
        [host, host],
      ]) {
        const status = await rawRequestStatus(gw.url, `GET /open/h HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}Connection: close\r\n\r\n`);
        expect(status, hosts.join(' + ')).toBe('HTTP/1.1 400 Bad Request');
      }
      expect(upstream.requests.length).toBe(before);
      expect(await rawRequestStatus(gw.url, `GET /open/h HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).toBe('HTTP/1.1 200 OK');
    });

    it('answers 400 to one Host field listing several hosts (`Host: a, b`), and forwards nothing', async () => {
      const before = upstream.requests.length;
      const { host } = new URL(gw.url);
      for (const value of [`${host}, evil.example`, `evil.example, ${host}`, `${host},${host}`]) {
        const status = await rawRequestStatus(gw.url, `GET /open/h HTTP/1.1\r\nHost: ${value}\r\nConnection: close\r\n\r\n`);
        expect(status, value).toBe('HTTP/1.1 400 Bad Request');
      }
      expect(upstream.requests.length).toBe(before);
    });
  });
});

describe('response headers from the response phase', () => {
  it("X-RateLimit-* appear on the upstream's answer, on a mock reply after authentication, and on a 429", async () => {
    const upstream = await startUpstream();
    const gw = await startGateway({ rate_limit_response_headers: 'rate_limits' });
    const oas = {
      openapi: '3.0.3',
      info: { title: 'mocked', version: '1' },
      components: { securitySchemes: { key: { type: 'apiKey', name: 'X-Key', in: 'header' } } },
      security: [{ key: [] }],
      paths: { '/pets/{id}': { get: { operationId: 'getPet', responses: {} } }, '/real': { get: { operationId: 'real', responses: {} } } },
      'x-gw-api-gateway': {
        info: { id: 'mocked', name: 'mocked', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/mocked', strip: true }, authentication: { enabled: true, securitySchemes: { key: { enabled: true } } } },
        operations: { getPet: { mockResponse: { enabled: true, code: 200, body: '{"name":"rex"}', headers: [{ name: 'x-mock', value: 'oas' }] } } },
      },
    };
    expect((await gw.admin('POST', '/gw/apis/oas', oas)).status).toBe(200);
    await gw.reload();
    const key = await addKey(gw, ['mocked'], { rate: 2, per: 3600 });
    const headers = { 'x-key': key };

    const proxied = await gw.call('/mocked/real', { headers });
    expect(proxied.headers['x-upstream']).toBe('yes');
    expect([proxied.headers['x-ratelimit-limit'], proxied.headers['x-ratelimit-remaining']]).toEqual(['2', '1']);
    const mocked = await gw.call('/mocked/pets/1', { headers });
    expect(mocked).toMatchObject({ status: 200, text: '{"name":"rex"}' });
    expect(mocked.headers['x-mock']).toBe('oas');
    expect([mocked.headers['x-ratelimit-limit'], mocked.headers['x-ratelimit-remaining']]).toEqual(['2', '0']);
    const refused = await gw.call('/mocked/pets/1', { headers });
    expect(refused.status).toBe(429);
    expect([refused.headers['x-ratelimit-limit'], refused.headers['x-ratelimit-remaining']]).toEqual(['2', '0']);
    const unauthenticated = await gw.call('/mocked/pets/1');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['x-ratelimit-limit']).toBeUndefined(); // nothing to report before a key is known
  });
});
