// /api/certs: the organisation's certificates (permission `certificates`), PEM-encoded: a chain (leaf first, then
// its issuers), optionally with the leaf's private key before or after; read by src/pem (the reader the gateway
// shares), which names what is wrong with any other body (400), and stored as exactly the blocks it checked. The body is the PEM itself, or multipart/form-data with the PEM in field `cert`
// (how Tyk's operator uploads). The id is the organisation id + the SHA-256 fingerprint (lower-case hex),
// so uploading the same certificate again is the same id. Private keys are stored and never returned here; the
// gateways this dashboard feeds get them through the node API (routes/node.ts), so every change bumps the revision.
//   POST   /api/certs                  -> {id, status: "ok", message: "Certificate added"} (the gateway's /gw/certs
//                                         answer, so one client reads both)
//   GET    /api/certs[?mode=detailed&p=]  {certs: [<id>] or [<metadata>], pages}
//   GET    /api/certs/{id}              metadata {id, fingerprint, has_private, issuer, subject, not_before, not_after, dns_names, is_ca}
//   GET    /api/certs/{id}/apis         {apis: [{api_id, name}]}: the APIs whose definition names the certificate
//   DELETE /api/certs/{id}              {Status: "OK", Message: "Certificate deleted", Meta: null}; 409 naming the APIs
//                                         while any uses it (Tyk's gateway deletes regardless; gw keeps those APIs loadable)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { certificateMetadata, parseCertificateBundle, PemError, type CertificateBundle } from '../../pem/certificate-bundle.ts';
import { orgRoute } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { HttpError, notFound, param, query, sendJson, sendOk } from '../http.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { apisNaming } from '../store/apis.ts';
import { classicView } from '../definitions.ts';
import { deleteCert, getCert, listCerts, putCert, type StoredCert } from '../store/certs.ts';
import { write } from '../store/write.ts';

export function registerCertRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;

  orgRoute(app, '/api/certs', 'certificates', {
    POST: async (request, reply, { org }) => {
      const pem = await pemOf(request);
      let bundle: CertificateBundle;
      try {
        bundle = parseCertificateBundle(pem);
      } catch (error) {
        if (error instanceof PemError) throw new HttpError('invalid', `Request malformed: cert: ${error.message}`);
        throw error;
      }
      const id = `${org.id}${bundle.fingerprint}`;
      await write(db, org.id, { bumpRevision: true }, (tx) => putCert(tx, { id, org_id: org.id, pem: bundle.pem }));
      deps.log.info({ cert: id, org: org.id, has_private: bundle.hasPrivateKey }, 'certificate added');
      return sendJson(reply, 200, { id, status: 'ok', message: 'Certificate added' });
    },
    GET: async (request, reply, { org }) => {
      const page = pageOf(request, deps.config.page_size);
      const { items, total } = await listCerts(db, org.id, page);
      const detailed = query(request, 'mode') === 'detailed';
      return sendJson(reply, 200, { certs: detailed ? items.map(metadata) : items.map((c) => c.id), pages: pagesOf(total, page) });
    },
  });

  orgRoute(app, '/api/certs/:id', 'certificates', {
    GET: async (request, reply, { org }) => {
      const cert = await getCert(db, org.id, param(request, 'id'));
      if (!cert) throw notFound('Certificate');
      return sendJson(reply, 200, metadata(cert));
    },
    DELETE: async (request, reply, { org }) => {
      const id = param(request, 'id');
      const deleted = await write(db, org.id, { bumpRevision: true }, async (tx) => {
        const users = await apisUsing(tx, org.id, id);
        if (users.length > 0)
          throw new HttpError(
            'conflict',
            `Certificate ${id} is used by ${users.map((a) => `${a.name} (${a.api_id})`).join(', ')}: remove it from ${users.length === 1 ? 'that API' : 'those APIs'} first`,
          );
        return deleteCert(tx, org.id, id);
      });
      if (!deleted) throw notFound('Certificate');
      return sendOk(reply, 'Certificate deleted');
    },
  });

  orgRoute(app, '/api/certs/:id/apis', 'certificates', {
    GET: async (request, reply, { org }) => {
      const id = param(request, 'id');
      if (!(await getCert(db, org.id, id))) throw notFound('Certificate');
      return sendJson(reply, 200, { apis: await apisUsing(db, org.id, id) });
    },
  });
}

/** The PEM text of an upload: the body, or its `cert` field when it is multipart/form-data. */
async function pemOf(request: FastifyRequest): Promise<string> {
  const body = typeof request.body === 'string' ? request.body : '';
  const type = request.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) return body;
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch (error) {
    throw new HttpError('invalid', `Request malformed: the multipart body does not parse (${(error as Error).message})`);
  }
  const part = form.get('cert');
  if (part === null) throw new HttpError('invalid', 'Request malformed: cert: the multipart body has no field cert');
  return typeof part === 'string' ? part : await part.text();
}

/** The APIs of the organisation naming the certificate, by id and name. */
async function apisUsing(db: Queryable, orgId: string, certId: string): Promise<{ api_id: string; name: string }[]> {
  return (await apisNaming(db, orgId, certId)).map((api) => ({ api_id: api.id, name: nameOf(classicView(api).name, api.id) }));
}

const nameOf = (name: unknown, id: string): string => (typeof name === 'string' && name !== '' ? name : id);

function metadata(stored: StoredCert): Record<string, unknown> {
  return { id: stored.id, ...certificateMetadata(stored.pem), created_at: stored.created_at };
}
