// The response phase as a specification: an API's response steps see every answer of that API before its head is
// written — the upstream's, a mock's, and the gateway's own refusals and failures — and nothing else writes a head.
// A real handler on a loopback server, a real upstream, a real embedded store; the one thing made up is the
// response step under test, which stamps the head it saw.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayConfigSchema } from '../config.ts';
import { VerifiedPasswords } from '../credentials/basic-passwords.ts';
import { JwksCache } from '../credentials/jwks-cache.ts';
import { compileApi } from '../definition/compile.ts';
import { EventBus } from '../events.ts';
import { GatewayMetrics } from '../metrics.ts';
import { StreamRegistry } from '../streams/stream-registry.ts';
import { compileRoute } from '../proxy/compiled-api.ts';
import { ProxyHandler } from '../proxy/handler.ts';
import { RoutingTable } from '../proxy/router.ts';
import { TrustedProxies } from '../proxy/trusted-proxies.ts';
import { UpstreamPools } from '../proxy/upstream-pools.ts';
import { SessionCache } from '../session/session-cache.ts';
import { StorageIds } from '../session/storage-ids.ts';
import { EmbeddedStore } from '../store/embedded.ts';
import type { CompiledApi, ResponseStep } from './contract.ts';
import type { PipelineServices } from './services.ts';

const stamp: ResponseStep = {
  name: 'stamp',
  head(_ctx, head) {
    head.headers['x-phase'] = `${head.origin} ${head.status}`;
  },
};

const failing: ResponseStep = {
  name: 'failing',
  head() {
    throw new Error('response step bug');
  },
};

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('response phase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-response-phase-'));
  let upstream: Server;
  let upstreamRequests = 0;
  let gateway: Server;
  let port: number;
  let store: EmbeddedStore;
  let pools: UpstreamPools;

  beforeAll(async () => {
    upstream = createServer((_req, res) => {
      upstreamRequests++;
      res.writeHead(200, { 'content-type': 'text/plain', 'x-upstream': 'yes' });
      res.end('from upstream');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

    const config = GatewayConfigSchema.parse({ secret: 'x', storage: { path: dir } });
    const log = pino({ level: 'silent' });
    const metrics = new GatewayMetrics();
    store = EmbeddedStore.open(dir, {});
    pools = new UpstreamPools({});
    const services: PipelineServices = {
      config,
      store,
      sessions: new SessionCache(store, () => undefined),
      storageIds: new StorageIds(),
      events: new EventBus(log, metrics, []),
      metrics,
      pools,
      trustedProxies: new TrustedProxies([]),
      jwks: new JwksCache(() => undefined),
      passwords: new VerifiedPasswords({ compare: () => Promise.resolve(false) }, Date.now),
      certificates: { fingerprintOf: () => undefined },
      streams: new StreamRegistry(metrics, log),
      log,
      now: Date.now,
    };
    const classic = (id: string, target: string, extra: Record<string, unknown>): CompiledApi =>
      compileRoute(
        compileApi({
          id,
          format: 'classic',
          definition: { name: id, api_id: id, active: true, proxy: { listen_path: `/${id}`, target_url: target, strip_listen_path: true }, ...extra },
        }),
        services,
      );
    const withSteps = (api: CompiledApi, ...steps: ResponseStep[]): CompiledApi => ({ ...api, responseSteps: [...api.responseSteps, ...steps] });

    const handler = new ProxyHandler(log, metrics, false);
    handler.use(
      new RoutingTable([
        withSteps(
          classic('open', upstreamUrl, {
            use_keyless: true,
            extended_paths: {
              black_list: [
                { path: '/mocked', method_actions: { GET: { action: 'reply', code: 202, data: 'mocked', headers: { 'x-mock': 'yes' } } } },
                { path: '/forbidden', method: 'GET' },
              ],
            },
          }),
          stamp,
        ),
        withSteps(classic('keyed', upstreamUrl, { use_keyless: false }), stamp),
        withSteps(classic('limited', upstreamUrl, { use_keyless: true, global_rate_limit: { rate: 1, per: 3600 } }), stamp),
        withSteps(classic('down', 'http://127.0.0.1:1', { use_keyless: true }), stamp),
        withSteps(classic('broken', upstreamUrl, { use_keyless: true }), failing, stamp),
        classic('plain', upstreamUrl, { use_keyless: true }),
      ]),
    );
    gateway = createServer(handler.handle);
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    port = (gateway.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => gateway.close(resolve));
    await new Promise((resolve) => upstream.close(resolve));
    await pools.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs on the upstream's answer, before its head is written, and streams its body unchanged", async () => {
    const answer = await get(port, '/open/x');
    expect(answer).toMatchObject({ status: 200, body: 'from upstream' });
    expect(answer.headers['x-phase']).toBe('upstream 200');
    expect(answer.headers['x-upstream']).toBe('yes');
  });

  it('runs on a mock reply', async () => {
    const before = upstreamRequests;
    const answer = await get(port, '/open/mocked');
    expect(answer).toMatchObject({ status: 202, body: 'mocked' });
    expect(answer.headers['x-phase']).toBe('mock 202');
    expect(answer.headers['x-mock']).toBe('yes');
    expect(upstreamRequests).toBe(before);
  });

  it('runs on refusals: 403 endpoint lists, 401 authentication, 429 rate limit', async () => {
    expect((await get(port, '/open/forbidden')).headers['x-phase']).toBe('error 403');
    expect((await get(port, '/keyed/x')).headers['x-phase']).toBe('error 401');
    expect((await get(port, '/limited/x')).headers['x-phase']).toBe('upstream 200');
    const refused = await get(port, '/limited/x');
    expect(refused.headers['x-phase']).toBe('error 429');
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body).toBe('{\n    "error": "API Rate Limit Exceeded"\n}');
  });

  it("runs on the gateway's own failures (upstream unreachable: 500)", async () => {
    const failed = await get(port, '/down/x');
    expect(failed.status).toBe(500);
    expect(failed.headers['x-phase']).toBe('error 500');
  });

  it('belongs to an API: answers before routing (404) and APIs without the step are untouched', async () => {
    expect((await get(port, '/nowhere')).headers['x-phase']).toBeUndefined();
    expect((await get(port, '/plain/x')).headers['x-phase']).toBeUndefined();
  });

  it('fails the request when a response step throws, rather than send a half-edited head; others are served', async () => {
    await expect(get(port, '/broken/x')).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect((await get(port, '/open/x')).status).toBe(200);
  });
});
