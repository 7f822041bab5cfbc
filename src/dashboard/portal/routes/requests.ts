// /api/portal/requests: the organisation's portal key requests (permission `portal`), Tyk\'s payloads
// (docs/compatibility.md, docs:tyk-dashboard-api/portal-key-requests):
//   GET    /api/portal/requests[?p=][&approved=true|false][&status=pending|approved|declined]  {Data: [request], Pages}
//   POST   /api/portal/requests                             {by_user, fields?, apply_policies[] | for_plan, version?} -> Message <id>
//   GET    /api/portal/requests/{id}                        request
//   DELETE /api/portal/requests/{id}                        Message "Data deleted"
//   PUT    /api/portal/requests/approve/{id}                {RawKey: <key>, Password: ""}: a key for the request's policies
//   PUT    /api/portal/requests/decline/{id}                {reason?} -> Message "Key request declined": a pending request is
//                                                           kept, declined, with the reason (gw: Tyk removes it), which the
//                                                           developer reads on "My keys"; approved=false lists pending ones only
// request = {id, _id, org_id, by_user, fields, apply_policies, for_plan (the first policy), approved, date_created,
// version, jwt_secret, portal_developer: developer, catalogue_entry: the catalogue's entry for the first policy,
// gw's declined, decline_reason and status}.
// The key itself is answered only by the approval; the request keeps only its storage id (key_id, not answered).
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../../db/database.ts';
import { orgRoute } from '../../access.ts';
import type { DashboardDeps } from '../../deps.ts';
import { HttpError, notFound, objectBody, param, parseWith, query, sendJson, sendOk } from '../../http.ts';
import { pageOf, pagesOf } from '../../paging.ts';
import { developerView } from '../developers.ts';
import { approveKeyRequest, createKeyRequest, declineKeyRequest } from '../key-requests.ts';
import { DeclineInput, KeyRequestInput } from '../schemas.ts';
import { entryForPolicy, getCatalogue } from '../store/catalogue.ts';
import { developersByIds } from '../store/developers.ts';
import { deleteKeyRequest, getKeyRequest, listKeyRequests, statusOf, type KeyRequest, type KeyRequestStatus } from '../store/key-requests.ts';

function approvedFilter(raw: string | undefined): boolean | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new HttpError('invalid', 'approved: must be true or false');
}

const STATUSES: readonly KeyRequestStatus[] = ['pending', 'approved', 'declined'];

function statusFilter(raw: string | undefined): KeyRequestStatus | undefined {
  if (raw === undefined || raw === '') return undefined;
  const found = STATUSES.find((status) => status === raw);
  if (!found) throw new HttpError('invalid', 'status: must be pending, approved or declined');
  return found;
}

/** Tyk's request objects, with the developer and catalogue entry embedded. */
async function requestViews(db: Queryable, orgId: string, requests: KeyRequest[]): Promise<Record<string, unknown>[]> {
  const catalogue = requests.length > 0 ? await getCatalogue(db, orgId) : undefined;
  const developers = await developersByIds(
    db,
    orgId,
    requests.map((request) => request.by_user),
  );
  return requests.map((request) => {
    const developer = developers.get(request.by_user);
    const policy = request.apply_policies[0] ?? '';
    return {
      id: request.id,
      _id: request.id,
      org_id: request.org_id,
      by_user: request.by_user,
      fields: request.fields,
      apply_policies: request.apply_policies,
      for_plan: policy,
      approved: request.approved,
      declined: request.declined,
      decline_reason: request.decline_reason,
      status: statusOf(request),
      date_created: request.date_created,
      version: request.version,
      jwt_secret: '',
      portal_developer: developer ? developerView(developer) : null,
      catalogue_entry: entryForPolicy(catalogue, policy) ?? null,
    };
  });
}

export function registerKeyRequestRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db, config } = deps;

  orgRoute(app, '/api/portal/requests', 'portal', {
    GET: async (request, reply, { org }) => {
      const approved = approvedFilter(query(request, 'approved'));
      const status = statusFilter(query(request, 'status'));
      const page = pageOf(request, config.page_size);
      const { items, total } = await listKeyRequests(db, org.id, { approved, status }, page);
      return sendJson(reply, 200, { Data: await requestViews(db, org.id, items), Pages: pagesOf(total, page) });
    },
    POST: async (request, reply, { org }) => {
      const created = await createKeyRequest(db, org.id, parseWith(KeyRequestInput, objectBody(request, 'the key request')));
      deps.log.info({ org: org.id, request: created.id, developer: created.by_user }, 'portal key request created');
      return sendOk(reply, created.id);
    },
  });

  orgRoute(app, '/api/portal/requests/approve/:id', 'portal', {
    PUT: async (request, reply, { org }) => {
      const id = param(request, 'id');
      const approved = await approveKeyRequest(deps, org.id, id);
      deps.log.info({ org: org.id, request: id }, 'portal key request approved: key created');
      return sendJson(reply, 200, approved);
    },
  });

  orgRoute(app, '/api/portal/requests/decline/:id', 'portal', {
    PUT: async (request, reply, { org }) => {
      const id = param(request, 'id');
      // The body is optional (Tyk sends none): no body declines without a reason.
      const { reason } = parseWith(DeclineInput, request.body === undefined || request.body === '' ? {} : objectBody(request, 'the decline'));
      await declineKeyRequest(db, org.id, id, reason);
      deps.log.info({ org: org.id, request: id }, 'portal key request declined');
      return sendOk(reply, 'Key request declined');
    },
  });

  orgRoute(app, '/api/portal/requests/:id', 'portal', {
    GET: async (request, reply, { org }) => {
      const found = await getKeyRequest(db, org.id, param(request, 'id'));
      if (!found) throw notFound('Key request');
      return sendJson(reply, 200, (await requestViews(db, org.id, [found]))[0]);
    },
    DELETE: async (request, reply, { org }) => {
      if (!(await deleteKeyRequest(db, org.id, param(request, 'id')))) throw notFound('Key request');
      return sendOk(reply, 'Data deleted');
    },
  });
}
