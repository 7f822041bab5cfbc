// Which Kubernetes object owns an API or policy, and the refusal of hand writes to it (issue 24 item 8). The
// operator's system user names the custom resource a write comes from in the header
//   x-gw-k8s-object: <Kind> <namespace>/<name>          e.g. "ApiDefinition default/httpbin"
// and the dashboard records it per object (table dashboard_k8s_owners, migration 9) and answers it on reads in the
// header of the same name. A write by anyone else (not a system user) to an owned object — PUT or DELETE of
// /api/apis/{id}, /api/apis/oas/{id}, /api/portal/policies/{id} — is refused with
//   409 {"Status":"Error","Message":"API <id> is managed by Kubernetes (ApiDefinition default/httpbin): ..."}
// before it reaches the route, since the operator would put the old definition back a second later, unless the
// organisation has `allow_hand_edits: true` (default false). Only callers who could write the resource at all see
// the 409 (others keep their 403). Deleting the object forgets its owner.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { K8S_OBJECT_HEADER } from '../http/k8s-object-header.ts';
import { callerOf } from './access.ts';
import { sendError } from './http.ts';
import type { Resource } from './store/users.ts';

/** `<Kind> <namespace>/<name>` with Kubernetes' own limits (kind 63, namespace 63, name 253 characters). */
const K8S_OBJECT = /^([A-Z][A-Za-z0-9]{0,62}) ([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)\/([a-z0-9]([-.a-z0-9]{0,251}[a-z0-9])?)$/;

type Owned = 'api' | 'policy';

interface OwnedRoute {
  owned: Owned;
  resource: Resource;
  what: string;
}

/** The routes whose objects may be owned, by their pattern; the object's id is the `id` parameter. */
const OWNED_ROUTES: Record<string, OwnedRoute> = {
  '/api/apis/:id': { owned: 'api', resource: 'apis', what: 'API' },
  '/api/apis/oas/:id': { owned: 'api', resource: 'apis', what: 'API' },
  '/api/portal/policies/:id': { owned: 'policy', resource: 'policies', what: 'Policy' },
};

/** Where a created object's id is in the answer: Meta for APIs, Message for policies (Tyk's shapes). */
const CREATE_ROUTES: Record<string, { owned: Owned; idIn: 'Meta' | 'Message' }> = {
  '/api/apis': { owned: 'api', idIn: 'Meta' },
  '/api/apis/oas': { owned: 'api', idIn: 'Meta' },
  '/api/portal/policies': { owned: 'policy', idIn: 'Message' },
};

/** The header's value when it names a Kubernetes object, else undefined. */
export function k8sObjectOf(value: unknown): string | undefined {
  return typeof value === 'string' && K8S_OBJECT.test(value) ? value : undefined;
}

export async function ownerOf(db: Queryable, orgId: string, owned: Owned, id: string): Promise<string | undefined> {
  const rows = await db.query<{ k8s_object: string }>('SELECT k8s_object FROM dashboard_k8s_owners WHERE org_id = $1 AND kind = $2 AND id = $3', [
    orgId,
    owned,
    id,
  ]);
  return rows[0]?.k8s_object;
}

async function recordOwner(db: Queryable, orgId: string, owned: Owned, id: string, k8sObject: string): Promise<void> {
  await db.query(
    `INSERT INTO dashboard_k8s_owners (org_id, kind, id, k8s_object) VALUES ($1, $2, $3, $4)
     ON CONFLICT (org_id, kind, id) DO UPDATE SET k8s_object = EXCLUDED.k8s_object`,
    [orgId, owned, id, k8sObject],
  );
}

async function forgetOwner(db: Queryable, orgId: string, owned: Owned, id: string): Promise<void> {
  await db.query('DELETE FROM dashboard_k8s_owners WHERE org_id = $1 AND kind = $2 AND id = $3', [orgId, owned, id]);
}

/** The refusal of a hand write to an object the operator owns. */
export function handWriteRefusal(what: string, id: string, k8sObject: string): string {
  const [kind, object] = k8sObject.split(' ');
  return (
    `${what} ${id} is managed by Kubernetes (${k8sObject}): the operator would put the old definition back; ` +
    `change it with \`kubectl edit ${kind!.toLowerCase()} -n ${object!.split('/')[0]} ${object!.split('/')[1]}\`, ` +
    `or set allow_hand_edits on the organisation`
  );
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? '';
}

/** Refuses hand writes to owned objects; records and forgets owners on the operator's writes. */
export function registerK8sOwnership(app: FastifyInstance, db: Queryable): void {
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = OWNED_ROUTES[routeOf(request)];
    const caller = callerOf(request);
    if (!route || !caller || request.method === 'GET' || request.method === 'HEAD') return;
    if (caller.user.system || caller.org.allow_hand_edits) return;
    if (caller.user.user_permissions[route.resource] !== 'write') return;
    const id = (request.params as { id?: string }).id ?? '';
    const owner = await ownerOf(db, caller.org.id, route.owned, id);
    if (owner !== undefined) return sendError(reply, 409, handWriteRefusal(route.what, id, owner));
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const caller = callerOf(request);
    if (!caller || reply.statusCode !== 200) return payload;
    const path = routeOf(request);
    const route = OWNED_ROUTES[path];
    if (route) {
      const id = (request.params as { id?: string }).id ?? '';
      if (request.method === 'GET') {
        const owner = await ownerOf(db, caller.org.id, route.owned, id);
        if (owner !== undefined) void reply.header(K8S_OBJECT_HEADER, owner);
      } else if (request.method === 'DELETE') {
        await forgetOwner(db, caller.org.id, route.owned, id);
      } else if (request.method === 'PUT') {
        const k8sObject = caller.user.system ? k8sObjectOf(request.headers[K8S_OBJECT_HEADER]) : undefined;
        if (k8sObject !== undefined) await recordOwner(db, caller.org.id, route.owned, id, k8sObject);
      }
      return payload;
    }
    const create = CREATE_ROUTES[path];
    const k8sObject = caller.user.system ? k8sObjectOf(request.headers[K8S_OBJECT_HEADER]) : undefined;
    if (create && request.method === 'POST' && k8sObject !== undefined && typeof payload === 'string') {
      const id = (JSON.parse(payload) as Record<string, unknown>)[create.idIn];
      if (typeof id === 'string' && id !== '') await recordOwner(db, caller.org.id, create.owned, id, k8sObject);
    }
    return payload;
  });
}
