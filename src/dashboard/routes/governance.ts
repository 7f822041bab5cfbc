// Governance labels in the dashboard, when a governance hub is configured (governance_url, governance_token):
// the hub's label definitions, and the labels applied to one of the caller's organisation's APIs, which a user
// with `apis` write may change (labels are not part of the definition: an operator-managed organisation's humans
// may label its APIs too). Without a hub the label list answers {available: false, labels: []} (the web UI asks it
// first and then hides the labels, so no page meets an error) and every other path is 404 "no governance hub
// configured". Another organisation's API is "not found", as if it did not exist.
//   GET   /api/governance/labels                     {available, labels: [{id, name, key, values, value_type}]}
//   GET   /api/apis/{id}/governance-labels           {api_id, labels: {<label name>: <value>}}
//   PATCH /api/apis/{id}/governance-labels           {labels: {<label name>: <value> | null}} merges; null removes
//   GET   /api/governance/apis?label=<name>:<value>  {api_ids: [...]}: the organisation's APIs carrying that label
//                                                    (the API list's filter; at most the hub's first 10 000 matches)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { orgRoute, type Caller } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { GovernanceHub } from '../governance-hub.ts';
import { HttpError, notFound, objectBody, param, parseWith, query, sendJson } from '../http.ts';
import { existingApiIds } from '../store/apis.ts';

const LabelsBody = z.strictObject({ labels: z.record(z.string().min(1).max(200), z.string().max(1000).nullable()) });

export function registerGovernanceRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { governance_url: url, governance_token: token } = deps.config;
  const hub = url && token ? new GovernanceHub(url, token) : undefined;
  const hubOrRefuse = (): GovernanceHub => {
    if (!hub) throw new HttpError('not_found', 'no governance hub configured (governance_url, governance_token)');
    return hub;
  };
  const ownApi = async (request: FastifyRequest, caller: Caller): Promise<string> => {
    const id = param(request, 'id');
    if (!(await existingApiIds(deps.db, caller.org.id, [id])).has(id)) throw notFound('API');
    return id;
  };

  orgRoute(app, '/api/governance/labels', 'apis', {
    // The web UI asks here whether labels exist at all: without a hub, 200 {available: false} (not an error).
    GET: async (_request, reply) => sendJson(reply, 200, hub ? { available: true, labels: await hub.labels() } : { available: false, labels: [] }),
  });
  orgRoute(app, '/api/governance/apis', 'apis', {
    GET: async (request, reply, caller) => {
      const label = query(request, 'label');
      if (!label || !label.includes(':')) throw new HttpError('invalid', 'label: must be <label name>:<value>');
      const ids = await hubOrRefuse().apisWith(label);
      const own = await existingApiIds(deps.db, caller.org.id, ids);
      return sendJson(reply, 200, { api_ids: ids.filter((id) => own.has(id)) });
    },
  });
  orgRoute(app, '/api/apis/:id/governance-labels', 'apis', {
    GET: async (request, reply, caller) => {
      const found = hubOrRefuse();
      return sendJson(reply, 200, await found.applied(await ownApi(request, caller)));
    },
    PATCH: async (request, reply, caller) => {
      const found = hubOrRefuse();
      const body = parseWith(LabelsBody, objectBody(request, 'the labels'));
      const id = await ownApi(request, caller);
      const applied = await found.apply(id, body.labels);
      deps.log.info({ api: id, org: caller.org.id, labels: Object.keys(body.labels) }, 'governance labels applied');
      return sendJson(reply, 200, applied);
    },
  });
}
