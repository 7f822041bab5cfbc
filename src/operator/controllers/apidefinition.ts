// ApiDefinition: a Classic API on the gateway. Its payload is translate/apidefinition.ts; its status adds the
// API's id, organisation and the policies granting it; a policy granting it blocks its deletion. An Ingress
// template (label gw.gw.io/template=true) is not synced: its status lists the Ingresses using it. A graph_ref
// (GraphQL federation) is resolved into the graphql section (translate/graph-ref.ts) and never sent itself.
import type { Cache } from '../../kube/cache.ts';
import { FINALIZERS, GwResources, type ApiDefinitionObject, type SecurityPolicyObject } from '../resources.ts';
import type { SyncKind } from '../sync.ts';
import { apiDefinitionId, apiDefinitionPayload } from '../translate/apidefinition.ts';
import { graphqlFromGraphRef, type GraphLookups } from '../translate/graph-ref.ts';
import { templateStatusOf, type TemplateUsers } from '../ingress/template-status.ts';
import { describeLinks, policiesGranting } from './links.ts';

export function apiDefinitionKind(apis: Cache<ApiDefinitionObject>, policies: Cache<SecurityPolicyObject>, templateUsers: TemplateUsers = () => [], graphs?: GraphLookups): SyncKind<ApiDefinitionObject> {
  return {
    kind: 'ApiDefinition',
    resource: GwResources.apiDefinition,
    finalizer: FINALIZERS.apiDefinition,
    mirrorKind: 'apis',
    cache: apis,
    idOf: (o) => apiDefinitionId(o.metadata.namespace, o.metadata.name, o.spec),
    desired: (o, context) => {
      if (!o.spec.graph_ref || !graphs) return apiDefinitionPayload(o.metadata.namespace, o.metadata.name, o.spec, context.gateway.env.org);
      const { graph_ref: _graphRef, ...spec } = o.spec;
      return apiDefinitionPayload(o.metadata.namespace, o.metadata.name, { ...spec, graphql: graphqlFromGraphRef(o.metadata.namespace, o.spec, graphs) }, context.gateway.env.org);
    },
    kindStatus: (o, id, desired) => ({
      ...(id ?? o.status?.api_id ? { api_id: id ?? o.status?.api_id } : {}),
      ...(desired?.org_id ?? o.status?.orgId ? { orgId: (desired?.org_id) ?? o.status?.orgId } : {}),
      linked_by_policies: policiesGranting(policies, 'ApiDefinition', o),
      ...(o.spec.graph_ref && o.spec.graphql?.execution_mode === 'subgraph' ? { linked_to_subgraph: o.spec.graph_ref } : {}),
    }),
    deletionBlockers: (o) => describeLinks(policiesGranting(policies, 'ApiDefinition', o)),
    templateStatus: (o) => templateStatusOf('ApiDefinition', o, templateUsers),
    get: (client, id, signal) => client.getApi(id, signal),
    put: (client, id, payload, signal) => client.putApi(id, payload, signal),
    remove: (client, id, signal) => client.deleteApi(id, signal),
  };
}
