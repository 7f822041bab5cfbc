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
// An Ingress template (label gw.gw.io/template=true) is not synced: its status lists the Ingresses using it.
import type { Cache } from '../../kube/cache.ts';
import { keyOf } from '../../kube/object.ts';
import type { CertificateSecrets } from '../certificate-secrets.ts';
import { contextKeyOf } from '../context.ts';
import { InvalidSpecError, WaitingError } from '../errors.ts';
import { FINALIZERS, GwResources, type ApiDefinitionObject, type SecurityPolicyObject } from '../resources.ts';
import type { SyncKind } from '../sync.ts';
import { apiDefinitionId, apiDefinitionPayload, certificateSecretReferences } from '../translate/apidefinition.ts';
import { policyId } from '../translate/securitypolicy.ts';
import { templateStatusOf, type TemplateUsers } from '../ingress/template-status.ts';
import { describeLinks, policiesGranting } from './links.ts';

export function apiDefinitionKind(apis: Cache<ApiDefinitionObject>, policies: Cache<SecurityPolicyObject>, secrets: CertificateSecrets, templateUsers: TemplateUsers = () => []): SyncKind<ApiDefinitionObject> {
  const jwtPolicy = (api: ApiDefinitionObject, namespace: string, name: string): string => {
    const key = keyOf(namespace, name);
    const policy = policies.get(key);
    if (!policy) throw new WaitingError(`spec.jwt_default_policies: SecurityPolicy ${key} does not exist`, 'PolicyNotFound');
    if (contextKeyOf(policy) !== contextKeyOf(api)) {
      throw new InvalidSpecError(`spec.jwt_default_policies: SecurityPolicy ${key} is synced through another OperatorContext (${contextKeyOf(policy) ?? 'the default'}) than this API`);
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
      return apiDefinitionPayload(o.metadata.namespace, o.metadata.name, o.spec, context.gateway.env.org, {
        certificate: (name) => certificates.get(name)!,
        policy: (policyNamespace, name) => jwtPolicy(o, policyNamespace, name),
      });
    },
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
