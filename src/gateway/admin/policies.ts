// /gw/policies: security policies, by explicit id (policies.allow_explicit_policy_id, default on, keeps the ids
// clients give; off generates them). Reads answer with what is stored and what the policies file holds (the store
// wins); a policy from the file cannot be deleted through the API. Changes reach keys at the next reload.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Policy } from '../../domain/policy.ts';
import type { AdminDeps } from './deps.ts';
import { HttpError, modified, param, parseBody, route, sendJson } from './http.ts';

export function registerPolicyRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const explicitIds = deps.config.policies.allow_explicit_policy_id;
  const idOk = (id: string): string => {
    if (!/^[A-Za-z0-9._~-]{1,128}$/.test(id)) throw new HttpError('invalid', `invalid policy id ${id}: 1-128 characters of A-Z a-z 0-9 . _ ~ -`);
    return id;
  };
  const create = async (pathId: string | undefined, body: Policy): Promise<string> => {
    const given = pathId ?? body.id;
    const id = idOk(given && explicitIds ? given : randomUUID().replaceAll('-', ''));
    await deps.store.putPolicy({ ...body, id });
    return id;
  };

  route(app, '/gw/policies', {
    GET: async (_request, reply) =>
      sendJson(
        reply,
        200,
        [...(await deps.definitions()).policies.values()].map(({ item }) => item),
      ),
    POST: async (request, reply) => modified(reply, await create(undefined, parseBody(request, Policy, 'the policy')), 'added'),
    PUT: async () => {
      throw new HttpError('invalid', 'Must specify a policy id to update');
    },
  });

  route(app, '/gw/policies/:id', {
    GET: async (request, reply) => {
      const found = await deps.findPolicy(param(request, 'id'));
      if (!found) throw new HttpError('not_found', 'Policy not found');
      return sendJson(reply, 200, found.item);
    },
    POST: async (request, reply) => modified(reply, await create(param(request, 'id'), parseBody(request, Policy, 'the policy')), 'added'),
    PUT: async (request, reply) => {
      const id = param(request, 'id');
      const body = parseBody(request, Policy, 'the policy');
      if (body.id !== undefined && body.id !== id)
        throw new HttpError('invalid', 'Request ID does not match that in policy! For Update operations these must match.');
      if (!(await deps.findPolicy(id))) throw new HttpError('not_found', 'Policy not found');
      await deps.store.putPolicy({ ...body, id });
      return modified(reply, id, 'modified');
    },
    DELETE: async (request, reply) => {
      const id = param(request, 'id');
      const found = await deps.findPolicy(id);
      if (!found) throw new HttpError('not_found', 'Policy not found');
      if (found.source !== 'store') throw new HttpError('invalid', `Policy ${id} is defined in ${found.source}; change the file instead`);
      await deps.store.deletePolicy(id);
      return modified(reply, id, 'deleted');
    },
  });
}
