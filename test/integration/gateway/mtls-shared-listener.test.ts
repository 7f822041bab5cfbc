// Static mTLS on an API without a domain, sharing its HTTPS listener with plain APIs (security issue 23 item 4),
// through real TLS handshakes on loopback against a real gateway process. Such an API makes the listener ask every
// client for a certificate; the handshake must still succeed without one, or with one no CA vouches for, and each
// API decides over HTTP (middleware/access/client-certificate.ts), as Tyk Gateway does for APIs without a domain.
import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate, selfSignedServingCertificate } from '../../support/certificates.ts';
import { freePort } from '../../../src/up/ports.ts';
import { addApi, classicApi, startGateway, type RunningGateway } from '../../support/gateway.ts';
import { tlsCall } from '../../support/tls-client.ts';
import { startUpstream } from '../../support/upstream.ts';

const ca = createCertificateAuthority({ commonName: 'gw shared listener CA' });
const plainServing = issueServingCertificate(ca, { commonName: 'plain.test', dnsNames: ['plain.test'] });
const allowedClient = selfSignedServingCertificate({ commonName: 'allowed client', dnsNames: ['allowed.client.test'] });
const otherClient = selfSignedServingCertificate({ commonName: 'other client', dnsNames: ['other.client.test'] });

describe('an mTLS API without a domain on a shared HTTPS listener', () => {
  let gw: RunningGateway;
  let httpsPort: number;

  beforeAll(async () => {
    const upstream = await startUpstream();
    httpsPort = await freePort();
    gw = await startGateway({ http_server_options: { https_port: httpsPort } });
    const upload = async (pem: string): Promise<string> =>
      (await gw.admin('POST', '/gw/certs', pem, { 'content-type': 'text/plain' })).json<{ id: string }>().id;
    const plainId = await upload(`${plainServing.certPem}${plainServing.keyPem}`);
    const allowedId = await upload(allowedClient.certPem);
    await addApi(gw, classicApi('plain', '/', upstream.url, { use_keyless: true, domain: 'plain.test', certificates: [plainId] }));
    await addApi(gw, classicApi('anywhere-mtls', '/secure', upstream.url, { use_keyless: true, use_mutual_tls_auth: true, client_certificates: [allowedId] }));
  });

  it('serves a plain API to a client without a certificate', async () => {
    const result = await tlsCall(httpsPort, { servername: 'plain.test', path: '/' });
    expect(result.status).toBe(200);
    expect(result.presented.cn).toBe('plain.test');
  });

  it('lets the allowed certificate through, though no CA vouches for it', async () => {
    const result = await tlsCall(httpsPort, { servername: 'any.test', path: '/secure', cert: allowedClient.certPem, key: allowedClient.keyPem });
    expect(result.status).toBe(200);
  });

  it('answers 403 over HTTP, not in the handshake, without a certificate or with another one', async () => {
    const missing = await tlsCall(httpsPort, { servername: 'any.test', path: '/secure' });
    expect([missing.status, JSON.parse(missing.text)]).toEqual([403, { error: 'Client TLS certificate is required' }]);
    const other = await tlsCall(httpsPort, { servername: 'any.test', path: '/secure', cert: otherClient.certPem, key: otherClient.keyPem });
    const fingerprint = new X509Certificate(otherClient.certPem).fingerprint256.replaceAll(':', '').toLowerCase();
    expect([other.status, JSON.parse(other.text)]).toEqual([403, { error: `Certificate with SHA256 ${fingerprint} not allowed` }]);
  });
});
