// The SecurityPolicies that name an API resource: its status back-links (linked_by_policies) and what blocks its
// deletion ("an API is not deleted while a policy grants it", DESIGN.md §4).
import type { Cache } from '../../kube/cache.ts';
import type { KubeObject } from '../../kube/object.ts';
import { POLICY_TARGETS, targetValue } from '../indexes.ts';
import type { SecurityPolicyObject } from '../resources.ts';
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

export function describeLinks(links: Link[]): string[] {
  return links.map((l) => `${l.kind} ${l.namespace}/${l.name}`);
}
