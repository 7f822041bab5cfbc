// /api/certs on a real PostgreSQL and on PGlite: upload as a raw PEM body and as the operator's multipart form
// (field `cert`, private key included), ids = organisation id + SHA-256 fingerprint, metadata only (a private key
// is stored but never returned), two organisations uploading the same certificate get two ids and see only their
// own, permissions, and refusal of a body that holds no certificate.
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/up/paths.ts';
import { createOrg, startDashboard, type RunningDashboard, type TestOrg } from '../../support/dashboard.ts';
import { ENGINES, useDatabases } from '../../support/postgres.ts';

const FIXTURE = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'gw.test.crt'), 'utf8');
const fingerprintOf = (pem: string): string => new X509Certificate(pem).fingerprint256.replaceAll(':', '').toLowerCase();

/** A fresh self-signed certificate and its key (openssl, as a user would make one). */
function selfSigned(): { cert: string; key: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gw-dashboard-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=multipart.test', '-addext', 'subjectAltName=DNS:multipart.test'], { stdio: 'ignore' });
    return { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function multipart(fields: Record<string, string>): { body: string; type: string } {
  const boundary = `----gwtest${Date.now()}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="cert.pem"\r\nContent-Type: application/octet-stream\r\n\r\n${value}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

describe.each(ENGINES)('dashboard certificates on %s', (engine) => {
  const db = useDatabases(engine);
  let dashboard: RunningDashboard;
  let a: TestOrg;
  let b: TestOrg;
  let generated: { cert: string; key: string };
  beforeAll(async () => {
    dashboard = await startDashboard(db.config());
    a = await createOrg(dashboard, 'A');
    b = await createOrg(dashboard, 'B');
    generated = selfSigned();
  });

  it('uploads a PEM body; the id is the organisation id + the SHA-256 fingerprint; lists and reads metadata; deletes', async () => {
    const uploaded = await a.call('POST', '/api/certs', FIXTURE, { 'content-type': 'text/plain' });
    expect(uploaded.status).toBe(200);
    const id = `${a.id}${fingerprintOf(FIXTURE)}`;
    expect(uploaded.json()).toEqual({ id, status: 'ok', message: 'Certificate added' });
    expect((await a.call('POST', '/api/certs', FIXTURE)).json()).toMatchObject({ id });

    expect((await a.call('GET', '/api/certs')).json()).toEqual({ certs: [id], pages: 1 });
    const detailed = (await a.call('GET', '/api/certs?mode=detailed')).json<{ certs: Record<string, unknown>[] }>();
    expect(detailed.certs[0]).toMatchObject({ id, fingerprint: fingerprintOf(FIXTURE), has_private: false, subject: 'CN=gw.test' });
    expect((await a.call('GET', `/api/certs/${id}`)).json()).toMatchObject({ id, has_private: false, });

    expect((await a.call('DELETE', `/api/certs/${id}`)).json()).toEqual({ Status: 'OK', Message: 'Certificate deleted', Meta: null });
    expect((await a.call('GET', `/api/certs/${id}`)).json()).toEqual({ Status: 'Error', Message: 'Certificate not found' });
    expect((await a.call('DELETE', `/api/certs/${id}`)).status).toBe(404);
  });

  it("takes the operator's multipart upload with a private key, and never returns the key", async () => {
    const form = multipart({ cert: `${generated.key}${generated.cert}` });
    const uploaded = await a.call('POST', '/api/certs', form.body, { 'content-type': form.type });
    expect(uploaded.status).toBe(200);
    const id = uploaded.json<{ id: string }>().id;
    expect(id).toBe(`${a.id}${fingerprintOf(generated.cert)}`);
    const one = await a.call('GET', `/api/certs/${id}`);
    expect(one.json()).toMatchObject({ has_private: true, dns_names: ['multipart.test'] });
    for (const response of [one, await a.call('GET', '/api/certs?mode=detailed&p=-2'), await a.call('GET', '/api/certs?p=-2')]) {
      expect(response.text).not.toContain('PRIVATE KEY');
      expect(response.text).not.toContain(generated.key.split('\n')[1]!);
    }
    const noField = multipart({ other: generated.cert });
    const refused = await a.call('POST', '/api/certs', noField.body, { 'content-type': noField.type });
    expect(refused.status).toBe(400);
    expect(refused.json<{ Message: string }>().Message).toContain('cert');
  });

  it('refuses a body without a certificate', async () => {
    for (const body of ['hello', '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n']) {
      const response = await a.call('POST', '/api/certs', body, { 'content-type': 'text/plain' });
      expect(response.status).toBe(400);
      expect(response.json<{ Message: string }>().Message).toMatch(/^Request malformed: cert: /);
    }
  });

  it('keeps organisations apart: the same certificate is two ids, and B cannot read or delete A’s', async () => {
    const idA = (await a.call('POST', '/api/certs', FIXTURE)).json<{ id: string }>().id;
    const idB = (await b.call('POST', '/api/certs', FIXTURE)).json<{ id: string }>().id;
    expect(idA).not.toBe(idB);
    expect(idB).toBe(`${b.id}${fingerprintOf(FIXTURE)}`);
    expect((await b.call('GET', '/api/certs?p=-2')).json<{ certs: string[] }>().certs).toEqual([idB]);
    expect((await b.call('GET', `/api/certs/${idA}`)).status).toBe(404);
    expect((await b.call('DELETE', `/api/certs/${idA}`)).status).toBe(404);
    expect((await a.call('GET', `/api/certs/${idA}`)).status).toBe(200);
    expect((await b.call('DELETE', `/api/certs/${idB}`)).status).toBe(200);
    expect((await a.call('GET', `/api/certs/${idA}`)).status).toBe(200);
  });

  it('applies the certificates permission: read may GET only, deny may not GET', async () => {
    const reader = dashboard.as(await a.user({ certificates: 'read' }));
    const denied = dashboard.as(await a.user({ apis: 'write' }));
    expect((await reader('GET', '/api/certs')).status).toBe(200);
    expect((await reader('POST', '/api/certs', FIXTURE)).json()).toEqual({ Status: 'Error', Message: 'access denied: requires certificates write' });
    expect((await reader('DELETE', '/api/certs/x')).status).toBe(403);
    expect((await denied('GET', '/api/certs')).json()).toEqual({ Status: 'Error', Message: 'access denied: requires certificates read' });
  });
});
