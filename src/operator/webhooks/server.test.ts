import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'node:tls';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeCertDir } from '../../../test/support/certs.ts';
import { createCertificateAuthority, issueServingCertificate, type CertificateAuthority } from '../../kube/certs.ts';
import type { AdmissionResponse } from './admission-review.ts';
import { startWebhookServer, type WebhookServer } from './server.ts';

const log = pino({ level: 'silent' });

function servingPair(ca: CertificateAuthority): { certPem: string; keyPem: string } {
  return issueServingCertificate(ca, { commonName: 'webhook', ipAddresses: ['127.0.0.1'], dnsNames: ['localhost'] });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(
  port: number,
  ca: string,
  path: string,
  options: { method?: string; body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'POST',
        ca,
        agent: false,
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The fingerprint of the certificate the server presents to a new connection. */
function presented(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const fingerprint = socket.getPeerX509Certificate()?.fingerprint256 ?? '';
      socket.end();
      resolve(fingerprint);
    });
    socket.on('error', reject);
  });
}

function reviewBody(spec: unknown, kind = 'ApiDefinition'): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u-1',
      kind: { group: 'gw.gw.io', version: 'v1alpha1', kind },
      operation: 'CREATE',
      namespace: 'ns',
      name: 'x',
      object: { metadata: { name: 'x', namespace: 'ns' }, spec },
    },
  });
}

describe('startWebhookServer', () => {
  let dir: string;
  let ca: CertificateAuthority;
  let server: WebhookServer | undefined;
  let registry: Registry;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-webhook-'));
    ca = createCertificateAuthority({ commonName: 'webhook CA' });
    writeCertDir(dir, servingPair(ca));
    registry = new Registry();
    server = await startWebhookServer({ host: '127.0.0.1', port: 0, certDir: dir, log, registry, maxBodyBytes: 64 * 1024 });
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers an AdmissionReview over TLS with the review response', async () => {
    const answer = await call(server!.port, ca.certPem, '/validate-gw-gw-io-v1alpha1-apidefinition', {
      body: reviewBody({ name: 'a', use_keyless: true, use_standard_auth: true, proxy: { listen_path: '/a', target_url: 'http://a' } }),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    const denied = JSON.parse(answer.body) as { apiVersion: string; kind: string; response: AdmissionResponse };
    expect(denied).toMatchObject({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'u-1', allowed: false, status: { code: 422, reason: 'Invalid' } },
    });
    expect(denied.response.status?.message).toContain('spec.use_keyless: Forbidden');
    const mutated = await call(server!.port, ca.certPem, '/mutate-gw-gw-io-v1alpha1-apidefinition', {
      body: reviewBody({ name: 'a', use_keyless: true, proxy: { listen_path: '/a', target_url: 'http://a' } }),
    });
    const patched = (JSON.parse(mutated.body) as { response: AdmissionResponse }).response;
    expect(patched).toMatchObject({ uid: 'u-1', allowed: true, patchType: 'JSONPatch' });
    expect(JSON.parse(Buffer.from(patched.patch!, 'base64').toString())).toContainEqual(expect.objectContaining({ path: '/spec/version_data' }));
  });

  it('answers 404 off its paths, 405 to other methods, 415 to other media, 400 to what is not a review, 413 past the limit', async () => {
    const { port } = server!;
    const path = '/validate-gw-gw-io-v1alpha1-securitypolicy';
    expect((await call(port, ca.certPem, '/validate-gw-gw-io-v1alpha1-subgraph', { body: reviewBody({}) })).status).toBe(404);
    const get = await call(port, ca.certPem, path, { method: 'GET' });
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    expect((await call(port, ca.certPem, path, { body: reviewBody({}), headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    const malformed = await call(port, ca.certPem, path, { body: '{"apiVersion":"v1"}' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatch(/not an admission\.k8s\.io\/v1 AdmissionReview request/);
    expect((await call(port, ca.certPem, path, { body: 'not json' })).status).toBe(400);
    expect((await call(port, ca.certPem, path, { body: Buffer.alloc(65 * 1024, 0x20) })).status).toBe(413);
    expect((await call(port, ca.certPem, path, { body: Buffer.alloc(65 * 1024, 0x20), headers: { 'transfer-encoding': 'chunked' } })).status).toBe(413);
  });

  it('lets DELETE and kinds it does not know through', async () => {
    const review = JSON.parse(reviewBody({ name: 'p', quota_max: 0 }, 'SecurityPolicy')) as { request: Record<string, unknown> };
    review.request.operation = 'DELETE';
    const deleted = await call(server!.port, ca.certPem, '/validate-gw-gw-io-v1alpha1-securitypolicy', { body: JSON.stringify(review) });
    expect(JSON.parse(deleted.body)).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u-1', allowed: true } });
    const other = await call(server!.port, ca.certPem, '/validate-gw-gw-io-v1alpha1-securitypolicy', { body: reviewBody({ anything: 1 }, 'SubGraph') });
    expect(JSON.parse(other.body)).toMatchObject({ response: { allowed: true } });
  });

  it('counts reviews by webhook and outcome, and times them', async () => {
    const path = '/validate-gw-gw-io-v1alpha1-securitypolicy';
    await call(server!.port, ca.certPem, path, { body: reviewBody({ name: 'p' }, 'SecurityPolicy') });
    await call(server!.port, ca.certPem, path, { body: reviewBody({ name: 'p', rate: 1 }, 'SecurityPolicy') });
    await call(server!.port, ca.certPem, path, { body: 'nope' });
    const text = await registry.metrics();
    expect(text).toContain('gw_operator_webhook_requests_total{webhook="validate-gw-gw-io-v1alpha1-securitypolicy",allowed="true"} 1');
    expect(text).toContain('gw_operator_webhook_requests_total{webhook="validate-gw-gw-io-v1alpha1-securitypolicy",allowed="false"} 1');
    expect(text).toContain('gw_operator_webhook_requests_total{webhook="validate-gw-gw-io-v1alpha1-securitypolicy",allowed="error"} 1');
    expect(text).toContain('gw_operator_webhook_request_duration_seconds_count{webhook="validate-gw-gw-io-v1alpha1-securitypolicy"} 3');
  });

  it('serves a rotated certificate to new connections without a restart (directory watch)', async () => {
    const next = createCertificateAuthority({ commonName: 'next CA' });
    const pair = servingPair(next);
    writeCertDir(dir, pair);
    const expected = new X509Certificate(pair.certPem).fingerprint256;
    const deadline = Date.now() + 5000;
    while ((await presented(server!.port)) !== expected) {
      if (Date.now() > deadline) throw new Error('the new certificate was not served within 5 s');
      await sleep(50);
    }
    expect((await call(server!.port, next.certPem, '/validate-gw-gw-io-v1alpha1-apidefinition', { body: reviewBody({}) })).status).toBe(200);
    await expect(call(server!.port, ca.certPem, '/validate-gw-gw-io-v1alpha1-apidefinition', { body: reviewBody({}) })).rejects.toThrow();
  });

  it('keeps the current certificate when the new files are not a valid pair', async () => {
    const before = await presented(server!.port);
    const other = servingPair(createCertificateAuthority({ commonName: 'other' }));
    writeFileSync(join(dir, '..data', 'tls.crt'), other.certPem); // the key stays the old one: a mismatched pair
    expect(server!.reloadCertificates()).toBe(false);
    writeFileSync(join(dir, '..data', 'tls.key'), 'not a key');
    expect(server!.reloadCertificates()).toBe(false);
    expect(await presented(server!.port)).toBe(before);
    expect((await call(server!.port, ca.certPem, '/validate-gw-gw-io-v1alpha1-apidefinition', { body: reviewBody({}) })).status).toBe(200);
    writeFileSync(join(dir, '..data', 'tls.key'), other.keyPem);
    expect(server!.reloadCertificates()).toBe(true);
    expect(await presented(server!.port)).toBe(new X509Certificate(other.certPem).fingerprint256);
  });
});

describe('startWebhookServer without certificates', () => {
  it('refuses to start, naming the files', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'gw-webhook-empty-'));
    try {
      await expect(startWebhookServer({ host: '127.0.0.1', port: 0, certDir: empty, log })).rejects.toThrow(
        /cannot read the webhook certificate .*tls\.crt and key .*tls\.key/,
      );
      writeFileSync(join(empty, 'tls.crt'), servingPair(createCertificateAuthority({ commonName: 'a' })).certPem);
      writeFileSync(join(empty, 'tls.key'), servingPair(createCertificateAuthority({ commonName: 'b' })).keyPem);
      await expect(startWebhookServer({ host: '127.0.0.1', port: 0, certDir: empty, log })).rejects.toThrow(/not a valid certificate and matching key/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
