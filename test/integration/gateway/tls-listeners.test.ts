// The gateway's HTTPS listeners and client mTLS (issue 11 items 3 and 4), through real TLS handshakes on loopback
// against a real gateway process: SNI choosing the API's certificate, a certificate uploaded through /gw/certs
// served without a restart (at once when the API already names it), min_version refusing an older client, mTLS
// APIs beside plain ones on the same listener (allowed / not allowed / missing / removed client certificate), and
// keys derived from client certificates. Certificates are made here.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate, selfSignedServingCertificate, type ServingCertificate } from '../../support/certificates.ts';
import { freePort } from '../../../src/up/ports.ts';
import { addApi, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { tlsCall } from '../../support/tls-client.ts';
import { startUpstream, type Upstream } from '../../support/upstream.ts';

const ca = createCertificateAuthority({ commonName: 'gw test CA' });
const serving = (host: string): ServingCertificate => issueServingCertificate(ca, { commonName: host, dnsNames: [host] });

describe('gateway TLS listeners', () => {
  let gw: RunningGateway;
  let upstream: Upstream;
  let httpsPort: number;
  const upload = async (cert: ServingCertificate | { certPem: string }): Promise<string> => {
    const body = 'keyPem' in cert ? `${cert.certPem}${cert.keyPem}` : cert.certPem;
    const result = await gw.admin('POST', '/gw/certs', body, { 'content-type': 'text/plain' });
    expect(result.status).toBe(200);
    return result.json<{ id: string }>().id;
  };

  beforeAll(async () => {
    upstream = await startUpstream();
    httpsPort = await freePort();
    gw = await startGateway({ http_server_options: { https_port: httpsPort } });
  });

  it('chooses the certificate of the API whose domain is the SNI name, among two domains', async () => {
    const [alpha, beta] = [serving('alpha.test'), serving('beta.test')];
    await addApi(gw, classicApi('alpha', '/', upstream.url, { use_keyless: true, domain: 'alpha.test', certificates: [await upload(alpha)] }));
    await addApi(gw, classicApi('beta', '/', upstream.url, { use_keyless: true, domain: 'beta.test', certificates: [await upload(beta)] }));

    const toAlpha = await tlsCall(httpsPort, { servername: 'alpha.test', path: '/x' });
    const toBeta = await tlsCall(httpsPort, { servername: 'beta.test', path: '/x' });
    expect(toAlpha.status).toBe(200);
    expect(toAlpha.presented).toEqual({ cn: 'alpha.test', subjectAltName: 'DNS:alpha.test' });
    expect(toBeta.status).toBe(200);
    expect(toBeta.presented).toEqual({ cn: 'beta.test', subjectAltName: 'DNS:beta.test' });
    // The plain listener still serves the same APIs.
    expect((await gw.call('/x', { headers: { host: 'alpha.test' } })).status).toBe(200);
  });

  it('serves a certificate uploaded through /gw/certs after a reload, without a restart', async () => {
    await addApi(gw, classicApi('gamma', '/', upstream.url, { use_keyless: true, domain: 'gamma.test' }));
    const before = await tlsCall(httpsPort, { servername: 'gamma.test' });
    expect(before.presented.cn).not.toBe('gamma.test');

    const id = await upload(serving('gamma.test'));
    const api = await gw.admin('GET', '/gw/apis/gamma');
    expect((await gw.admin('PUT', '/gw/apis/gamma', { ...api.json<Record<string, unknown>>(), certificates: [id] })).status).toBe(200);
    await gw.reload();
    const after = await tlsCall(httpsPort, { servername: 'gamma.test' });
    expect(after.presented.cn).toBe('gamma.test');
    expect(after.status).toBe(200);
  });

  it('serves a certificate the API already names as soon as /gw/certs stores it, without a reload', async () => {
    const delta = serving('delta.test');
    const id = new X509Certificate(delta.certPem).fingerprint256.replaceAll(':', '').toLowerCase();
    await addApi(gw, classicApi('delta', '/', upstream.url, { use_keyless: true, domain: 'delta.test', certificates: [id] }));
    expect((await tlsCall(httpsPort, { servername: 'delta.test' })).presented.cn).not.toBe('delta.test');

    expect(await upload(delta)).toBe(id);
    expect((await tlsCall(httpsPort, { servername: 'delta.test' })).presented.cn).toBe('delta.test');
  });

  it("serves an OAS API's customDomain.certificates by SNI and enforces its clientCertificates allowlist", async () => {
    const client = selfSignedServingCertificate({ commonName: 'oas client', dnsNames: ['oas.client.test'] });
    const oas = (allowlist: string[]) => ({
      openapi: '3.0.3',
      info: { title: 'oas-tls', version: '1.0.0' },
      paths: {},
      'x-gw-api-gateway': {
        info: { name: 'oas-tls', id: 'oas-tls', state: { active: true } },
        upstream: { url: upstream.url },
        server: {
          listenPath: { value: '/', strip: true },
          customDomain: { enabled: true, name: 'oas.test', certificates: [servedId] },
          clientCertificates: { enabled: true, allowlist },
        },
      },
    });
    const servedId = await upload(serving('oas.test'));
    const clientId = await upload({ certPem: client.certPem });
    expect((await gw.admin('POST', '/gw/apis/oas', oas([clientId]))).status).toBe(200);
    await gw.reload();

    const allowed = await tlsCall(httpsPort, { servername: 'oas.test', cert: client.certPem, key: client.keyPem });
    expect(allowed.presented.cn).toBe('oas.test');
    expect(allowed.status).toBe(200);
    expect((await tlsCall(httpsPort, { servername: 'oas.test' })).status).toBe(403);
  });

  describe('mTLS', () => {
    const allowedClient = selfSignedServingCertificate({ commonName: 'allowed client', dnsNames: ['allowed.client.test'] });
    const otherClient = selfSignedServingCertificate({ commonName: 'other client', dnsNames: ['other.client.test'] });
    let allowedId: string;

    beforeAll(async () => {
      allowedId = await upload({ certPem: allowedClient.certPem });
      const mtlsId = await upload(serving('mtls.test'));
      const plainId = await upload(serving('plain.test'));
      await addApi(
        gw,
        classicApi('mtls', '/', upstream.url, {
          use_keyless: true,
          domain: 'mtls.test',
          certificates: [mtlsId],
          use_mutual_tls_auth: true,
          client_certificates: [allowedId],
        }),
      );
      await addApi(gw, classicApi('plain', '/', upstream.url, { use_keyless: true, domain: 'plain.test', certificates: [plainId] }));
    });

    it('lets an allowed client certificate through', async () => {
      const result = await tlsCall(httpsPort, { servername: 'mtls.test', cert: allowedClient.certPem, key: allowedClient.keyPem });
      expect(result.status).toBe(200);
    });

    it('refuses a certificate not on the allow-list with 403 naming its SHA-256', async () => {
      const result = await tlsCall(httpsPort, { servername: 'mtls.test', cert: otherClient.certPem, key: otherClient.keyPem });
      const fingerprint = new X509Certificate(otherClient.certPem).fingerprint256.replaceAll(':', '').toLowerCase();
      expect(result.status).toBe(403);
      expect(JSON.parse(result.text)).toEqual({ error: `Certificate with SHA256 ${fingerprint} not allowed` });
    });

    it('refuses a request without a client certificate, and plain HTTP', async () => {
      const result = await tlsCall(httpsPort, { servername: 'mtls.test' });
      expect(result.status).toBe(403);
      expect(JSON.parse(result.text)).toEqual({ error: 'Client TLS certificate is required' });
      const plainHttp = await gw.call('/', { headers: { host: 'mtls.test' } });
      expect(plainHttp.status).toBe(403);
      expect(plainHttp.json()).toEqual({ error: 'TLS not enabled' });
    });

    it('serves a plain API on the same listener without a client certificate', async () => {
      const result = await tlsCall(httpsPort, { servername: 'plain.test' });
      expect(result.status).toBe(200);
      expect(result.presented.cn).toBe('plain.test');
    });

    it('refuses a removed certificate at once, without a reload', async () => {
      expect((await gw.admin('DELETE', `/gw/certs/${allowedId}`)).status).toBe(200);
      const result = await tlsCall(httpsPort, { servername: 'mtls.test', cert: allowedClient.certPem, key: allowedClient.keyPem });
      expect(result.status).toBe(403);
      expect((JSON.parse(result.text) as { error: string }).error).toMatch(/^Certificate with SHA256 [0-9a-f]{64} not allowed$/);
    });
  });
});

describe('gateway keys from client certificates (use_certificate)', () => {
  it('admits the key made for the certificate, refuses other, missing and removed certificates, and never takes the key as a plain token', async () => {
    const upstream = await startUpstream();
    const httpsPort = await freePort();
    const gw = await startGateway({ http_server_options: { https_port: httpsPort } });
    const client = selfSignedServingCertificate({ commonName: 'key client', dnsNames: ['key.client.test'] });
    const stranger = selfSignedServingCertificate({ commonName: 'stranger', dnsNames: ['stranger.test'] });
    const uploadPem = async (pem: string): Promise<string> =>
      (await gw.admin('POST', '/gw/certs?org_id=org1', pem, { 'content-type': 'text/plain' })).json<{ id: string }>().id;
    const served = serving('keys.test');
    const serverId = await uploadPem(`${served.certPem}${served.keyPem}`);
    const clientId = await uploadPem(client.certPem);
    await uploadPem(stranger.certPem);
    await addApi(
      gw,
      classicApi('by-cert', '/', upstream.url, {
        org_id: 'org1',
        domain: 'keys.test',
        certificates: [serverId],
        use_standard_auth: true,
        auth_configs: { authToken: { use_certificate: true } },
      }),
    );
    await addApi(gw, classicApi('by-token', '/', upstream.url, { org_id: 'org1', domain: 'token.test', use_standard_auth: true }));

    const grant = { org_id: 'org1', access_rights: { 'by-cert': { api_id: 'by-cert', versions: [] }, 'by-token': { api_id: 'by-token', versions: [] } } };
    const created = await gw.admin('POST', '/gw/keys/create', { ...grant, certificate: clientId });
    expect(created.status).toBe(200);
    const key = created.json<{ key: string }>().key;
    expect(key).toBe(`org1${clientId}`);
    const again = await gw.admin('POST', '/gw/keys/create', { ...grant, certificate: clientId });
    expect(again.status).toBe(409);
    expect(again.json()).toEqual({ status: 'error', message: `Failed to create key - Key with given certificate already found:${key}` });
    expect((await gw.admin('POST', '/gw/keys/create', { ...grant, certificate: 'org1nope' })).json()).toEqual({
      status: 'error',
      message: 'Key must be used with an existent certificate',
    });

    const call = (cert?: { certPem: string; keyPem: string }) =>
      tlsCall(httpsPort, { servername: 'keys.test', ...(cert ? { cert: cert.certPem, key: cert.keyPem } : {}) });
    expect((await call(client)).status).toBe(200);
    const noCert = await call();
    expect([noCert.status, JSON.parse(noCert.text)]).toEqual([401, { error: 'Client certificate required' }]);
    const other = await call(stranger);
    expect([other.status, JSON.parse(other.text)]).toEqual([401, { error: 'Access to this API has been disallowed' }]);
    const asToken = await gw.call('/', { headers: { host: 'token.test', authorization: key } });
    expect([asToken.status, asToken.json()]).toEqual([403, { error: 'Access to this API has been disallowed' }]);

    expect((await gw.admin('DELETE', `/gw/certs/${clientId}`)).status).toBe(200);
    const removed = await call(client);
    expect([removed.status, JSON.parse(removed.text)]).toEqual([403, { error: 'Access to this API has been disallowed' }]);
  });
});

describe('gateway TLS on listen_port (use_ssl) with a file certificate and min_version', () => {
  it('refuses a TLS 1.2 client when TLS 1.3 is required and serves a TLS 1.3 one', async () => {
    const upstream = await startUpstream();
    const cert = serving('files.test');
    const dir = mkdtempSync(join(tmpdir(), 'gw-tls-files-'));
    writeFileSync(join(dir, 'cert.pem'), cert.certPem);
    writeFileSync(join(dir, 'key.pem'), cert.keyPem);
    const files = [{ domain_name: 'files.test', cert_file: join(dir, 'cert.pem'), key_file: join(dir, 'key.pem') }];
    try {
      const gw = await startGateway({ control_api_port: await freePort(), http_server_options: { use_ssl: true, min_version: 772, certificates: files } });
      await addApi(gw, classicApi('files', '/', upstream.url, { use_keyless: true }));
      const port = Number(new URL(gw.url).port);

      const modern = await tlsCall(port, { servername: 'files.test' });
      expect(modern.status).toBe(200);
      expect(modern.presented.cn).toBe('files.test');
      await expect(tlsCall(port, { servername: 'files.test', maxVersion: 'TLSv1.2' })).rejects.toThrow(/protocol version/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
