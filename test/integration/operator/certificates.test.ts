// Certificates from kubernetes.io/tls Secrets and SecurityPolicies as JWT defaults (issue 11 item 8), on the real
// control plane with a real gateway and real TLS handshakes: an ApiDefinition's certificate_secret_names served by
// SNI (waiting, with a condition and an Event, while the Secret is missing), a rotated Secret presented by a new
// handshake without a gateway restart, client_certificate_refs admitting one client certificate and refusing
// another, upstream_certificate_refs presented to an HTTPS upstream that requires a client certificate,
// pinned_public_keys_refs, a GwOasApiDefinition's certificate settings from Secrets, a Secret of the wrong type, and jwt_default_policies naming a SecurityPolicy (its id on
// the gateway, the policy's back-link, a missing policy, deleting the pair).
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idFor } from '../../../src/operator/sync/ids.ts';
import { freePort } from '../../../src/up/ports.ts';
import { selfSignedServingCertificate, type ServingCertificate } from '../../support/certificates.ts';
import { installCrds } from '../../support/crds.ts';
import { startGateway, type RunningGateway } from '../../support/gateway.ts';
import { kubectl, useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { apply, events, get, manifest, ready, synced, waitFor } from '../../support/resources.ts';
import { tlsCall } from '../../support/tls-client.ts';
import { tlsSecret } from '../../support/tls-secret.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const UPSTREAM_HOST = 'upstream.test';

const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256.replaceAll(':', '').toLowerCase();
const pair = (commonName: string, dnsName: string) => selfSignedServingCertificate({ commonName, dnsNames: [dnsName] });

describe('certificates from Secrets and JWT default policies', () => {
  const ns = useNamespace('certs');
  let gw: RunningGateway;
  let httpsPort: number;
  let upstream: Upstream;
  let caDir: string;
  const tlsUpstream = {
    server: undefined as Server | undefined,
    url: '',
    client: pair('upstream client', 'client.test'),
    other: pair('other client', 'other.test'),
    serving: pair('upstream', UPSTREAM_HOST),
    calls: [] as string[],
  };
  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
    caDir = mkdtempSync(join(tmpdir(), 'gw-operator-certs-'));
    writeFileSync(join(caDir, 'ca.pem'), tlsUpstream.serving.caPem);
    // An HTTPS upstream requiring a client certificate: only the one the test's Secret holds is answered 200.
    tlsUpstream.server = createServer(
      { cert: tlsUpstream.serving.certPem, key: tlsUpstream.serving.keyPem, requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        const presented = peer.raw ? fingerprint(new X509Certificate(peer.raw).toString()) : '';
        tlsUpstream.calls.push(`${req.url ?? ''} ${presented === fingerprint(tlsUpstream.client.certPem) ? 'client' : presented ? 'other' : 'none'}`);
        res.writeHead(presented === fingerprint(tlsUpstream.client.certPem) ? 200 : 401).end();
      },
    );
    await new Promise<void>((resolve) => tlsUpstream.server!.listen(0, '127.0.0.1', resolve));
    tlsUpstream.url = `https://${UPSTREAM_HOST}:${(tlsUpstream.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    tlsUpstream.server?.closeAllConnections();
    await new Promise((resolve) => tlsUpstream.server?.close(resolve));
    rmSync(caDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    httpsPort = await freePort();
    gw = await startGateway(
      { upstream_hosts: { [UPSTREAM_HOST]: '127.0.0.1' }, http_server_options: { https_port: httpsPort } },
      { env: { NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem') } },
    );
    await startOperator({ gateway: gw, namespace: ns.name });
  });

  const api = (name: string, spec: Record<string, unknown>) =>
    manifest('ApiDefinition', name, {
      name,
      use_keyless: true,
      active: true,
      proxy: { listen_path: '/', target_url: upstream.url, strip_listen_path: false },
      ...spec,
    });
  const readyReason = async (name: string, reason: string) => waitFor('apidefinition', ns.name, name, (r) => ready(r)?.reason === reason);
  const warning = async (name: string, reason: string) => {
    let found: { type: string; reason: string; message: string } | undefined;
    await expect
      .poll(async () => (found = (await events(ns.name, name)).find((e) => e.type === 'Warning' && e.reason === reason)) !== undefined, { timeout: 30_000 })
      .toBe(true);
    return found!.message;
  };
  const noKeyMaterial = async (name: string) => {
    const seen = JSON.stringify([await events(ns.name, name), (await get('apidefinition', ns.name, name))?.status]);
    expect(seen).not.toContain('PRIVATE KEY');
    expect(seen).not.toContain('BEGIN CERTIFICATE');
  };

  it('serves certificate_secret_names by SNI once the missing Secret appears, and a rotated Secret is presented by a new handshake without a gateway restart', async () => {
    await apply(ns.name, api('secure', { domain: 'secure.example.com', certificate_secret_names: ['secure-tls'] }));
    const waiting = await readyReason('secure', 'SecretNotFound');
    expect(ready(waiting)?.message).toBe(`spec.certificate_secret_names[0]: Secret ${ns.name}/secure-tls does not exist`);
    expect(await warning('secure', 'SecretNotFound')).toBe(`spec.certificate_secret_names[0]: Secret ${ns.name}/secure-tls does not exist`);

    const first = pair('secure one', 'secure.example.com');
    await apply(ns.name, tlsSecret('secure-tls', first)); // the Secret is watched: no touch of the API needed
    const synced1 = await waitFor('apidefinition', ns.name, 'secure', synced);
    const apiId = synced1!.status!.api_id as string;
    const stored = (await gw.admin('GET', `/gw/apis/${apiId}`)).json<{ certificates?: string[] }>();
    expect(stored.certificates).toEqual([`test-org${fingerprint(first.certPem)}`]);
    await expect
      .poll(async () => (await tlsCall(httpsPort, { servername: 'secure.example.com', path: '/one' })).presented.cn, { timeout: 30_000 })
      .toBe('secure one');
    expect((await tlsCall(httpsPort, { servername: 'secure.example.com', path: '/one' })).status).toBe(200);

    const second = pair('secure two', 'secure.example.com');
    await apply(ns.name, tlsSecret('secure-tls', second));
    await expect
      .poll(async () => (await tlsCall(httpsPort, { servername: 'secure.example.com', path: '/two' })).presented.cn, { timeout: 30_000, interval: 100 })
      .toBe('secure two');
    expect((await gw.admin('GET', `/gw/apis/${apiId}`)).json<{ certificates?: string[] }>().certificates).toEqual([`test-org${fingerprint(second.certPem)}`]);
    await waitFor('apidefinition', ns.name, 'secure', synced);
    await noKeyMaterial('secure');
  });

  it("a GwOasApiDefinition's customDomain.certificatesRef and clientCertificate.allowlist from Secrets: served by SNI, the allow-list enforced, a missing Secret reported", async () => {
    const document = JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'pets', version: '1' },
      paths: {},
      'x-gw-api-gateway': {
        info: { name: 'pets', state: { active: true } },
        upstream: { url: upstream.url },
        server: { listenPath: { value: '/', strip: false } },
      },
    });
    const server = pair('pets server', 'pets.example.com');
    const allowed = pair('pets client', 'pets.client.test');
    const other = pair('pets other', 'other.client.test');
    await apply(
      ns.name,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pets' }, data: { 'oas.json': document } },
      tlsSecret('pets-tls', server),
      manifest('GwOasApiDefinition', 'pets', {
        gwOAS: { configmapRef: { name: 'pets', keyName: 'oas.json' } },
        customDomain: { enabled: true, name: 'pets.example.com', certificatesRef: ['pets-tls'] },
        clientCertificate: { enabled: true, allowlist: ['pets-client'] },
      }),
    );
    const waiting = await waitFor('gwoasapidefinition', ns.name, 'pets', (r) => ready(r)?.reason === 'SecretNotFound');
    expect(ready(waiting)?.message).toBe(`spec.clientCertificate.allowlist[0]: Secret ${ns.name}/pets-client does not exist`);

    await apply(ns.name, tlsSecret('pets-client', allowed));
    const done = await waitFor('gwoasapidefinition', ns.name, 'pets', synced);
    expect(done?.status).toMatchObject({ domain: 'pets.example.com' });
    const stored = (await gw.admin('GET', `/gw/apis/oas/${done!.status!.id as string}`)).json<{ 'x-gw-api-gateway': { server: Record<string, unknown> } }>();
    expect(stored['x-gw-api-gateway'].server).toMatchObject({
      customDomain: { certificates: [`test-org${fingerprint(server.certPem)}`] },
      clientCertificates: { enabled: true, allowlist: [`test-org${fingerprint(allowed.certPem)}`] },
    });
    const call = (path: string, client: ServingCertificate) =>
      tlsCall(httpsPort, { servername: 'pets.example.com', path, cert: client.certPem, key: client.keyPem });
    await expect.poll(async () => (await call('/pets-in', allowed)).status, { timeout: 30_000 }).toBe(200);
    expect((await call('/pets-in', allowed)).presented.cn).toBe('pets server');
    expect((await call('/pets-out', other)).status).toBe(403);
  });

  it("client_certificate_refs admit the Secret's client certificate and refuse another", async () => {
    const server = pair('mtls server', 'mtls.example.com');
    const allowed = pair('allowed client', 'allowed.client.test');
    const other = pair('other client', 'other.client.test');
    await apply(
      ns.name,
      tlsSecret('mtls-tls', server),
      tlsSecret('client-a', allowed),
      api('mtls', { domain: 'mtls.example.com', certificate_secret_names: ['mtls-tls'], use_mutual_tls_auth: true, client_certificate_refs: ['client-a'] }),
    );
    await waitFor('apidefinition', ns.name, 'mtls', synced);
    await expect
      .poll(async () => (await tlsCall(httpsPort, { servername: 'mtls.example.com', path: '/in', cert: allowed.certPem, key: allowed.keyPem })).status, {
        timeout: 30_000,
      })
      .toBe(200);
    const refused = await tlsCall(httpsPort, { servername: 'mtls.example.com', path: '/out', cert: other.certPem, key: other.keyPem });
    expect([refused.status, JSON.parse(refused.text)]).toEqual([403, { error: `Certificate with SHA256 ${fingerprint(other.certPem)} not allowed` }]);
    expect(upstream.requests.map((r) => r.url)).toContain('/in');
    expect(upstream.requests.map((r) => r.url)).not.toContain('/out');
  });

  it("upstream_certificate_refs present the Secret's certificate to an upstream requiring one; pinned_public_keys_refs pin the upstream's key", async () => {
    await apply(
      ns.name,
      tlsSecret('upstream-client', tlsUpstream.client),
      tlsSecret('upstream-serving', tlsUpstream.serving),
      tlsSecret('not-the-upstream', tlsUpstream.other),
      api('to-mtls', {
        proxy: { listen_path: '/to-mtls/', target_url: tlsUpstream.url, strip_listen_path: true },
        upstream_certificate_refs: { [UPSTREAM_HOST]: 'upstream-client' },
        pinned_public_keys_refs: { [UPSTREAM_HOST]: 'upstream-serving' },
      }),
      api('without-client', { proxy: { listen_path: '/without-client/', target_url: tlsUpstream.url, strip_listen_path: true } }),
      api('wrong-pin', {
        proxy: { listen_path: '/wrong-pin/', target_url: tlsUpstream.url, strip_listen_path: true },
        upstream_certificate_refs: { [UPSTREAM_HOST]: 'upstream-client' },
        pinned_public_keys_refs: { [UPSTREAM_HOST]: 'not-the-upstream' },
      }),
    );
    for (const name of ['to-mtls', 'without-client', 'wrong-pin']) await waitFor('apidefinition', ns.name, name, synced);
    await expect.poll(async () => (await gw.call('/to-mtls/a')).status, { timeout: 30_000 }).toBe(200);
    expect(tlsUpstream.calls).toContain('/a client');
    expect((await gw.call('/without-client/b')).status).toBe(401); // the upstream refuses a call without the certificate
    expect(tlsUpstream.calls).toContain('/b none');
    const wrong = await gw.call('/wrong-pin/c');
    expect(wrong.status).toBe(502);
    expect(wrong.text).toContain('certificate public key pinning error. Public keys do not match.');
    expect(tlsUpstream.calls.some((call) => call.startsWith('/c '))).toBe(false);
  });

  it('a Secret of another type, or an unusable certificate, is a condition and a Warning Event naming it', async () => {
    await apply(
      ns.name,
      { apiVersion: 'v1', kind: 'Secret', type: 'Opaque', metadata: { name: 'opaque' }, stringData: { 'tls.crt': 'x', 'tls.key': 'y' } },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/tls',
        metadata: { name: 'garbage' },
        stringData: { 'tls.crt': 'not a certificate', 'tls.key': 'not a key' },
      },
      api('opaque-ref', { proxy: { listen_path: '/opaque/', target_url: upstream.url }, client_certificate_refs: ['opaque'] }),
      api('garbage-ref', { proxy: { listen_path: '/garbage/', target_url: upstream.url }, certificate_secret_names: ['garbage'] }),
    );
    expect(ready(await readyReason('opaque-ref', 'InvalidSecret'))?.message).toBe(
      `spec.client_certificate_refs[0]: Secret ${ns.name}/opaque is of type Opaque, not kubernetes.io/tls`,
    );
    expect(await warning('opaque-ref', 'InvalidSecret')).toBe(
      `spec.client_certificate_refs[0]: Secret ${ns.name}/opaque is of type Opaque, not kubernetes.io/tls`,
    );
    expect(ready(await readyReason('garbage-ref', 'InvalidSecret'))?.message).toMatch(
      new RegExp(`^spec\\.certificate_secret_names\\[0\\]: the certificate of Secret ${ns.name}/garbage was refused: `),
    );
    await noKeyMaterial('garbage-ref');
    expect(JSON.stringify(await events(ns.name, 'garbage-ref'))).not.toContain('not a key');
  });

  it('jwt_default_policies naming a SecurityPolicy: waits for it, sends its id, the policy links back; a deleted policy is reported on the API', async () => {
    const secret = 'jwt-shared-secret-for-the-test';
    await apply(
      ns.name,
      api('jwt-api', {
        use_keyless: false,
        enable_jwt: true,
        jwt_signing_method: 'hmac',
        jwt_source: Buffer.from(secret).toString('base64'),
        jwt_default_policies: [`${ns.name}/gold`],
      }),
    );
    const waiting = await readyReason('jwt-api', 'PolicyNotFound');
    expect(ready(waiting)?.message).toBe(`spec.jwt_default_policies: SecurityPolicy ${ns.name}/gold does not exist`);
    expect(await warning('jwt-api', 'PolicyNotFound')).toBe(`spec.jwt_default_policies: SecurityPolicy ${ns.name}/gold does not exist`);

    // The policy grants the API it is the default of (Tyk's sample): neither waits for the other.
    await apply(ns.name, manifest('SecurityPolicy', 'gold', { name: 'Gold', rate: 100, per: 60, access_rights_array: [{ name: 'jwt-api' }] }));
    const apiSynced = await waitFor('apidefinition', ns.name, 'jwt-api', synced);
    const links = (p: Awaited<ReturnType<typeof get>>) =>
      ((p?.status?.linked_by_apis ?? []) as { kind: string; namespace: string; name: string }[]).map((l) => `${l.kind} ${l.namespace}/${l.name}`);
    await waitFor('securitypolicy', ns.name, 'gold', (p) => synced(p) && links(p).join() === `ApiDefinition ${ns.name}/jwt-api`);
    const onGateway = (await gw.admin('GET', `/gw/apis/${apiSynced!.status!.api_id as string}`)).json<{ jwt_default_policies?: string[] }>();
    expect(onGateway.jwt_default_policies).toEqual([idFor(ns.name, 'gold')]);
    const token = await new SignJWT({ sub: 'alice' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(secret));
    await expect.poll(async () => (await gw.call('/jwt', { headers: { authorization: `Bearer ${token}` } })).status, { timeout: 30_000 }).toBe(200);

    // Deleting the pair never deadlocks (the policy granting the API blocks the API's deletion, not the reverse);
    // the API without its default policy says so.
    await kubectl(['delete', 'securitypolicy', '-n', ns.name, 'gold', '--wait=false']);
    await waitFor('securitypolicy', ns.name, 'gold', (p) => p === undefined);
    expect(ready(await readyReason('jwt-api', 'PolicyNotFound'))?.message).toBe(`spec.jwt_default_policies: SecurityPolicy ${ns.name}/gold does not exist`);
    await kubectl(['delete', 'apidefinition', '-n', ns.name, 'jwt-api', '--wait=false']);
    await waitFor('apidefinition', ns.name, 'jwt-api', (r) => r === undefined);
  });
});
