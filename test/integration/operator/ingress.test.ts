// Ingresses on the real control plane, served through a real gateway to real upstreams: selection by the class
// annotation and by spec.ingressClassName (our IngressClass), another class ignored, path and backend changes in
// place, deletion through the garbage collector, a conflicting Ingress, status.loadBalancer, Classic and OAS
// templates (Exact paths too), spec.tls certificates uploaded (and renewed: the Secret is watched), wildcard hosts
// matching one DNS label, cert-manager's ACME HTTP-01 solver paths, and status-only updates not waking Ingresses.
import { X509Certificate } from 'node:crypto';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { selfSignedServingCertificate } from '../../../src/kube/certs.ts';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { installCrds } from '../../support/crds.ts';
import { freePort } from '../../../src/up/ports.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { apisOf, ingress, service } from '../../support/ingress.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator, type RunningOperator } from '../../support/operator.ts';
import { apply, events, manifest, ready, waitFor } from '../../support/resources.ts';
import { tlsCall } from '../../support/tls-client.ts';
import { waitUntil } from '../../support/wait.ts';
import { startUpstream, type Echo, type Upstream } from '../../support/upstream.ts';

/** cert-manager's HTTP-01 solver Service (its generateName prefix). */
const SOLVER = 'cm-acme-http-solver-k7x2p';

describe('Ingress controller', () => {
  const ns = useNamespace('ing');
  let gw: RunningGateway;
  let operator: RunningOperator;
  let httpsPort: number;
  let one: Upstream;
  let two: Upstream;
  beforeAll(async () => {
    await installCrds();
    [one, two] = await Promise.all([startUpstream(), startUpstream()]);
  });
  beforeEach(async () => {
    httpsPort = await freePort();
    gw = await startGateway({
      upstream_hosts: { [`one.${ns.name}.svc`]: '127.0.0.1', [`two.${ns.name}.svc`]: '127.0.0.1', [`${SOLVER}.${ns.name}.svc`]: '127.0.0.1' },
      http_server_options: { https_port: httpsPort },
    });
    operator = await startOperator({ gateway: gw, namespace: ns.name, env: { GW_INGRESS_PUBLISH_ADDRESS: '203.0.113.7,gw.example.net' } });
    await apply(ns.name, service('one', one.port), service('two', two.port));
  });
  const classes: string[] = [];
  afterEach(async () => {
    for (const name of classes.splice(0)) await kubectl(['delete', 'ingressclass', name, '--wait=false'], { allowFailure: true });
  });

  /** Polls the gateway until the request reaches `upstream` (its port proves which one answered). */
  const servedBy = async (path: string, host: string, upstream: Upstream): Promise<Echo> => {
    let echo: Echo | undefined;
    await expect
      .poll(
        async () => {
          const before = upstream.requests.length;
          const result = await gw.call(path, { headers: { host } });
          echo = result.status === 200 && upstream.requests.length > before ? result.json<Echo>() : undefined;
          return echo !== undefined;
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(true);
    return echo!;
  };
  const statusOf = async (path: string, host: string) => (await gw.call(path, { headers: { host } })).status;

  it('serves an Ingress with the class annotation: every host and path (Prefix and Exact), a named port, the defaultBackend; status and Events', async () => {
    await apply(
      ns.name,
      ingress('shop', {
        annotations: { 'kubernetes.io/ingress.class': 'gw' },
        rules: [
          {
            host: 'shop.example.com',
            paths: [
              { path: '/cart', service: 'one', port: one.port },
              { path: '/pay/', service: 'two', port: 'http' },
              { path: '/exact', pathType: 'Exact', service: 'two', port: two.port },
            ],
          },
          { host: 'admin.example.com', paths: [{ path: '/', service: 'two', port: two.port }] },
        ],
        defaultBackend: { service: 'one', port: 'http' },
        tls: [{ hosts: ['shop.example.com'], secretName: 'shop-tls' }],
      }),
    );
    const cart = await servedBy('/cart/items?x=1', 'shop.example.com', one);
    expect(cart.url).toBe('/cart/items?x=1'); // Kubernetes semantics: the path goes upstream unchanged
    expect(cart.headers.host).toBe(`one.${ns.name}.svc:${one.port}`);
    await servedBy('/pay', 'shop.example.com', two);
    await servedBy('/exact', 'shop.example.com', two);
    await servedBy('/exact/under', 'shop.example.com', one); // Exact: the path alone; under it the defaultBackend answers
    await servedBy('/anything', 'admin.example.com', two);
    await servedBy('/elsewhere', 'other.example.com', one); // defaultBackend: any host, any path
    expect(await statusOf('/cartx', 'shop.example.com')).toBe(200); // '/cartx' is not under Prefix '/cart': the defaultBackend answers
    expect(one.requests.at(-1)?.url).toBe('/cartx');

    const made = await apisOf(ns.name, 'shop');
    expect(made.map((a) => `${a.spec.domain ?? '*'}${a.spec.proxy.listen_path}`).sort()).toEqual([
      '*/',
      'admin.example.com/',
      'shop.example.com/cart',
      'shop.example.com/exact',
      'shop.example.com/pay',
    ]);
    expect(made.every((a) => a.metadata.ownerReferences?.[0]?.kind === 'Ingress' && a.metadata.ownerReferences[0].name === 'shop')).toBe(true);

    await expect
      .poll(
        async () =>
          JSON.parse((await kubectl(['get', 'ingress', '-n', ns.name, 'shop', '-o', 'jsonpath={.status.loadBalancer.ingress}'])).stdout || '[]') as unknown,
        { timeout: 20_000 },
      )
      .toEqual([{ ip: '203.0.113.7' }, { hostname: 'gw.example.net' }]);
    const shopEvents = await events(ns.name, 'shop');
    expect(shopEvents.some((e) => e.type === 'Normal' && e.reason === 'Synced')).toBe(true);
  });

  it('serves an Ingress naming our IngressClass, ignores one of another class, changes a backend and a path in place, and deletion removes every API', async () => {
    const ours = `gw-${ns.name}`;
    const theirs = `nginx-${ns.name}`;
    classes.push(ours, theirs);
    await apply(
      ns.name,
      { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: ours }, spec: { controller: 'gw.gw.io/ingress-controller' } },
      { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: theirs }, spec: { controller: 'k8s.io/ingress-nginx' } },
    );
    await apply(
      ns.name,
      ingress('named', { className: ours, rules: [{ host: 'named.example.com', paths: [{ path: '/v1', service: 'one', port: one.port }] }] }),
      ingress('foreign', { className: theirs, rules: [{ host: 'foreign.example.com', paths: [{ path: '/', service: 'one', port: one.port }] }] }),
      ingress('annotated-other', {
        annotations: { 'kubernetes.io/ingress.class': 'nginx' },
        rules: [{ host: 'other.example.com', paths: [{ path: '/', service: 'one', port: one.port }] }],
      }),
    );
    await servedBy('/v1/a', 'named.example.com', one);
    const [first] = await apisOf(ns.name, 'named');
    expect(await apisOf(ns.name, 'foreign')).toEqual([]);
    expect(await apisOf(ns.name, 'annotated-other')).toEqual([]);
    expect(await statusOf('/', 'foreign.example.com')).toBe(404);
    expect(await statusOf('/', 'other.example.com')).toBe(404);

    // backend change: the same ApiDefinition (same API id) now points at the other Service, with no request
    // answered anything but 200 meanwhile (the route is updated in place, never removed and re-added)
    const seen: number[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) seen.push(await statusOf('/v1/a', 'named.example.com'));
    })();
    await apply(
      ns.name,
      ingress('named', { className: ours, rules: [{ host: 'named.example.com', paths: [{ path: '/v1', service: 'two', port: two.port }] }] }),
    );
    await servedBy('/v1/a', 'named.example.com', two);
    watching = false;
    await watcher;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((status) => status !== 200)).toEqual([]);
    const [afterBackend] = await apisOf(ns.name, 'named');
    expect(afterBackend?.metadata.uid).toBe(first?.metadata.uid);
    expect(afterBackend?.status?.api_id).toBe(first?.status?.api_id);

    // path change: the new path serves, then the old one goes
    await apply(
      ns.name,
      ingress('named', { className: ours, rules: [{ host: 'named.example.com', paths: [{ path: '/v2', service: 'two', port: two.port }] }] }),
    );
    await servedBy('/v2/a', 'named.example.com', two);
    await expect.poll(async () => statusOf('/v1/a', 'named.example.com'), { timeout: 30_000 }).toBe(404);
    expect((await apisOf(ns.name, 'named')).map((a) => a.spec.proxy.listen_path)).toEqual(['/v2']);

    const ids = (await apisOf(ns.name, 'named')).map((a) => a.status?.api_id);
    await kubectl(['delete', 'ingress', '-n', ns.name, 'named', '--wait=true']);
    await expect.poll(async () => (await apisOf(ns.name, 'named')).length, { timeout: 60_000 }).toBe(0); // the garbage collector, then the finalizer
    for (const id of ids) expect((await gw.admin('GET', `/gw/apis/${id}`)).status).toBe(404);
    await expect.poll(async () => statusOf('/v2/a', 'named.example.com'), { timeout: 30_000 }).toBe(404);
  });

  it('serves an Ingress naming no class when our IngressClass is the default one', async () => {
    const ours = `gw-default-${ns.name}`;
    classes.push(ours);
    await apply(ns.name, {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: ours, annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
      spec: { controller: 'gw.gw.io/ingress-controller' },
    });
    await apply(ns.name, ingress('classless', { rules: [{ host: 'classless.example.com', paths: [{ path: '/', service: 'one', port: one.port }] }] }));
    await servedBy('/x', 'classless.example.com', one);
  });

  it('takes an Ingress moved to another class off the gateway and out of its status address', async () => {
    const moved = (annotations: Record<string, string>) =>
      ingress('moved', { annotations, rules: [{ host: 'moved.example.com', paths: [{ path: '/', service: 'one', port: one.port }] }] });
    await apply(ns.name, moved({ 'kubernetes.io/ingress.class': 'gw' }));
    await servedBy('/', 'moved.example.com', one);
    const address = async () => (await kubectl(['get', 'ingress', '-n', ns.name, 'moved', '-o', 'jsonpath={.status.loadBalancer.ingress}'])).stdout;
    await expect.poll(address, { timeout: 20_000 }).not.toBe('');
    await apply(ns.name, moved({ 'kubernetes.io/ingress.class': 'nginx' }));
    await expect.poll(async () => statusOf('/', 'moved.example.com'), { timeout: 30_000 }).toBe(404);
    expect(await apisOf(ns.name, 'moved')).toEqual([]);
    await expect.poll(address, { timeout: 20_000 }).toBe('');
  });

  it('gives a host+path to the older of two Ingresses; the newer gets a Warning naming it and takes over when the older goes', async () => {
    const rule = (svc: string, port: number) => [{ host: 'same.example.com', paths: [{ path: '/api', service: svc, port }] }];
    await apply(ns.name, ingress('older', { annotations: { 'kubernetes.io/ingress.class': 'gw' }, rules: rule('one', one.port) }));
    await servedBy('/api', 'same.example.com', one);
    await apply(ns.name, ingress('newer', { annotations: { 'kubernetes.io/ingress.class': 'gw' }, rules: rule('two', two.port) }));
    await expect
      .poll(async () => (await events(ns.name, 'newer')).find((e) => e.type === 'Warning' && e.reason === 'Conflict')?.message, { timeout: 30_000 })
      .toContain(`Ingress ${ns.name}/older (older)`);
    expect(await apisOf(ns.name, 'newer')).toEqual([]);
    await servedBy('/api', 'same.example.com', one);

    await kubectl(['delete', 'ingress', '-n', ns.name, 'older']);
    await servedBy('/api', 'same.example.com', two);
  });

  it('copies a labelled ApiDefinition template per path, lists its Ingresses in its status, follows its edits, and reports a missing one', async () => {
    const template = (keyless: boolean) => ({
      ...manifest('ApiDefinition', 'tpl', {
        name: 'tpl',
        active: true,
        use_keyless: keyless,
        proxy: { listen_path: '/ignored', target_url: 'http://ignored.invalid' },
      }),
      metadata: { name: 'tpl', labels: { 'gw.gw.io/template': 'true' } },
    });
    await apply(ns.name, template(false));
    await apply(
      ns.name,
      ingress('templated', {
        annotations: { 'kubernetes.io/ingress.class': 'gw', 'gw.gw.io/template': 'tpl' },
        rules: [
          {
            host: 't.example.com',
            paths: [
              { path: '/a', service: 'one', port: one.port },
              { path: '/b', service: 'two', port: two.port },
            ],
          },
        ],
      }),
    );
    await expect.poll(async () => statusOf('/a', 't.example.com'), { timeout: 30_000 }).toBe(401); // the template's auth applies
    // One API per path, each synced on its own: /a served says nothing about /b yet.
    await expect.poll(async () => statusOf('/b', 't.example.com'), { timeout: 30_000 }).toBe(401);
    const tpl = await waitFor('apidefinition', ns.name, 'tpl', (r) => (r?.status?.ingresses as string[] | undefined)?.length === 1);
    expect(tpl?.status).toMatchObject({ ingressTemplate: true, ingresses: [`${ns.name}/templated`] });
    expect(ready(tpl)).toMatchObject({
      status: 'True',
      reason: 'IngressTemplate',
      message: `an Ingress template, not served itself: copied for Ingress ${ns.name}/templated`,
    });
    expect((await gw.admin('GET', `/gw/apis/${idFor(ns.name, 'tpl')}`)).status).toBe(404); // a template is not an API itself
    // INGRESSTEMPLATE, READY, REASON (then AGE)
    expect((await kubectl(['get', 'apidefinitions', '-n', ns.name, 'tpl', '--no-headers'])).stdout.trim().split(/\s+/).slice(-4, -1)).toEqual([
      'true',
      'True',
      'IngressTemplate',
    ]);

    await apply(ns.name, template(true)); // editing the template updates every API made from it
    await servedBy('/a', 't.example.com', one);
    await servedBy('/b', 't.example.com', two);

    await apply(
      ns.name,
      ingress('lost', {
        annotations: { 'kubernetes.io/ingress.class': 'gw', 'gw.gw.io/template': 'nope' },
        rules: [{ host: 'l.example.com', paths: [{ path: '/', service: 'one', port: one.port }] }],
      }),
    );
    await expect
      .poll(async () => (await events(ns.name, 'lost')).find((e) => e.reason === 'TemplateNotFound')?.message, { timeout: 30_000 })
      .toBe(`ApiDefinition ${ns.name}/nope (annotation gw.gw.io/template) does not exist`);
    expect(await apisOf(ns.name, 'lost')).toEqual([]);
  });

  it('fills an OAS template (GwOasApiDefinition) per path: listen path (Exact kept exact), custom domain and upstream patched into its document', async () => {
    const doc = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'tpl', version: '1' },
      paths: {},
      'x-gw-api-gateway': {
        info: { name: 'tpl', state: { active: true } },
        upstream: { url: 'http://ignored.invalid' },
        server: { listenPath: { value: '/ignored/', strip: false } },
      },
    });
    await apply(
      ns.name,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'oas-tpl' }, data: { 'oas.json': doc } },
      {
        ...manifest('GwOasApiDefinition', 'oas-tpl', { gwOAS: { configmapRef: { name: 'oas-tpl', keyName: 'oas.json' } } }),
        metadata: { name: 'oas-tpl', labels: { 'gw.gw.io/template': 'true' } },
      },
      ingress('oas', {
        annotations: { 'kubernetes.io/ingress.class': 'gw', 'gw.gw.io/template': 'oas-tpl', 'gw.gw.io/template-kind': 'GwOasApiDefinition' },
        rules: [
          {
            host: 'o.example.com',
            paths: [
              { path: '/pets', service: 'two', port: two.port },
              { path: '/pets/exact', pathType: 'Exact', service: 'one', port: one.port },
            ],
          },
        ],
      }),
    );
    const echo = await servedBy('/pets/1', 'o.example.com', two);
    expect(echo.url).toBe('/pets/1');
    expect(await statusOf('/pets/1', 'elsewhere.example.com')).toBe(404); // the custom domain applies
    await servedBy('/pets/exact', 'o.example.com', one);
    await servedBy('/pets/exact/', 'o.example.com', one); // a trailing '/' is the same path
    await servedBy('/pets/exact/under', 'o.example.com', two); // Exact: the path alone; under it Prefix /pets answers
    expect((await events(ns.name, 'oas')).filter((e) => e.type === 'Warning')).toEqual([]);
    await waitFor(
      'gwoasapidefinition',
      ns.name,
      'oas-tpl',
      (r) =>
        r?.status?.ingressTemplate === true &&
        JSON.stringify(r.status.ingresses) === JSON.stringify([`${ns.name}/oas`]) &&
        ready(r)?.reason === 'IngressTemplate',
    );
  });

  it('uploads the certificate of a spec.tls host from its Secret and records its id on the API (HTTPS serving is the gateway TLS work)', async () => {
    const pair = selfSignedServingCertificate({ commonName: 'secure.example.com', dnsNames: ['secure.example.com'] });
    const tlsSecret = (certPem: string, keyPem = pair.keyPem) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: { name: 'secure-tls' },
      data: { 'tls.crt': Buffer.from(certPem).toString('base64'), 'tls.key': Buffer.from(keyPem).toString('base64') },
    });
    await apply(
      ns.name,
      ingress('secure', {
        annotations: { 'kubernetes.io/ingress.class': 'gw' },
        rules: [
          { host: 'secure.example.com', paths: [{ path: '/', service: 'one', port: one.port }] },
          { host: 'plain.example.com', paths: [{ path: '/', service: 'one', port: one.port }] },
        ],
        tls: [{ hosts: ['secure.example.com'], secretName: 'secure-tls' }],
      }),
    );
    await expect
      .poll(async () => (await events(ns.name, 'secure')).find((e) => e.reason === 'TLSCertificate')?.message, { timeout: 30_000 })
      .toBe(`spec.tls: Secret ${ns.name}/secure-tls does not exist (host secure.example.com)`);
    await servedBy('/', 'secure.example.com', one); // served (over HTTP) while the Secret is missing

    await apply(ns.name, tlsSecret(pair.certPem)); // the Secret is watched: its appearance reconciles the Ingress
    let apis: Awaited<ReturnType<typeof apisOf>> = [];
    await expect
      .poll(
        async () => {
          apis = await apisOf(ns.name, 'secure');
          return apis.find((a) => a.spec.domain === 'secure.example.com')?.spec.certificates?.length ?? 0;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    const certId = apis.find((a) => a.spec.domain === 'secure.example.com')!.spec.certificates![0]!;
    expect(certId).toBe(`test-org${new X509Certificate(pair.certPem).fingerprint256.replaceAll(':', '').toLowerCase()}`);
    expect((await gw.admin('GET', `/gw/certs/${certId}`)).status).toBe(200);
    expect(apis.find((a) => a.spec.domain === 'plain.example.com')?.spec.certificates).toBeUndefined();
    // The gateway's HTTPS listener presents the Secret's certificate for the host (SNI) and serves the route.
    // (The API carrying the certificate reaches the gateway with the operator's next sync and reload.)
    await expect
      .poll(async () => (await tlsCall(httpsPort, { servername: 'secure.example.com', path: '/probe' })).presented.subjectAltName, { timeout: 30_000 })
      .toBe('DNS:secure.example.com');
    const served = await tlsCall(httpsPort, { servername: 'secure.example.com', path: '/over-tls' });
    expect(served.status).toBe(200);
    expect(one.requests.at(-1)?.url).toBe('/over-tls');
    // A renewed Secret (cert-manager's rotation) is watched: a new handshake presents it, no touch of the Ingress.
    // First the operator settles (no Ingress reconcile between two polls), so nothing but the Secret's watch brings it.
    let reconciles = -1;
    await expect
      .poll(
        async () => {
          const before = reconciles;
          reconciles = await operator.metric('gw_operator_reconciles_total', { kind: 'Ingress' });
          return reconciles === before;
        },
        { timeout: 30_000, interval: 2500 },
      )
      .toBe(true); // longer than the 2 s recheck while children sync
    const renewed = selfSignedServingCertificate({ commonName: 'secure.example.com renewed', dnsNames: ['secure.example.com'] });
    await apply(ns.name, tlsSecret(renewed.certPem, renewed.keyPem));
    await expect
      .poll(async () => (await tlsCall(httpsPort, { servername: 'secure.example.com', path: '/probe' })).presented.cn, { timeout: 30_000 })
      .toBe('secure.example.com renewed');
    expect(JSON.stringify(await events(ns.name, 'secure'))).not.toContain('PRIVATE KEY');
  });

  it('serves a wildcard host on exactly one DNS label (foo.x, never a.b.x nor x), over HTTP and HTTPS', async () => {
    const pair = selfSignedServingCertificate({ commonName: 'wild', dnsNames: ['*.wild.example.com'] });
    await apply(ns.name, {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: { name: 'wild-tls' },
      data: { 'tls.crt': Buffer.from(pair.certPem).toString('base64'), 'tls.key': Buffer.from(pair.keyPem).toString('base64') },
    });
    await apply(
      ns.name,
      ingress('wild', {
        annotations: { 'kubernetes.io/ingress.class': 'gw' },
        rules: [{ host: '*.wild.example.com', paths: [{ path: '/', service: 'one', port: one.port }] }],
        defaultBackend: { service: 'two', port: two.port },
        tls: [{ hosts: ['*.wild.example.com'], secretName: 'wild-tls' }],
      }),
    );
    await servedBy('/x', 'foo.wild.example.com', one);
    await servedBy('/x', 'FOO.wild.example.com:8080', one);
    await servedBy('/x', 'a.b.wild.example.com', two); // two labels: the defaultBackend answers
    await servedBy('/x', 'wild.example.com', two); // the parent itself is not under the wildcard
    expect((await apisOf(ns.name, 'wild')).map((a) => a.spec.domain ?? '*').sort()).toEqual(['*', '{?:[^.]+}.wild.example.com']);

    await expect
      .poll(async () => (await tlsCall(httpsPort, { servername: 'foo.wild.example.com', path: '/over-tls' })).presented.cn, { timeout: 30_000 })
      .toBe('wild');
    expect((await tlsCall(httpsPort, { servername: 'foo.wild.example.com', path: '/over-tls' })).status).toBe(200);
    expect(one.requests.at(-1)?.url).toBe('/over-tls');
    const deep = await tlsCall(httpsPort, { servername: 'a.b.wild.example.com', path: '/deep-tls' });
    expect(deep.status).toBe(200);
    expect(two.requests.at(-1)?.url).toBe('/deep-tls');
  });

  it("serves cert-manager's ACME HTTP-01 solver paths keyless, Host kept, before the host's authenticated Prefix / (own Ingress, or added to the templated one)", async () => {
    const TOKEN = '/.well-known/acme-challenge/Xy9-tok_1';
    const ADDED = '/.well-known/acme-challenge/Xy9-tok_2';
    await apply(ns.name, service(SOLVER, two.port));
    await apply(ns.name, {
      ...manifest('ApiDefinition', 'auth-tpl', {
        name: 'auth-tpl',
        active: true,
        use_keyless: false,
        proxy: { listen_path: '/ignored', target_url: 'http://ignored.invalid' },
      }),
      metadata: { name: 'auth-tpl', labels: { 'gw.gw.io/template': 'true' } },
    });
    const app = (paths: { path: string; pathType?: 'Exact' | 'ImplementationSpecific'; service: string; port: number }[]) =>
      ingress('app', {
        annotations: { 'kubernetes.io/ingress.class': 'gw', 'gw.gw.io/template': 'auth-tpl' },
        rules: [{ host: 'acme.example.com', paths: [{ path: '/', service: 'one', port: one.port }, ...paths] }],
      });
    await apply(ns.name, app([]));
    await expect.poll(async () => statusOf('/account', 'acme.example.com'), { timeout: 30_000 }).toBe(401); // the host's Prefix / needs a key
    // as cert-manager makes it: its own Ingress, its label, pathType ImplementationSpecific, its solver Service
    await apply(
      ns.name,
      ingress('cm-acme-http-solver-abcde', {
        annotations: { 'kubernetes.io/ingress.class': 'gw' },
        labels: { 'acme.cert-manager.io/http01-solver': 'true', 'acme.cert-manager.io/http-domain': '1234', 'acme.cert-manager.io/http-token': '5678' },
        rules: [{ host: 'acme.example.com', paths: [{ path: TOKEN, pathType: 'ImplementationSpecific', service: SOLVER, port: two.port }] }],
      }),
    );
    const challenge = await servedBy(TOKEN, 'acme.example.com', two);
    expect(challenge.url).toBe(TOKEN);
    expect(challenge.headers.host).toBe('acme.example.com'); // cert-manager's solver answers only for the challenge's domain
    expect(await statusOf('/account', 'acme.example.com')).toBe(401);

    // http01.ingress.name: cert-manager adds its path to the existing (templated, authenticated) Ingress
    await apply(ns.name, app([{ path: ADDED, pathType: 'Exact', service: SOLVER, port: two.port }]));
    const added = await servedBy(ADDED, 'acme.example.com', two);
    expect(added.headers.host).toBe('acme.example.com');
    expect(await statusOf(`${ADDED}/more`, 'acme.example.com')).toBe(401); // Exact: under it the host's / answers
  });

  it('is not woken by status-only updates of the APIs it made', async () => {
    await apply(
      ns.name,
      ingress('quiet', {
        annotations: { 'kubernetes.io/ingress.class': 'gw' },
        rules: [{ host: 'quiet.example.com', paths: [{ path: '/', service: 'one', port: one.port }] }],
      }),
    );
    await servedBy('/', 'quiet.example.com', one);
    const [child] = await apisOf(ns.name, 'quiet');
    const reconciles = () => operator.metric('gw_operator_reconciles_total', { kind: 'Ingress' });
    const idle = async (): Promise<number> => {
      let last = -1;
      await waitUntil(
        'the Ingress controller to go idle',
        async () => {
          const now = await reconciles();
          const queued = await operator.metric('gw_operator_queue_depth', { kind: 'Ingress' });
          const settled = now === last && queued === 0;
          last = now;
          return settled;
        },
        { timeoutMs: 60_000, intervalMs: 1500 },
      );
      return last;
    };
    // The same change the Ingress must act on, first alone, then after ten status writes on the API it made: the
    // status writes add no reconcile.
    const touch = async (value: string, first: () => Promise<void>): Promise<number> => {
      const before = await idle();
      await first();
      await kubectl(['annotate', 'ingress', '--overwrite', '-n', ns.name, 'quiet', `touch=${value}`]);
      await expect.poll(reconciles, { timeout: 30_000 }).toBeGreaterThan(before);
      return (await idle()) - before;
    };
    const alone = await touch('1', async () => {});
    const afterStatusWrites = await touch('2', async () => {
      for (let i = 0; i < 10; i++) {
        await kubectl([
          'patch',
          'apidefinition',
          '-n',
          ns.name,
          child!.metadata.name,
          '--subresource=status',
          '--type=merge',
          '-p',
          JSON.stringify({ status: { linked_by_policies: [{ name: `p${i}`, namespace: ns.name }] } }),
        ]);
      }
    });
    expect(afterStatusWrites).toBe(alone);
    expect(alone).toBe(1);
  });
});
