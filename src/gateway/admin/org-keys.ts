// /gw/org/keys: organisation sessions (rate, per, quota_max, quota_renewal_rate, is_inactive), enforced on every
// API of the organisation when enforce_org_quotas is on. Stored as key `org/<org_id>`; `?reset_quota=1` on a
// write starts a fresh quota period.
import type { FastifyInstance } from 'fastify';
import { Session } from '../../domain/session.ts';
import { orgSessionId } from '../middleware/limits/org-limits.ts';
import { isOAuthRecordId } from '../oauth/records.ts';
import type { AdminDeps } from './deps.ts';
import { HttpError, modified, param, parseBody, queryFlag, route, sendJson, type Handler } from './http.ts';

export function registerOrgKeyRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const { store } = deps;
  route(app, '/gw/org/keys', {
    GET: async (_request, reply) => {
      const orgs = (await store.listKeys()).filter((id) => id.startsWith('org/') && !isOAuthRecordId(id)).map((id) => id.slice(4));
      return sendJson(reply, 200, { keys: orgs });
    },
  });
  const write =
    (action: 'added' | 'modified'): Handler =>
    async (request, reply) => {
      const org = param(request, 'org');
      if (!/^[A-Za-z0-9._~-]{1,128}$/.test(org)) throw new HttpError('invalid', `invalid organisation id ${org}`);
      const id = orgSessionId(org);
      const session = parseBody(request, Session, 'the organisation session');
      await store.putKey(id, { ...session, org_id: org }, { resetCounters: queryFlag(request, 'reset_quota') });
      deps.sessions.invalidate(id);
      return modified(reply, org, action);
    };
  route(app, '/gw/org/keys/:org', {
    GET: async (request, reply) => {
      const session = await store.getKey(orgSessionId(param(request, 'org')));
      if (!session) throw new HttpError('not_found', 'Org not found');
      return sendJson(reply, 200, session);
    },
    POST: write('added'),
    PUT: write('modified'),
    DELETE: async (request, reply) => {
      const id = orgSessionId(param(request, 'org'));
      if (!(await store.deleteKey(id))) throw new HttpError('not_found', 'Org not found');
      await store.resetCounters(id);
      deps.sessions.invalidate(id);
      return modified(reply, param(request, 'org'), 'deleted');
    },
  });
}
