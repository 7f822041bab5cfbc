// The links between policies and APIs, both ways, as status back-links:
//   the SecurityPolicies granting an API resource      the API's linked_by_policies; they block the API's deletion
//                                                      ("an API is not deleted while a policy grants it", DESIGN §4)
//   the ApiDefinitions using a policy as a JWT default  the policy's linked_by_apis. They do not block the policy's
//                                                      deletion: a policy usually grants the API it is the default
//                                                      of, and both blocking would deadlock deleting the pair. A
//                                                      deleted default policy is reported on the API instead
//                                                      (PolicyNotFound).
import type { Cache } from '../../kube/cache.ts';
import type { KubeObject } from '../../kube/object.ts';
import { objectKey } from '../../kube/object.ts';
import { JWT_POLICIES, POLICY_TARGETS, targetValue } from '../cluster/indexes.ts';
import type { ApiDefinitionObject, SecurityPolicyObject } from '../cluster/resources.ts';
import type { ApiReferenceKind } from '../translate/securitypolicy.ts';

export interface Link {
  name: string;
  namespace: string;
  kind: string;
}

export function policiesGranting(policies: Cache<SecurityPolicyObject>, kind: ApiReferenceKind, api: KubeObject): Link[] {
  return policies
    .byIndex(POLICY_TARGETS, targetValue(kind, api.metadata.namespace, api.metadata.name))
    .map((p) => ({ name: p.metadata.name, namespace: p.metadata.namespace ?? '', kind: 'SecurityPolicy' }))
    .sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}

export function apisUsingPolicy(apis: Cache<ApiDefinitionObject>, policy: KubeObject): Link[] {
  return apis
    .byIndex(JWT_POLICIES, objectKey(policy))
    .map((a) => ({ name: a.metadata.name, namespace: a.metadata.namespace ?? '', kind: 'ApiDefinition' }))
    .sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
}

export function describeLinks(links: Link[]): string[] {
  return links.map((l) => `${l.kind} ${l.namespace}/${l.name}`);
}
