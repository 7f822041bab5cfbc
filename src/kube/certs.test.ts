import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { request, type RequestOptions } from 'node:https';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { checkServerIdentity } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServingCertificate, selfSignedServingCertificate } from './certs.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('createCertificateAuthority', () => {
  it('is a self-signed CA certificate whose key matches', () => {
    const ca = createCertificateAuthority({ commonName: 'gw test CA' });
    const cert = new X509Certificate(ca.certPem);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe('CN=gw test CA');
    expect(cert.issuer).toBe('CN=gw test CA');
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(ca.keyPem))).toBe(true);
    expect(cert.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
  });

  it('is valid from an hour ago for the requested number of days (365 by default)', () => {
    const before = Date.now();
    const byDefault = new X509Certificate(createCertificateAuthority({ commonName: 'a' }).certPem);
    const short = new X509Certificate(createCertificateAuthority({ commonName: 'b', days: 2 }).certPem);
    const from = byDefault.validFromDate.getTime();
    expect(from).toBeGreaterThan(before - 60 * 60 * 1000 - 2000);
    expect(from).toBeLessThan(before - 60 * 60 * 1000 + 2000);
    expect(Math.abs(byDefault.validToDate.getTime() - (before + 365 * DAY))).toBeLessThan(5000);
    expect(Math.abs(short.validToDate.getTime() - (before + 2 * DAY))).toBeLessThan(5000);
  });

  it('writes dates from 2050 as GeneralizedTime, which parsers read back', () => {
    const cert = new X509Certificate(createCertificateAuthority({ commonName: 'long', days: 40 * 365 }).certPem);
    expect(cert.validToDate.getUTCFullYear()).toBeGreaterThanOrEqual(2060);
  });

  it('gives every certificate a different positive serial number', () => {
    const serials = new Set(Array.from({ length: 20 }, () => new X509Certificate(createCertificateAuthority({ commonName: 's' }).certPem).serialNumber));
    expect(serials.size).toBe(20);
    for (const serial of serials) expect(serial).toMatch(/^[4-7][0-9A-F]{31}$/);
  });
});

describe('issueServingCertificate', () => {
  const ca = createCertificateAuthority({ commonName: 'issuer' });
  const leaf = issueServingCertificate(ca, {
    commonName: 'webhook',
    dnsNames: ['gw-webhook.gw-operator-system.svc', 'localhost'],
    ipAddresses: ['127.0.0.1', '::1', '2001:db8::8:800:200c:417a', '::ffff:10.1.2.3'],
    days: 30,
  });
  const cert = new X509Certificate(leaf.certPem);

  it('is signed by the CA and names it as issuer', () => {
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
    expect(cert.verify(createCertificateAuthority({ commonName: 'issuer' }).publicKey)).toBe(false);
    expect(cert.issuer).toBe('CN=issuer');
    expect(cert.subject).toBe('CN=webhook');
  });

  it('is a leaf for server authentication', () => {
    expect(cert.ca).toBe(false);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(cert.checkPrivateKey(createPrivateKey(leaf.keyPem))).toBe(true);
    expect(createPublicKey(leaf.keyPem).export({ format: 'jwk' })).toEqual(cert.publicKey.export({ format: 'jwk' }));
  });

  it('carries its DNS names and IPv4 and IPv6 addresses', () => {
    expect(cert.checkHost('gw-webhook.gw-operator-system.svc')).toBe('gw-webhook.gw-operator-system.svc');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkHost('other.svc')).toBeUndefined();
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkIP('::1')).toBe('::1');
    expect(cert.checkIP('2001:db8:0:0:8:800:200c:417a')).toBe('2001:db8:0:0:8:800:200c:417a');
    expect(cert.checkIP('::ffff:a01:203')).toBeDefined();
    expect(cert.checkIP('127.0.0.2')).toBeUndefined();
    expect(cert.subjectAltName).toContain('IP Address:2001:DB8:0:0:8:800:200C:417A');
  });

  it('refuses a certificate without any name, and names that are not names', () => {
    expect(() => issueServingCertificate(ca, { commonName: 'x' })).toThrow(/at least one DNS name or IP address/);
    expect(() => issueServingCertificate(ca, { commonName: 'x', ipAddresses: ['300.1.1.1'] })).toThrow(/not an IP address/);
    expect(() => issueServingCertificate(ca, { commonName: 'x', dnsNames: ['a b'] })).toThrow(/not a DNS name/);
  });
});

describe('TLS with the certificates', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  async function serve(certPem: string, keyPem: string): Promise<number> {
    server = createServer({ cert: certPem, key: keyPem }, (_req, res) => res.end('hello'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  function get(options: RequestOptions): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', path: '/', agent: false, ...options }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
  }

  const { caPem, certPem, keyPem } = selfSignedServingCertificate({ commonName: 'webhook', dnsNames: ['webhook.test.svc'], ipAddresses: ['127.0.0.1'] });

  it('a client trusting the CA completes the handshake to 127.0.0.1', async () => {
    const port = await serve(certPem, keyPem);
    await expect(get({ port, ca: caPem })).resolves.toBe('hello');
  });

  it('a client trusting the CA completes the handshake to a DNS name (SNI + identity check)', async () => {
    const port = await serve(certPem, keyPem);
    await expect(
      get({ port, ca: caPem, servername: 'webhook.test.svc', checkServerIdentity: (_host, cert) => checkServerIdentity('webhook.test.svc', cert) }),
    ).resolves.toBe('hello');
    await expect(
      get({ port, ca: caPem, servername: 'other.test.svc', checkServerIdentity: (_host, cert) => checkServerIdentity('other.test.svc', cert) }),
    ).rejects.toThrow(/altnames/);
  });

  it('a client trusting another CA refuses it', async () => {
    const port = await serve(certPem, keyPem);
    const other = createCertificateAuthority({ commonName: 'webhook CA' });
    await expect(get({ port, ca: other.certPem })).rejects.toThrow(/signature|self[- ]signed|verify|issuer/i);
    await expect(get({ port })).rejects.toThrow();
  });
});
