// /api/portal/catalogue and /api/portal/documentation: the organisation's one catalogue and its documentation
// objects (permission `portal`), Tyk's payloads (docs/compatibility.md):
//   GET    /api/portal/catalogue            {id, org_id, email, apis: [entry]}; 404 when the organisation has none
//                                            (200 null with ?allow_missing=true)
//   POST   /api/portal/catalogue            {org_id?, email?, apis?} -> {Status: "OK", Message: <catalogue id>, Meta: null}
//   PUT    /api/portal/catalogue            {id?, org_id?, email, apis} -> {Status: "OK", Message: <catalogue id>, Meta: null}
//   POST   /api/portal/documentation        {api_id, doc_type, documentation} -> {Status: "OK", Message: <doc id>, Meta: null}
//   GET    /api/portal/documentation/{id}   {id, api_id, doc_type, documentation} (not in Tyk: the portal's read)
//   DELETE /api/portal/documentation/{id}   {Status: "OK", Message: "Data deleted", Meta: null}
// There is no catalogue DELETE (Tyk has none: the operator empties it with PUT). In an operator_managed
// organisation only the operator's system user may write the catalogue and documentation (its PortalAPICatalogue
// and APIDescription kinds own them), as for APIs and policies; everyone with the permission keeps reading.
import type { FastifyInstance } from 'fastify';
import { orgRoute } from '../../access.ts';
import type { DashboardDeps } from '../../deps.ts';
import { notFound, objectBody, param, parseWith, query, sendJson, sendOk } from '../../http.ts';
import { objectId } from '../../ids.ts';
import { createCatalogue, replaceCatalogue } from '../catalogue-writes.ts';
import { checkDocumentation } from '../documents.ts';
import { CatalogueInput, DocumentationInput } from '../schemas.ts';
import { getCatalogue } from '../store/catalogue.ts';
import { deleteDocumentation, getDocumentation, insertDocumentation } from '../store/documentation.ts';

export function registerCatalogueRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;
  const managed = { operatorManaged: 'Portal catalogues and documentation objects' };

  orgRoute(
    app,
    '/api/portal/catalogue',
    'portal',
    {
      GET: async (request, reply, { org }) => {
        const catalogue = await getCatalogue(db, org.id);
        // ?allow_missing=true (gw's; the web UI): 200 null instead of 404, so a page asking is not an error.
        if (!catalogue && query(request, 'allow_missing') === 'true') return sendJson(reply, 200, null);
        if (!catalogue) throw notFound('Catalogue');
        return sendJson(reply, 200, catalogue);
      },
      POST: async (request, reply, { org }) => {
        const created = await createCatalogue(db, org.id, parseWith(CatalogueInput, objectBody(request, 'the catalogue')));
        deps.log.info({ org: org.id, catalogue: created.id }, 'portal catalogue created');
        return sendOk(reply, created.id);
      },
      PUT: async (request, reply, { org }) => {
        const updated = await replaceCatalogue(db, org.id, parseWith(CatalogueInput, objectBody(request, 'the catalogue')));
        deps.log.info({ org: org.id, catalogue: updated.id, entries: updated.apis.length }, 'portal catalogue updated');
        return sendOk(reply, updated.id);
      },
    },
    managed,
  );

  orgRoute(
    app,
    '/api/portal/documentation',
    'portal',
    {
      POST: async (request, reply, { org }) => {
        const input = parseWith(DocumentationInput, objectBody(request, 'the documentation'));
        checkDocumentation(input);
        const id = objectId();
        await insertDocumentation(db, { id, org_id: org.id, ...input });
        deps.log.info({ org: org.id, documentation: id, type: input.doc_type }, 'portal documentation created');
        return sendOk(reply, id);
      },
    },
    managed,
  );

  orgRoute(
    app,
    '/api/portal/documentation/:id',
    'portal',
    {
      GET: async (request, reply, { org }) => {
        const doc = await getDocumentation(db, org.id, param(request, 'id'));
        if (!doc) throw notFound('Documentation');
        return sendJson(reply, 200, { id: doc.id, api_id: doc.api_id, doc_type: doc.doc_type, documentation: doc.documentation });
      },
      DELETE: async (request, reply, { org }) => {
        if (!(await deleteDocumentation(db, org.id, param(request, 'id')))) throw notFound('Documentation');
        return sendOk(reply, 'Data deleted');
      },
    },
    managed,
  );
}
