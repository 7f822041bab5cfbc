// The management transport against a real loopback HTTP server: what a gateway's answers become (typed
// MgmtErrors, never a raw SyntaxError), and that an AbortSignal really stops an exchange.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MgmtError } from './client.ts';
import { GatewayClient } from './gateway.ts';
import { ManagementHttp } from './http.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback server answering every request with `handler`; counts the requests it saw. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

const answer =
  (status: number, body: string, type = 'application/json') =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('ManagementHttp answers', () => {
  it('a 2xx whose body is not JSON is a typed failure naming the exchange, not a SyntaxError', async () => {
    const server = await serve(answer(200, '<html>maintenance</html>', 'text/html'));
    const client = new GatewayClient({ url: server.url, secret: 's' });
    const error = await failure(client.listApis());
    expect(error).toBeInstanceOf(MgmtError);
    expect(error).toMatchObject({ kind: 'failed' });
    expect((error as Error).message).toContain('not JSON');
    expect((error as Error).message).toContain('GET /gw/apis');
  });

  it('a 409 is a conflict carrying the gateway message', async () => {
    const server = await serve(answer(409, JSON.stringify({ status: 'error', message: 'a policy with the slug "gold" already exists' })));
    const client = new GatewayClient({ url: server.url, secret: 's' });
    const error = await failure(client.putPolicy('p1', { name: 'gold' }));
    expect(error).toMatchObject({ kind: 'conflict', status: 409, message: 'a policy with the slug "gold" already exists' });
    expect(server.requests()).toBe(1); // not retried
  });

  it('an aborted signal ends a hanging exchange with its reason', async () => {
    const server = await serve(() => undefined); // never answers
    const http = new ManagementHttp({ url: server.url, what: 'gateway', headers: {}, timeoutMs: 60_000 });
    const abort = new AbortController();
    const call = failure(http.call('GET', '/gw/apis', undefined, abort.signal));
    await expect.poll(() => server.requests()).toBe(1);
    const reason = new Error('reconcile timed out');
    abort.abort(reason);
    expect(await call).toBe(reason);
  });

  it('a call whose signal is already aborted is never sent', async () => {
    const server = await serve(answer(200, '[]'));
    const client = new GatewayClient({ url: server.url, secret: 's' });
    const abort = new AbortController();
    abort.abort(new Error('leadership lost'));
    await expect(client.putApi('a', {}, abort.signal)).rejects.toThrow('leadership lost');
    expect(server.requests()).toBe(0);
  });

  it('uploads a certificate as the PEM text itself (text/plain), answering the id the gateway gave', async () => {
    let seen: { type: string | undefined; body: string; url: string | undefined } | undefined;
    const { url } = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        seen = { type: req.headers['content-type'], body, url: req.url };
        answer(200, JSON.stringify({ id: 'org1abc', status: 'ok' }))(req, res);
      });
    });
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    expect(await new GatewayClient({ url, secret: 's' }).uploadCertificate(pem, 'org1')).toBe('org1abc');
    expect(seen).toEqual({ type: 'text/plain', body: pem, url: '/gw/certs?org_id=org1' });
  });
});
