// ApiDefinition: a Classic API on the gateway. Its payload is translate/apidefinition.ts, after the controller
// resolved what the spec names in the cluster:
//   certificate Secrets (certificate_secret_names, *_refs)   uploaded to the API's gateway (certificate-secrets.ts);
//                                                            missing: Ready=False SecretNotFound and a Warning
//                                                            Event naming it, reconciled again when it appears;
//                                                            unusable: InvalidSecret
//   jwt_default_policies <namespace>/<name>                  the SecurityPolicy must exist (PolicyNotFound) and use
//                                                            the same context; its id (spec.id or the derived one)
//                                                            goes in the payload. Not its sync: a policy granting
//                                                            this API waits for it, so waiting here would deadlock.
// Its status adds the API's id, organisation and the policies granting it; a policy granting it blocks its deletion.
// An Ingress template (label gw.gw.io/template=true) is not synced: its status lists the Ingresses using it. A
// graph_ref (GraphQL federation) is resolved into the graphql section (translate/graph-ref.ts) and never sent itself.
import { specGraphRef } from '../../domain/crd/apidefinition.ts';
import type { Cache } from '../../kube/cache.ts';
import { keyOf } from '../../kube/object.ts';
import type { CertificateSecrets } from '../sync/certificate-secrets.ts';
import { contextKeyOf } from '../sync/context.ts';
import { InvalidSpecError, WaitingError } from '../sync/errors.ts';
import { FINALIZERS, GwResources, type ApiDefinitionObject, type SecurityPolicyObject } from '../cluster/resources.ts';
import type { SyncKind } from '../sync/sync.ts';
import { apiDefinitionId, apiDefinitionPayload, certificateSecretReferences } from '../translate/apidefinition.ts';
import { graphqlFromGraphRef, type GraphLookups } from '../translate/graph-ref.ts';
import { policyId } from '../translate/securitypolicy.ts';
import { templateStatusOf, type TemplateUsers } from '../ingress/template-status.ts';
import { describeLinks, policiesGranting } from './links.ts';

export function apiDefinitionKind(
  apis: Cache<ApiDefinitionObject>,
  policies: Cache<SecurityPolicyObject>,
  secrets: CertificateSecrets,
  templateUsers: TemplateUsers = () => [],
  graphs?: GraphLookups,
): SyncKind<ApiDefinitionObject> {
  const jwtPolicy = (api: ApiDefinitionObject, namespace: string, name: string): string => {
    const key = keyOf(namespace, name);
    const policy = policies.get(key);
    if (!policy) throw new WaitingError(`spec.jwt_default_policies: SecurityPolicy ${key} does not exist`, 'PolicyNotFound');
    if (contextKeyOf(policy) !== contextKeyOf(api)) {
      throw new InvalidSpecError(
        `spec.jwt_default_policies: SecurityPolicy ${key} is synced through another OperatorContext (${contextKeyOf(policy) ?? 'the default'}) than this API`,
      );
    }
    return policyId(namespace, name, policy.spec);
  };
  return {
    kind: 'ApiDefinition',
    resource: GwResources.apiDefinition,
    finalizer: FINALIZERS.apiDefinition,
    mirrorKind: 'apis',
    cache: apis,
    idOf: (o) => apiDefinitionId(o.metadata.namespace, o.metadata.name, o.spec),
    desired: async (o, context, _id, signal) => {
      const namespace = o.metadata.namespace ?? 'default';
      const certificates = await secrets.resolve(namespace, certificateSecretReferences(o.spec), context.gateway, signal);
      const resolved = {
        certificate: (name: string) => certificates.get(name)!,
        policy: (policyNamespace: string, name: string) => jwtPolicy(o, policyNamespace, name),
      };
      if (!specGraphRef(o.spec) || !graphs) return apiDefinitionPayload(o.metadata.namespace, o.metadata.name, o.spec, context.gateway.env.org, resolved);
      const { graph_ref: _graphRef, ...spec } = o.spec;
      return apiDefinitionPayload(
        o.metadata.namespace,
        o.metadata.name,
        { ...spec, graphql: graphqlFromGraphRef(o.metadata.namespace, o.spec, graphs) },
        context.gateway.env.org,
        resolved,
      );
    },
    kindStatus: (o, id, desired) => ({
      ...((id ?? o.status?.api_id) ? { api_id: id ?? o.status?.api_id } : {}),
      ...((desired?.org_id ?? o.status?.orgId) ? { orgId: desired?.org_id ?? o.status?.orgId } : {}),
      linked_by_policies: policiesGranting(policies, 'ApiDefinition', o),
      ...(specGraphRef(o.spec) && o.spec.graphql?.execution_mode === 'subgraph' ? { linked_to_subgraph: specGraphRef(o.spec) } : {}),
    }),
    deletionBlockers: (o) => describeLinks(policiesGranting(policies, 'ApiDefinition', o)),
    templateStatus: (o) => templateStatusOf('ApiDefinition', o, templateUsers),
    get: (client, id, signal) => client.getApi(id, signal),
    put: (client, id, payload, signal) => client.putApi(id, payload, signal),
    remove: (client, id, signal) => client.deleteApi(id, signal),
  };
}
