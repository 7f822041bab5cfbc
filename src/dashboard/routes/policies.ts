// /api/portal/policies: the organisation's security policies (permission `policies`; in an operator_managed
// organisation only its system user writes).
//   GET    /api/portal/policies[?p=]      {Data: [<policy>], Pages}
//   POST   /api/portal/policies[/]        a policy -> {Message: <policy id>, Meta: null, Status: "OK"}
//   GET    /api/portal/policies/{id}      the policy ({...policy, id, _id: id, org_id})
//   PUT    /api/portal/policies/{id}      the full policy -> the stored policy (gw's design leaves the answer open; Tyk's
//                                          operator decodes the answer into its policy, so it gets one)
//   DELETE /api/portal/policies/{id}      {Status: "OK", Message: "Policy deleted", Meta: null}
//   GET    /api/portal/policies/{id}/usage {keys, only_policy}: the keys applying it, and those applying it alone
//                                          (a gateway refuses those once it is deleted); gw's own, for the delete dialog
// Ids: with allow_explicit_policy_id a given `id` is kept (409 when this organisation has it already; ids are per
// organisation, another one's are never looked at); without it every new policy gets a
// generated id and a given one is ignored — the answer then carries a `Warning` header saying so (the body keeps
// gw's documented shape). Names: with enable_duplicate_slugs off, a second policy of the organisation whose name has the
// same slug is refused with 409. access_rights may only name APIs of the organisation.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Policy } from '../../domain/policy.ts';
import type { Queryable } from '../../db/database.ts';
import { checkAccessRights } from '../access-rights.ts';
import { orgRoute } from '../access.ts';
import type { DashboardDeps } from '../deps.ts';
import { checkId, HttpError, notFound, objectBody, param, parseWith, sendJson, sendOk } from '../http.ts';
import { objectId } from '../ids.ts';
import { pageOf, pagesOf } from '../paging.ts';
import { deletePolicy, getPolicy, insertPolicy, listPolicies, policyIdTaken, slugTakenBy, updatePolicy, type StoredPolicy } from '../store/policies.ts';
import { keysApplyingPolicy } from '../store/keys.ts';
import { write } from '../store/write.ts';

/** The name as a slug: lower case, runs of other characters as one '-'. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? name.toLowerCase() : slug;
}

/** A stored policy as the API answers it: Tyk's `_id` is the same id. */
export function policyView(stored: StoredPolicy): Record<string, unknown> {
  return { ...stored.policy, id: stored.id, _id: stored.id, org_id: stored.org_id };
}

export function registerPolicyRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const { db, config } = deps;
  const managed = { operatorManaged: 'Security policies' };

  const parse = (body: Record<string, unknown>): Record<string, unknown> & { name: string; id?: string | undefined } => {
    const { _id: _ignored, ...policy } = parseWith(Policy, body);
    return policy;
  };
  const checkSlug = async (tx: Queryable, orgId: string, name: string, id: string): Promise<string> => {
    const slug = slugOf(name);
    if (!config.enable_duplicate_slugs) {
      const other = await slugTakenBy(tx, orgId, slug, id);
      if (other)
        throw new HttpError(
          'conflict',
          `name: policy ${other} of this organisation already has the name ${JSON.stringify(name)} (enable_duplicate_slugs is off)`,
        );
    }
    return slug;
  };

  const create = async (reply: FastifyReply, orgId: string, body: Record<string, unknown>): Promise<FastifyReply> => {
    const policy = parse(body);
    const given = policy.id !== undefined && policy.id !== '' ? policy.id : undefined;
    const explicit = given !== undefined && config.allow_explicit_policy_id;
    const id = explicit ? checkId(given, 'id') : objectId();
    await write(db, orgId, { bumpRevision: true }, async (tx) => {
      if (explicit && (await policyIdTaken(tx, orgId, id))) throw new HttpError('conflict', `id: a policy with id ${id} already exists`);
      const slug = await checkSlug(tx, orgId, policy.name, id);
      await checkAccessRights(tx, orgId, policy.access_rights as Record<string, { api_id: string }> | undefined);
      await insertPolicy(tx, { id, org_id: orgId, policy: { ...policy, id, org_id: orgId } }, slug);
    });
    deps.log.info({ policy: id, org: orgId }, 'policy created');
    if (given !== undefined && !explicit)
      reply.header('Warning', `199 gw "policy id ${checkIdForHeader(given)} ignored: allow_explicit_policy_id is off, the id was generated"`);
    return sendJson(reply, 200, { Message: id, Meta: null, Status: 'OK' });
  };

  orgRoute(
    app,
    '/api/portal/policies',
    'policies',
    {
      GET: async (request, reply, { org }) => {
        const page = pageOf(request, config.page_size);
        const { items, total } = await listPolicies(db, org.id, page);
        return sendJson(reply, 200, { Data: items.map(policyView), Pages: pagesOf(total, page) });
      },
      POST: async (request, reply, { org }) => create(reply, org.id, objectBody(request, 'the policy')),
    },
    managed,
  );

  orgRoute(
    app,
    '/api/portal/policies/:id',
    'policies',
    {
      GET: async (request, reply, { org }) => {
        const stored = await getPolicy(db, org.id, param(request, 'id'));
        if (!stored) throw notFound('Policy');
        return sendJson(reply, 200, policyView(stored));
      },
      PUT: async (request, reply, { org }) => {
        const id = param(request, 'id');
        const policy = parse(objectBody(request, 'the policy'));
        if (config.allow_explicit_policy_id && policy.id !== undefined && policy.id !== '' && policy.id !== id) {
          throw new HttpError('invalid', `id: does not match the policy id in the path (${id}); a policy id cannot change`);
        }
        const stored: StoredPolicy = { id, org_id: org.id, policy: { ...policy, id, org_id: org.id } };
        await write(db, org.id, { bumpRevision: true }, async (tx) => {
          if (!(await getPolicy(tx, org.id, id))) throw notFound('Policy');
          const slug = await checkSlug(tx, org.id, policy.name, id);
          await checkAccessRights(tx, org.id, policy.access_rights as Record<string, { api_id: string }> | undefined);
          await updatePolicy(tx, stored, slug);
        });
        deps.log.info({ policy: id, org: org.id }, 'policy updated');
        return sendJson(reply, 200, policyView(stored));
      },
      DELETE: async (request, reply, { org }) => {
        const id = param(request, 'id');
        const deleted = await write(db, org.id, { bumpRevision: true }, (tx) => deletePolicy(tx, org.id, id));
        if (!deleted) throw notFound('Policy');
        deps.log.info({ policy: id, org: org.id }, 'policy deleted');
        return sendOk(reply, 'Policy deleted');
      },
    },
    managed,
  );

  orgRoute(app, '/api/portal/policies/:id/usage', 'policies', {
    GET: async (request, reply, { org }) => {
      const id = param(request, 'id');
      if (!(await getPolicy(db, org.id, id))) throw notFound('Policy');
      return sendJson(reply, 200, await keysApplyingPolicy(db, org.id, id));
    },
  });
}

/** A client-given id shown in a header: printable ASCII only, short. */
function checkIdForHeader(id: string): string {
  return id
    .replace(/[^\x21-\x7e]/g, '?')
    .replace(/"/g, "'")
    .slice(0, 64);
}
