// /admin/usergroups: an organisation's user groups, read by the administration (admin-auth) to offer them when it
// creates a user or moves one into a group (user_group_id on /admin/users). Read-only: groups are written by the
// organisation's users through /api/usergroups. Not a path of Tyk Dashboard's admin API (which has no group read).
//   GET /admin/usergroups?org_id=<id>[&p=]   {groups: [...], pages}; 400 without org_id, 404 for an unknown organisation
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from '../deps.ts';
import { HttpError, notFound, query, route, sendJson } from '../http.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { getOrg } from '../store/orgs.ts';
import { listUserGroups } from '../store/user-groups.ts';

export function registerAdminUserGroupRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db } = deps;
  route(app, '/admin/usergroups', {
    GET: async (request, reply) => {
      const orgId = query(request, 'org_id');
      if (orgId === undefined || orgId === '') throw new HttpError('invalid', 'org_id: the organisation whose groups to list is required');
      if (!(await getOrg(db, orgId))) throw notFound('Organisation');
      const page = pageOf(request, deps.config.page_size);
      const { items, total } = await listUserGroups(db, orgId, page);
      return sendJson(reply, 200, { groups: items, pages: pagesOf(total, page) });
    },
  });
}
