// SecurityPolicy: a policy on the gateway. Each access_rights_array entry names an API resource; it must exist,
// be synced (have its id) and be synced to the same gateway, else the policy waits (or is refused) with a
// condition naming it. Status lists the APIs it grants (linked_apis) and the ApiDefinitions using it as a JWT
// default policy (linked_by_apis; they do not block its deletion: controllers/links.ts).
import type { Cache } from '../../kube/cache.ts';
import { keyOf } from '../../kube/object.ts';
import { contextKeyOf } from '../sync/context.ts';
import { InvalidSpecError, WaitingError } from '../sync/errors.ts';
import {
  FINALIZERS,
  GwResources,
  type ApiDefinitionObject,
  type OasApiDefinitionObject,
  type SecurityPolicyObject,
  type StreamsApiDefinitionObject,
} from '../cluster/resources.ts';
import type { SyncKind } from '../sync/sync.ts';
import { apisUsingPolicy } from './links.ts';
import { apiReferences, policyId, securityPolicyPayload, type ApiReference, type ResolvedApi } from '../translate/securitypolicy.ts';

export function securityPolicyKind(
  policies: Cache<SecurityPolicyObject>,
  apis: Cache<ApiDefinitionObject>,
  oas: Cache<OasApiDefinitionObject>,
  streams: Cache<StreamsApiDefinitionObject>,
): SyncKind<SecurityPolicyObject> {
  const targets: Record<ApiReference['kind'], (key: string) => ApiDefinitionObject | OasApiDefinitionObject | StreamsApiDefinitionObject | undefined> = {
    ApiDefinition: (key) => apis.get(key),
    GwOasApiDefinition: (key) => oas.get(key),
    GwStreamsApiDefinition: (key) => streams.get(key),
  };
  const resolve = (policy: SecurityPolicyObject, ref: ApiReference): ResolvedApi => {
    const key = keyOf(ref.namespace, ref.name);
    const target = targets[ref.kind](key);
    if (!target) throw new WaitingError(`${ref.kind} ${key} (access_rights_array) does not exist`);
    if (contextKeyOf(target) !== contextKeyOf(policy)) {
      throw new InvalidSpecError(`${ref.kind} ${key} is synced through another OperatorContext (${contextKeyOf(target) ?? 'the default'}) than this policy`);
    }
    const status = target.status as { api_id?: string; id?: string; name?: string; latestTransaction?: { status?: string } } | undefined;
    const apiId = status?.api_id ?? status?.id;
    if (!apiId || status?.latestTransaction?.status !== 'Successful') throw new WaitingError(`${ref.kind} ${key} is not synced yet`);
    const spec = target.spec as { name?: string };
    return { apiId, apiName: spec.name ?? status?.name ?? ref.name };
  };
  return {
    kind: 'SecurityPolicy',
    resource: GwResources.securityPolicy,
    finalizer: FINALIZERS.securityPolicy,
    mirrorKind: 'policies',
    cache: policies,
    idOf: (p) => policyId(p.metadata.namespace, p.metadata.name, p.spec),
    desired: (p, context) => securityPolicyPayload(p.metadata.namespace, p.metadata.name, p.spec, context.gateway.env.org, (ref) => resolve(p, ref)),
    kindStatus: (p, id) => ({
      ...((id ?? p.status?.pol_id) ? { pol_id: id ?? p.status?.pol_id } : {}),
      linked_apis: apiReferences(p.metadata.namespace, p.spec).map((r) => ({ name: r.name, namespace: r.namespace, kind: r.kind })),
      linked_by_apis: apisUsingPolicy(apis, p),
    }),
    deletionBlockers: () => [],
    get: (client, id, signal) => client.getPolicy(id, signal),
    put: (client, id, payload, signal) => client.putPolicy(id, payload, signal),
    remove: (client, id, signal) => client.deletePolicy(id, signal),
  };
}
