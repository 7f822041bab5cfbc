// Every shipped sample at once, as a user meets them: ONE gateway (HTTP and HTTPS listeners, Redis store) and ONE
// operator in licensed mode (test/support/sample-stack.ts) serve all of config/samples, applied in ONE
// `kubectl apply -R -f` (aimed at the test's own servers, as `gw up` aims them); config/samples/invalid is refused
// by the admission webhook. Each sample does what its comment promises through the gateway (a real request, the
// answer a user expects, and a refused request where auth applies), and every gw object's status is true: each one
// that says Ready/Successful is served by the gateway (test/support/served-status.ts), each one that is not says why.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedServingCertificate } from '../support/certificates.ts';
import { kubectl } from '../support/kubectl.ts';
import { get, ready } from '../support/resources.ts';
import { removeSampleStack, startSampleStack, type SampleStack } from '../support/sample-stack.ts';
import { INVALID_SAMPLE } from '../support/samples.ts';
import { listGwObjects, nameOf, claimsSuccess, untrueStatuses, type GwObject } from '../support/served-status.ts';
import { subscribeSse } from '../support/stream-clients.ts';
import { tlsSecret } from '../support/tls-secret.ts';
import { tlsCall } from '../support/tls-client.ts';
import { waitUntil } from '../support/wait.ts';

/** The client certificate auth/mtls.yaml allows (its Secret mtls-client), and another one. */
const client = selfSignedServingCertificate({ commonName: 'sample-client', dnsNames: ['sample-client.example.com'] });
const stranger = selfSignedServingCertificate({ commonName: 'stranger', dnsNames: ['stranger.example.com'] });
const REFUSED_INVALID = 'The ApiDefinition "httpbin-invalid" is invalid: spec.use_keyless: Forbidden: a keyless API cannot also use standard auth';

const run = promisify(execFile);

interface Echoed {
  url: string;
  headers: Record<string, string>;
}
interface GraphqlAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string }[];
}

describe('every sample on one gateway and one operator', () => {
  let stack: SampleStack;
  let objects: GwObject[];
  let applied: string;
  const ns = (): string => stack.namespace;

  /** An object as read once the samples settled. */
  const objectOf = (kind: string, name: string): GwObject => {
    const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
    if (!found) throw new Error(`${kind} ${name} was not applied`);
    return found;
  };
  const statusOf = (kind: string, name: string): Record<string, unknown> => objectOf(kind, name).status ?? {};
  /** A key made through the licensed management API (the dashboard), as a user makes one. */
  const keyFor = async (body: Record<string, unknown>): Promise<string> => {
    const created = await stack.org.call('POST', '/api/keys', { org_id: stack.org.id, ...body });
    expect(created.status, created.text).toBe(200);
    return created.json<{ key: string }>().key;
  };
  /** Calls the gateway until the answer is no longer `from` (the gateway polls the dashboard for keys), then returns it. */
  const callUntilNot = async (from: number, path: string, headers: Record<string, string>) =>
    waitUntil(`${path} to answer other than ${from}`, async () => {
      const answer = await stack.gateway.call(path, { headers });
      return answer.status === from ? undefined : answer;
    });

  beforeAll(async () => {
    stack = await startSampleStack();
    // The Secrets httpbin_tls.yaml and auth/mtls.yaml name, which users create (`kubectl create secret tls ...`).
    const serving = (host: string) => selfSignedServingCertificate({ commonName: host, dnsNames: [host] });
    const secrets = [
      tlsSecret('httpbin-tls', serving('httpbin.example.com')),
      tlsSecret('mtls-server', serving('mtls.example.com')),
      tlsSecret('mtls-client', client),
    ];
    await kubectl(['apply', '-n', ns(), '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: secrets }) });
    // The webhooks answer once the apiserver's clients see the new configurations.
    await waitUntil('the validating webhook to refuse the invalid sample', async () => {
      const dry = await kubectl(['apply', '-n', ns(), '--dry-run=server', '-f', INVALID_SAMPLE], { allowFailure: true });
      return dry.code !== 0 && dry.stderr.includes(REFUSED_INVALID);
    });
    applied = (await kubectl(['apply', '-n', ns(), '-R', '-f', stack.copy()])).stdout;
    // Settled: every object has a Ready condition for its current generation and claims success, or the wait
    // ends and the status test below names the ones that did not.
    await waitUntil(
      () =>
        `every sample to be Ready; not yet: ${objects
          .filter((o) => !claimsSuccess(o))
          .map((o) => `${nameOf(o)} ${JSON.stringify(ready(o))}`)
          .join('; ')}`,
      async () => {
        objects = await listGwObjects(ns());
        return objects.every(claimsSuccess);
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    ).catch(() => undefined);
  });
  afterAll(async () => {
    await removeSampleStack(stack);
  });

  it('applies every sample in one kubectl apply and refuses config/samples/invalid through the admission webhook', async () => {
    for (const line of ['apidefinition.gw.gw.io/httpbin created', 'gwoasapidefinition.gw.gw.io/petstore created', 'ingress.networking.k8s.io/shop created'])
      expect(applied).toContain(line);
    const invalid = await kubectl(['apply', '-n', ns(), '-f', INVALID_SAMPLE], { allowFailure: true });
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toContain(REFUSED_INVALID);
    expect(await get('apidefinition', ns(), 'httpbin-invalid')).toBeUndefined();
  });

  it('every object says Ready (an Ingress template with reason IngressTemplate), and every status is true: what says Ready is served, what is not says why', async () => {
    const notReady = objects.filter((o) => !claimsSuccess(o)).map((o) => `${nameOf(o)}: ${JSON.stringify(ready(o))}`);
    expect(notReady).toEqual([]);
    const elsewhere = {
      OperatorContext: async (o: GwObject) => (o.status?.url ? undefined : 'a Ready OperatorContext without the URL it resolved to'),
      PortalConfig: async (o: GwObject) => {
        const stored = await stack.org.call('GET', '/api/portal/configuration');
        return stored.json<{ id?: string }>().id === o.status?.id ? undefined : `the dashboard's configuration is ${stored.text}`;
      },
      PortalAPICatalogue: async (o: GwObject) => {
        const stored = await stack.org.call('GET', '/api/portal/catalogue');
        return stored.status === 200 && stored.json<{ id?: string }>().id === o.status?.id ? undefined : `the dashboard's catalogue is ${stored.text}`;
      },
      APIDescription: async (o: GwObject) => {
        const stored = await stack.org.call('GET', '/api/portal/catalogue');
        const names = stored.status === 200 ? stored.json<{ apis: { name: string }[] }>().apis.map((a) => a.name) : [];
        return names.includes(String(o.spec?.name)) ? undefined : `the dashboard's catalogue lists ${JSON.stringify(names)}`;
      },
    };
    let untrue: string[] = [];
    // The gateway polls the dashboard: what the operator wrote is served within a poll or two.
    await waitUntil(
      () => `every status to be true; untrue: ${untrue.join('\n')}`,
      async () => (untrue = await untrueStatuses(await listGwObjects(ns()), { gateway: stack.gateway, elsewhere })).length === 0,
      { timeoutMs: 30_000, intervalMs: 500 },
    ).catch(() => undefined);
    expect(untrue).toEqual([]);
  });

  it('redis_tcp: redis-cli PING and SET/GET through the tcp API reach the Redis behind it', async () => {
    const cli = async (...args: string[]) =>
      (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(stack.tcpPort), ...args], { timeout: 20_000 })).stdout.trim();
    expect(await waitUntil('the redis-tcp sample to answer PING', async () => (await cli('PING').catch(() => '')) === 'PONG')).toBe(true);
    expect(await cli('SET', 'sample', 'redis-tcp')).toBe('OK');
    expect((await run('redis-cli', ['-p', String(stack.redis.port), 'GET', 'sample'])).stdout.trim()).toBe('redis-tcp');
  });

  it('keyless, OAS and load-balanced samples answer through the gateway', async () => {
    const [keyless, petstore, first, second] = await Promise.all([
      stack.gateway.call('/httpbin/get?sample=1'),
      stack.gateway.call('/petstore/get'),
      stack.gateway.call('/balanced/get'),
      stack.gateway.call('/balanced/get'),
    ]);
    expect(keyless.status).toBe(200);
    expect(keyless.json<Echoed>().url).toBe('/get?sample=1');
    expect(petstore.status).toBe(200);
    expect(petstore.json<Echoed>().url).toBe('/get');
    // Round robin over the two targets: one call each.
    expect([first.json<Echoed>().url, second.json<Echoed>().url].sort()).toEqual(['/anything/get', '/get']);
  });

  it('OAS versioning: the base API by default, v2 by header, an unknown version refused', async () => {
    const [base, v2, unknown] = await Promise.all([
      stack.gateway.call('/orders/get'),
      stack.gateway.call('/orders/get', { headers: { 'x-api-version': 'v2' } }),
      stack.gateway.call('/orders/get', { headers: { 'x-api-version': 'v9' } }),
    ]);
    expect(base.json<Echoed>().url).toBe('/get');
    expect(v2.json<Echoed>().url).toBe('/anything/get');
    expect(unknown.status).toBe(404);
  });

  it('token auth: refused without a key, served with a key of the policy made through the management API', async () => {
    expect((await stack.gateway.call('/httpbin-protected/get')).status).toBe(401);
    const key = await keyFor({ apply_policies: [statusOf('SecurityPolicy', 'httpbin-protected-gold').pol_id] });
    const served = await callUntilNot(403, '/httpbin-protected/get', { authorization: key });
    expect(served.status).toBe(200);
    expect(served.headers['x-ratelimit-limit']).toBe('10000'); // the policy's quota
  });

  it('TLS: the HTTPS listener presents the Secret’s certificate for the sample’s domain and serves it', async () => {
    const answer = await tlsCall(stack.httpsPort, { servername: 'httpbin.example.com', path: '/get' });
    expect(answer.presented.subjectAltName).toContain('DNS:httpbin.example.com');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ url: '/get' });
  });

  it('JWT: a token signed with the sample’s secret naming the policy is served; none, or a forged one, refused', async () => {
    const api = objectOf('ApiDefinition', 'httpbin-jwt');
    const secret = Buffer.from(String(api.spec?.jwt_source), 'base64');
    const sign = (key: Uint8Array) =>
      new SignJWT({ pol: statusOf('SecurityPolicy', 'httpbin-jwt-readers').pol_id })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('alice')
        .setExpirationTime('5m')
        .sign(key);
    expect((await stack.gateway.call('/httpbin-jwt/get')).status).toBe(400);
    expect((await stack.gateway.call('/httpbin-jwt/get', { headers: { authorization: `Bearer ${await sign(Buffer.from('not-the-secret'))}` } })).status).toBe(
      403,
    );
    const served = await stack.gateway.call('/httpbin-jwt/get', { headers: { authorization: `Bearer ${await sign(secret)}` } });
    expect(served.status).toBe(200);
    expect(served.json<Echoed>().url).toBe('/get');
  });

  it('looping: the keyless entry API loops a request into the internal token-auth API, whose authentication applies; internal APIs are not served directly', async () => {
    const [looped, internal] = await Promise.all([stack.gateway.call('/httpbin-any-auth/get'), stack.gateway.call('/httpbin-token-auth/get')]);
    expect(looped.status, looped.text).toBe(401); // the target API's auth, not the keyless entry API's pass
    expect(internal.status).toBe(404);
  });

  it('basic auth: a user made through the management API gets in with its password, not with another', async () => {
    const basic = (password: string) => ({ authorization: `Basic ${Buffer.from(`alice:${password}`).toString('base64')}` });
    const created = await stack.org.call('POST', `/api/keys/${stack.org.id}alice`, {
      org_id: stack.org.id,
      basic_auth_data: { password: 'sample-password' },
      apply_policies: [statusOf('SecurityPolicy', 'httpbin-basic-users').pol_id],
    });
    expect(created.status, created.text).toBe(200);
    const served = await callUntilNot(401, '/httpbin-basic/get', basic('sample-password'));
    expect(served.status).toBe(200);
    expect((await stack.gateway.call('/httpbin-basic/get', { headers: basic('wrong-password') })).status).toBe(401);
  });

  it('request signatures: a signed request with the key is served, an unsigned one refused', async () => {
    const key = await keyFor({ apply_policies: [statusOf('SecurityPolicy', 'httpbin-signed-callers').pol_id] });
    const api = objectOf('ApiDefinition', 'httpbin-signed');
    const { secret } = (api.spec as { auth_configs: { authToken: { signature: { secret: string } } } }).auth_configs.authToken.signature;
    const signature = () =>
      createHash('sha256')
        .update(`${key}${secret}${Math.floor(Date.now() / 1000)}`)
        .digest('hex');
    const served = await callUntilNot(403, '/httpbin-signed/get', { authorization: key, 'x-signature': signature() });
    expect(served.status).toBe(200);
    const unsigned = await stack.gateway.call('/httpbin-signed/get', { headers: { authorization: key } });
    expect(unsigned.status).toBe(401);
    expect(unsigned.text).toContain('Request signature verification failed');
  });

  it('mTLS: the allowed client certificate is served on the sample’s domain, none or another refused', async () => {
    const call = (cert?: { certPem: string; keyPem: string }) =>
      tlsCall(stack.httpsPort, { servername: 'mtls.example.com', path: '/get', ...(cert ? { cert: cert.certPem, key: cert.keyPem } : {}) });
    const [allowed, none, other] = await Promise.all([call(client), call(), call(stranger)]);
    expect(allowed.status).toBe(200);
    expect(JSON.parse(allowed.text)).toMatchObject({ url: '/get' });
    expect(none.status).toBe(403);
    expect(none.text).toContain('Client TLS certificate is required');
    expect(other.status).toBe(403);
    expect(other.text).toContain('not allowed');
  });

  it('transforms: the body template and the header edits reach the upstream, the response header the caller', async () => {
    const answer = await stack.gateway.call('/transforms/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order: { id: 7, items: 3 } }),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers['x-transformed-by']).toBe('gw');
    const echoed = answer.json<Echoed & { body: string }>();
    expect(JSON.parse(echoed.body)).toEqual({ order: '7', via: 'gw' });
    expect(echoed.headers['x-order-source']).toBe('gw-sample');
  });

  it('GraphQL: a valid query served, a restricted field refused, no key refused', async () => {
    const post = (query: string, headers: Record<string, string> = {}) =>
      stack.gateway.call('/countries/', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
    expect((await post('{ country(code: "FR") { name } }')).status).toBe(401);
    const key = await keyFor({ apply_policies: [statusOf('SecurityPolicy', 'countries-graphql-basic').pol_id] });
    await callUntilNot(403, '/countries/?query=%7B%20countries%20%7B%20code%20%7D%20%7D', { authorization: key });
    const country = await post('{ country(code: "FR") { name } }', { authorization: key });
    expect(country.status).toBe(200);
    expect(country.json<GraphqlAnswer>()).toEqual({ data: { country: { name: 'France' } } });
    const capital = await post('{ country(code: "FR") { capital } }', { authorization: key });
    expect(capital.status).toBe(400);
    expect(capital.text).toContain('field: capital is restricted on type: Country');
  });

  it('UDG: countries from the GraphQL source, each lookup from the REST source templated with the country code', async () => {
    const answer = await stack.gateway.call('/udg/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ countries { name lookup { method url } } }' }),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json<GraphqlAnswer>()).toEqual({
      data: {
        countries: [
          { name: 'France', lookup: { method: 'GET', url: '/anything/FR' } },
          { name: 'Japan', lookup: { method: 'GET', url: '/anything/JP' } },
        ],
      },
    });
  });

  it('federation: the supergraph answers a query that needs both subgraphs', async () => {
    const answer = await stack.gateway.call('/social/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ me { name reviews { body } } }' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.json<GraphqlAnswer>()).toEqual({ data: { me: { name: 'Ada', reviews: [{ body: 'thorough' }] } } });
  });

  it('streams: a message published over HTTP reaches an SSE subscriber through Redis; no key is refused', async () => {
    const stream = `${stack.gateway.url}/events/get/stream`;
    expect((await subscribeSse(stream)).status).toBe(401);
    const key = await keyFor({ apply_policies: [statusOf('SecurityPolicy', 'events-subscribers').pol_id] });
    await waitUntil('the key to reach the gateway', async () => {
      const probe = await subscribeSse(stream, { authorization: key });
      probe.close();
      return probe.status === 200;
    });
    const sse = await subscribeSse(stream, { authorization: key });
    try {
      await waitUntil('the SSE subscription to start', () => sse.comments.includes('subscribed'));
      await waitUntil('the published order to reach the subscriber', async () => {
        const published = await stack.gateway.call('/events/post', { method: 'POST', body: '{"order": 1}', headers: { authorization: key } });
        expect(published.status).toBe(200);
        return sse.messages.includes('{"order": 1}');
      });
    } finally {
      sse.close();
    }
  });

  it('Ingress: each path is an API on the host, keyed as its template says', async () => {
    const host = { host: 'shop.example.com' };
    expect((await stack.gateway.call('/cart', { headers: host })).status).toBe(401);
    const apis = objects.filter(
      (o) => o.kind === 'ApiDefinition' && (o.metadata as { labels?: Record<string, string> }).labels?.['gw.gw.io/ingress'] === 'shop',
    );
    expect(apis.length).toBe(2);
    expect(ready(objectOf('ApiDefinition', 'shop-template'))).toMatchObject({ status: 'True', reason: 'IngressTemplate' }); // not served itself
    const key = await keyFor({ access_rights: Object.fromEntries(apis.map((o) => [o.status!.api_id, { api_id: o.status!.api_id, versions: ['Default'] }])) });
    const cart = await callUntilNot(403, '/cart/items', { ...host, authorization: key });
    expect(cart.status).toBe(200);
    expect(cart.json<Echoed>().url).toBe('/cart/items');
  });

  it('portal kinds: the catalogue lists the payments API with its policy, and the configuration is the sample’s', async () => {
    const catalogue = (await stack.org.call('GET', '/api/portal/catalogue')).json<{
      id: string;
      apis: { name: string; policy_id: string; api_id: string }[];
    }>();
    expect(catalogue.id).toBe(statusOf('PortalAPICatalogue', 'catalogue').id);
    expect(catalogue.apis).toEqual([
      expect.objectContaining({
        name: 'Payments',
        policy_id: statusOf('SecurityPolicy', 'payments-developer').pol_id,
        api_id: statusOf('ApiDefinition', 'payments').api_id,
      }),
    ]);
    const configuration = (await stack.org.call('GET', '/api/portal/configuration')).json<Record<string, unknown>>();
    expect(configuration).toMatchObject({ require_key_approval: true, signup_fields: ['company'], key_request_fields: ['use_case'] });
    expect((await stack.gateway.call('/payments/get')).status).toBe(401);
  });
});
