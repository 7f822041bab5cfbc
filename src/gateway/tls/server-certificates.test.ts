// ServerCertificates against a real node:tls server on loopback: the SNI name picks the certificate, a client
// certificate is requested only for the names of mTLS APIs, and a rebuild changes what the next handshake sees.
import { connect, createServer, type Server, type TLSSocket } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate, selfSignedServingCertificate } from '../../../test/support/certificates.ts';
import type { StoredCert } from '../store/store.ts';
import { leafFingerprint, ServerCertificates } from './server-certificates.ts';

const ca = createCertificateAuthority({ commonName: 'unit CA' });
const named = (id: string, commonName: string, dnsNames: string[]): StoredCert => {
  const pair = issueServingCertificate(ca, { commonName, dnsNames });
  return { id, pem: `${pair.certPem}${pair.keyPem}` };
};
const stored = (id: string, host: string): StoredCert => named(id, host, [host]);
const client = selfSignedServingCertificate({ commonName: 'client', dnsNames: ['client.test'] });

describe('ServerCertificates', () => {
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  /** Handshakes with `servername`, offering the client certificate; reports what each side saw. */
  async function handshake(certificates: ServerCertificates, servername: string): Promise<{ presentedCn: unknown; serverSawClientCert: boolean }> {
    server ??= await new Promise<Server>((resolveServer) => {
      const created = createServer({ SNICallback: certificates.sniCallback() });
      certificates.attach(created);
      created.listen(0, '127.0.0.1', () => resolveServer(created));
    });
    const sawClientCert = new Promise<boolean>((resolveSaw) =>
      server!.once('secureConnection', (socket: TLSSocket) => resolveSaw(socket.getPeerCertificate().raw !== undefined)),
    );
    const socket = await new Promise<TLSSocket>((resolveSocket, reject) => {
      const opened = connect(
        { port: (server!.address() as AddressInfo).port, host: '127.0.0.1', servername, rejectUnauthorized: false, cert: client.certPem, key: client.keyPem },
        () => resolveSocket(opened),
      );
      opened.on('error', reject);
    });
    const presentedCn = socket.getPeerCertificate().subject.CN;
    socket.end();
    return { presentedCn, serverSawClientCert: await sawClientCert };
  }

  it('presents the certificate of the SNI name and requests a client certificate only for mTLS names', async () => {
    const certificates = new ServerCertificates('TLSv1.2');
    const problems = certificates.rebuild([stored('a', 'plain.test'), stored('b', 'mtls.test')], {
      files: [],
      storeIds: [],
      apis: [
        { apiId: 'plain', domain: 'plain.test', certificates: ['a'], requestsClientCertificate: false },
        { apiId: 'mtls', domain: 'mtls.test', certificates: ['b'], requestsClientCertificate: true },
      ],
    });
    expect(problems).toEqual([]);
    expect(await handshake(certificates, 'plain.test')).toEqual({ presentedCn: 'plain.test', serverSawClientCert: false });
    expect(await handshake(certificates, 'mtls.test')).toEqual({ presentedCn: 'mtls.test', serverSawClientCert: true });
  });

  it("serves an API domain for the names it routes: {?:[^.]+}.x one label, *.x one or more; a certificate's own *.x one label", async () => {
    const certificates = new ServerCertificates('TLSv1.2');
    const problems = certificates.rebuild(
      [named('d', 'default', ['default.test']), named('w', 'one-label', ['*.ing.test']), named('s', 'subdomains', ['sub.test'])],
      {
        files: [],
        storeIds: ['d'],
        apis: [
          { apiId: 'ingress', domain: '{?:[^.]+}.ing.test', certificates: ['w'], requestsClientCertificate: true },
          { apiId: 'deep', domain: '*.deep.test', certificates: ['s'], requestsClientCertificate: false },
        ],
      },
    );
    expect(problems).toEqual([]);
    expect(await handshake(certificates, 'a.ing.test')).toEqual({ presentedCn: 'one-label', serverSawClientCert: true });
    expect(await handshake(certificates, 'a.b.ing.test')).toEqual({ presentedCn: 'default', serverSawClientCert: false });
    expect(await handshake(certificates, 'ing.test')).toEqual({ presentedCn: 'default', serverSawClientCert: false });
    expect(await handshake(certificates, 'x.y.deep.test')).toEqual({ presentedCn: 'subdomains', serverSawClientCert: false });
  });

  it('reports ids it cannot serve, and forgets a removed certificate on the next rebuild', () => {
    const certificates = new ServerCertificates('TLSv1.2');
    const withoutKey: StoredCert = { id: 'nokey', pem: client.certPem };
    const problems = certificates.rebuild([withoutKey], { files: [], storeIds: ['missing', 'nokey'], apis: [] });
    expect(problems).toEqual([
      'http_server_options.ssl_certificates: certificate missing is not in the certificate store',
      'http_server_options.ssl_certificates: certificate nokey has no unencrypted private key, it cannot be served',
    ]);
    expect(certificates.fingerprintOf('nokey')).toBe(leafFingerprint(client.certPem));
    certificates.rebuild([], { files: [], storeIds: [], apis: [] });
    expect(certificates.fingerprintOf('nokey')).toBeUndefined();
  });
});
