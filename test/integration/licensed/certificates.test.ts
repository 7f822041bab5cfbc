// Licensed mode with certificates, every part real: the operator in pro mode uploads an ApiDefinition's certificate
// Secrets to the dashboard (PostgreSQL), and the gateway the dashboard feeds gets them through the node API: it serves
// the domain's certificate by SNI, enforces the client-certificate allow-list, and a rotated Secret reaches a new
// handshake through the dashboard without a gateway restart.
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../src/up/ports.ts';
import { selfSignedServingCertificate, type ServingCertificate } from '../../support/certificates.ts';
import { installCrds } from '../../support/crds.ts';
import { ALL_WRITE, createOrg, NODE_SECRET, startDashboard, type RunningDashboard } from '../../support/dashboard.ts';
import { startGateway } from '../../support/gateway.ts';
import { useNamespace } from '../../support/kubectl.ts';
import { startOperator } from '../../support/operator.ts';
import { startPostgres } from '../../support/postgres.ts';
import { apply, manifest, synced, waitFor } from '../../support/resources.ts';
import { tlsCall } from '../../support/tls-client.ts';
import { tlsSecret } from '../../support/tls-secret.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

describe('licensed mode: certificates from Secrets reach the gateway through the dashboard', () => {
  const ns = useNamespace('pro-certs');
  let upstream: Upstream;
  let dashboard: RunningDashboard;

  beforeAll(async () => {
    await installCrds();
    upstream = await startUpstream();
    const postgres = await startPostgres();
    dashboard = await startDashboard({ database_url: postgres.createDatabase('dashboard_certs') });
  });
  afterAll(async () => {
    await dashboard?.stop();
  });

  it("serves the Secret's certificate by SNI, admits only the allowed client certificate, and follows a rotation", async () => {
    const org = await createOrg(dashboard, 'Certs');
    expect((await dashboard.admin('PUT', `/admin/organisations/${org.id}`, { operator_managed: true })).status).toBe(200);
    const operatorKey = await org.user(ALL_WRITE, { system: true });
    const httpsPort = await freePort();
    const gw = await startGateway({
      use_db_app_configs: true,
      policies: { policy_source: 'service' },
      db_app_conf_options: { connection_string: dashboard.url, node_secret: NODE_SECRET, poll_interval_seconds: 0.3 },
      http_server_options: { https_port: httpsPort },
    });
    await startOperator({ gateway: gw, namespace: ns.name, env: { GW_MODE: 'pro', GW_URL: dashboard.url, GW_AUTH: operatorKey, GW_ORG: org.id } });

    const server = selfSignedServingCertificate({ commonName: 'pro one', dnsNames: ['pro.example.com'] });
    const client = selfSignedServingCertificate({ commonName: 'pro client', dnsNames: ['client.pro.test'] });
    const other = selfSignedServingCertificate({ commonName: 'pro other', dnsNames: ['other.pro.test'] });
    await apply(
      ns.name,
      tlsSecret('pro-tls', server),
      tlsSecret('pro-client', client),
      manifest('ApiDefinition', 'pro', {
        name: 'pro',
        active: true,
        use_keyless: true,
        domain: 'pro.example.com',
        certificate_secret_names: ['pro-tls'],
        use_mutual_tls_auth: true,
        client_certificate_refs: ['pro-client'],
        proxy: { listen_path: '/', target_url: upstream.url },
      }),
    );
    await waitFor('apidefinition', ns.name, 'pro', synced);
    const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256.replaceAll(':', '').toLowerCase();
    expect((await org.call('GET', `/api/certs/${org.id}${fingerprint(server.certPem)}`)).status).toBe(200);

    const call = (path: string, pair?: ServingCertificate) =>
      tlsCall(httpsPort, { servername: 'pro.example.com', path, ...(pair ? { cert: pair.certPem, key: pair.keyPem } : {}) });
    await expect.poll(async () => (await call('/in', client)).status, { timeout: 20_000 }).toBe(200);
    const handshake = await call('/in', client);
    expect(handshake.presented.cn).toBe('pro one');
    expect((await call('/out', other)).status).toBe(403);

    const rotated = selfSignedServingCertificate({ commonName: 'pro two', dnsNames: ['pro.example.com'] });
    await apply(ns.name, tlsSecret('pro-tls', rotated));
    await expect.poll(async () => (await call('/again', client)).presented.cn, { timeout: 20_000, interval: 100 }).toBe('pro two');
    expect((await call('/again', client)).status).toBe(200);
  });
});
