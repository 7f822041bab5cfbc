// /api/audit: the organisation's audit log (permission `audit_logs` read; audit.ts records it), newest first.
//   GET /api/audit[?p=&user_id=&object_type=&object_id=]  {entries: [{id, at, user_id, user_email, action,
//                                                          object_type, object_id, client_ip, via}], pages, total}
import type { FastifyInstance } from 'fastify';
import { orgRoute } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { query, sendJson } from '../http.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { listAuditEntries } from '../store/audit.ts';

export function registerAuditRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  orgRoute(app, '/api/audit', 'audit_logs', {
    GET: async (request, reply, caller) => {
      const page = pageOf(request, deps.config.page_size);
      const filter = { user_id: query(request, 'user_id'), object_type: query(request, 'object_type'), object_id: query(request, 'object_id') };
      const { items, total } = await listAuditEntries(deps.db, caller.org.id, filter, page);
      return sendJson(reply, 200, { entries: items.map(({ org_id: _org, ...entry }) => entry), pages: pagesOf(total, page), total });
    },
  });
}
