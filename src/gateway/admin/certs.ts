// /gw/certs: certificates (PEM: a chain, leaf first, and optionally its private key; read by src/pem, the reader
// the dashboard shares) by id = org_id + SHA-256 fingerprint of the leaf. What is stored is exactly the checked blocks.
//   POST /gw/certs[?org_id=]      {id, status: "ok", message: "Certificate added"}; 400 naming the problem otherwise
//   GET  /gw/certs[?mode=detailed] {certs: [ids]} or {certs: [metadata]}
//   GET  /gw/certs/{id}[,{id}...]  metadata (an array for several ids, null where missing)
//   DELETE /gw/certs/{id}          always {status: "ok", message: "removed"}
// Private keys are stored but never returned. Every change rebuilds this gateway's TLS certificates and mTLS
// fingerprints at once (other gateways of a group on their next reload).
import type { FastifyInstance } from 'fastify';
import { certificateMetadata, parseCertificateBundle, PemError, type CertificateBundle } from '../../pem/certificate-bundle.ts';
import type { StoredCert } from '../store/store.ts';
import type { AdminDeps } from './deps.ts';
import { HttpError, ok, param, route, sendJson } from './http.ts';

const NOT_FOUND = 'Certificate with given SHA256 fingerprint not found';

export function registerCertRoutes(app: FastifyInstance, deps: AdminDeps): void {
  route(app, '/gw/certs', {
    POST: async (request, reply) => {
      const pem = typeof request.body === 'string' ? request.body : '';
      let bundle: CertificateBundle;
      try {
        bundle = parseCertificateBundle(pem);
      } catch (error) {
        if (error instanceof PemError) throw new HttpError('invalid', `Request malformed: ${error.message}`);
        throw error;
      }
      const org = (request.query as { org_id?: string }).org_id ?? '';
      const id = `${org}${bundle.fingerprint}`;
      await deps.store.putCert({ id, pem: bundle.pem });
      await deps.certificatesChanged();
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
      return sendJson(
        reply,
        200,
        found.map((c) => (c ? metadata(c) : null)),
      );
    },
    DELETE: async (request, reply) => {
      await deps.store.deleteCert(param(request, 'id'));
      await deps.certificatesChanged();
      return ok(reply, 'removed');
    },
  });
}

function metadata(stored: StoredCert): Record<string, unknown> {
  return { id: stored.id, ...certificateMetadata(stored.pem) };
}
