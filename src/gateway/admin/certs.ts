// /gw/certs: certificates (PEM; a private key may follow the certificate) by id = org_id + SHA-256 fingerprint.
//   POST /gw/certs[?org_id=]      {id, status: "ok", message: "Certificate added"}; 400 when the PEM does not parse
//   GET  /gw/certs[?mode=detailed] {certs: [ids]} or {certs: [metadata]}
//   GET  /gw/certs/{id}[,{id}...]  metadata (an array for several ids, null where missing)
//   DELETE /gw/certs/{id}          always {status: "ok", message: "removed"}
// Private keys are stored but never returned.
import { X509Certificate } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { StoredCert } from '../store/store.ts';
import type { AdminDeps } from './deps.ts';
import { HttpError, ok, param, route, sendJson } from './http.ts';

const NOT_FOUND = 'Certificate with given SHA256 fingerprint not found';

export function registerCertRoutes(app: FastifyInstance, deps: AdminDeps): void {
  route(app, '/gw/certs', {
    POST: async (request, reply) => {
      const pem = typeof request.body === 'string' ? request.body : '';
      const block = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0];
      if (!block) throw new HttpError('invalid', 'Request malformed: the body must hold a PEM certificate (-----BEGIN CERTIFICATE-----)');
      let cert: X509Certificate;
      try {
        cert = new X509Certificate(block);
      } catch (error) {
        throw new HttpError('invalid', `Request malformed: the certificate does not parse (${(error as Error).message})`);
      }
      const org = (request.query as { org_id?: string }).org_id ?? '';
      const id = `${org}${fingerprint(cert)}`;
      await deps.store.putCert({ id, pem });
      return sendJson(reply, 200, { id, status: 'ok', message: 'Certificate added' });
    },
    GET: async (request, reply) => {
      const certs = await deps.store.listCerts();
      const detailed = (request.query as { mode?: string }).mode === 'detailed';
      return sendJson(reply, 200, { certs: detailed ? certs.map(metadata) : certs.map((c) => c.id) });
    },
  });
  route(app, '/gw/certs/:id', {
    GET: async (request, reply) => {
      const ids = param(request, 'id').split(',');
      const found = await Promise.all(ids.map((id) => deps.store.getCert(id)));
      if (ids.length === 1) {
        if (!found[0]) throw new HttpError('not_found', NOT_FOUND);
        return sendJson(reply, 200, metadata(found[0]));
      }
      return sendJson(reply, 200, found.map((c) => (c ? metadata(c) : null)));
    },
    DELETE: async (request, reply) => {
      await deps.store.deleteCert(param(request, 'id'));
      return ok(reply, 'removed');
    },
  });
}

function fingerprint(cert: X509Certificate): string {
  return cert.fingerprint256.replaceAll(':', '').toLowerCase();
}

function metadata(stored: StoredCert): Record<string, unknown> {
  const cert = new X509Certificate(stored.pem);
  return {
    id: stored.id,
    fingerprint: fingerprint(cert),
    has_private: /-----BEGIN (RSA |EC )?PRIVATE KEY-----/.test(stored.pem),
    issuer: cert.issuer,
    subject: cert.subject,
    not_before: new Date(cert.validFrom).toISOString(),
    not_after: new Date(cert.validTo).toISOString(),
    dns_names: (cert.subjectAltName ?? '').split(', ').filter((n) => n.startsWith('DNS:')).map((n) => n.slice(4)),
    is_ca: cert.ca,
  };
}
