// /admin/organisations: the tenants (admin-auth). An organisation's id may be given (an operator configured with
// GW_ORG before the dashboard existed) or is generated; cname is unique when set. `operator_managed: true` hands
// its APIs and policies to the operator: only system users may write them (access.ts).
//   POST   /admin/organisations         {owner_name, cname?, id?, operator_managed?, allow_hand_edits?} -> {Status, Message: "Org created", Meta: <id>}
//   GET    /admin/organisations[?p=]     {organisations: [...], pages}
//   GET    /admin/organisations/{id}     the organisation
//   PUT    /admin/organisations/{id}     {owner_name?, cname?, operator_managed?, allow_hand_edits?} -> {Status, Message: "Org updated", Meta: null}
//   DELETE /admin/organisations/{id}     everything it owns goes with it -> {Status, Message: "Org deleted", Meta: null}
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DashboardDeps } from '../deps.ts';
import { checkId, HttpError, notFound, objectBody, param, parseWith, route, sendJson, sendOk } from '../http.ts';
import { objectId } from '../ids.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { normalizeCname } from './cname.ts';
import { cnameTaken, deleteOrg, getOrg, insertOrg, listOrgs, updateOrg } from '../store/orgs.ts';
import { write } from '../store/write.ts';

const OrgCreate = z.object({
  id: z.string().optional(),
  owner_name: z.string().min(1),
  cname: z.string().default(''),
  operator_managed: z.boolean().default(false),
  allow_hand_edits: z.boolean().default(false),
});

const OrgUpdate = z.object({
  id: z.string().optional(),
  owner_name: z.string().min(1).optional(),
  cname: z.string().optional(),
  operator_managed: z.boolean().optional(),
  allow_hand_edits: z.boolean().optional(),
});

export function registerOrganisationRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;

  route(app, '/admin/organisations', {
    GET: async (request, reply) => {
      const page = pageOf(request, deps.config.page_size);
      const { items, total } = await listOrgs(db, page);
      return sendJson(reply, 200, { organisations: items, pages: pagesOf(total, page) });
    },
    POST: async (request, reply) => {
      const body = parseWith(OrgCreate, objectBody(request, 'the organisation'));
      body.cname = normalizeCname(body.cname);
      const id = body.id === undefined ? objectId() : checkId(body.id, 'id');
      await write(db, id, { bumpRevision: false }, async (tx) => {
        if (await getOrg(tx, id)) throw new HttpError('conflict', `an organisation with id ${id} already exists`);
        if (await cnameTaken(tx, body.cname, id)) throw new HttpError('conflict', `cname ${body.cname} is taken by another organisation`);
        await insertOrg(tx, {
          id,
          owner_name: body.owner_name,
          cname: body.cname,
          operator_managed: body.operator_managed,
          allow_hand_edits: body.allow_hand_edits,
        });
      });
      deps.log.info({ org: id }, 'organisation created');
      return sendOk(reply, 'Org created', id);
    },
  });

  route(app, '/admin/organisations/:id', {
    GET: async (request, reply) => {
      const org = await getOrg(db, param(request, 'id'));
      if (!org) throw notFound('Organisation');
      return sendJson(reply, 200, org);
    },
    PUT: async (request, reply) => {
      const id = param(request, 'id');
      const body = parseWith(OrgUpdate, objectBody(request, 'the organisation'));
      if (body.id !== undefined && body.id !== id) throw new HttpError('invalid', 'id: does not match the organisation id in the path');
      await write(db, id, { bumpRevision: false }, async (tx) => {
        const org = await getOrg(tx, id);
        if (!org) throw notFound('Organisation');
        const cname = body.cname === undefined ? org.cname : normalizeCname(body.cname);
        if (await cnameTaken(tx, cname, id)) throw new HttpError('conflict', `cname ${cname} is taken by another organisation`);
        await updateOrg(tx, {
          id,
          owner_name: body.owner_name ?? org.owner_name,
          cname,
          operator_managed: body.operator_managed ?? org.operator_managed,
          allow_hand_edits: body.allow_hand_edits ?? org.allow_hand_edits,
        });
      });
      return sendOk(reply, 'Org updated');
    },
    DELETE: async (request, reply) => {
      const id = param(request, 'id');
      const deleted = await write(db, id, { bumpRevision: true }, (tx) => deleteOrg(tx, id));
      if (!deleted) throw notFound('Organisation');
      deps.log.info({ org: id }, 'organisation deleted with everything it owned');
      return sendOk(reply, 'Org deleted');
    },
  });
}
