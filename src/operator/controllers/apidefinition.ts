// ApiDefinition: a Classic API on the gateway. Its payload is translate/apidefinition.ts; its status adds the
// API's id, organisation and the policies granting it; a policy granting it blocks its deletion. An Ingress
// template (label gw.gw.io/template=true) is not synced: its status lists the Ingresses using it.
import type { Cache } from '../../kube/cache.ts';
import { FINALIZERS, GwResources, type ApiDefinitionObject, type SecurityPolicyObject } from '../resources.ts';
import type { SyncKind } from '../sync.ts';
import { apiDefinitionId, apiDefinitionPayload } from '../translate/apidefinition.ts';
import { templateStatusOf, type TemplateUsers } from '../ingress/template-status.ts';
import { describeLinks, policiesGranting } from './links.ts';

export function apiDefinitionKind(apis: Cache<ApiDefinitionObject>, policies: Cache<SecurityPolicyObject>, templateUsers: TemplateUsers = () => []): SyncKind<ApiDefinitionObject> {
  return {
    kind: 'ApiDefinition',
    resource: GwResources.apiDefinition,
    finalizer: FINALIZERS.apiDefinition,
    mirrorKind: 'apis',
    cache: apis,
    idOf: (o) => apiDefinitionId(o.metadata.namespace, o.metadata.name, o.spec),
    desired: (o, context) => apiDefinitionPayload(o.metadata.namespace, o.metadata.name, o.spec, context.gateway.env.org),
    kindStatus: (o, id, desired) => ({
      ...(id ?? o.status?.api_id ? { api_id: id ?? o.status?.api_id } : {}),
      ...(desired?.org_id ?? o.status?.orgId ? { orgId: (desired?.org_id) ?? o.status?.orgId } : {}),
      linked_by_policies: policiesGranting(policies, 'ApiDefinition', o),
    }),
    deletionBlockers: (o) => describeLinks(policiesGranting(policies, 'ApiDefinition', o)),
    templateStatus: (o) => templateStatusOf('ApiDefinition', o, templateUsers),
    get: (client, id, signal) => client.getApi(id, signal),
    put: (client, id, payload, signal) => client.putApi(id, payload, signal),
    remove: (client, id, signal) => client.deleteApi(id, signal),
  };
}
