// GwOasApiDefinition: an OAS API on the gateway, its document kept in a ConfigMap (found by namespace AND name;
// the anchor matched names only). Waits, with a condition, while the ConfigMap is missing; refuses a key that is
// absent or a document without x-gw-api-gateway. Status shows the document's name, domain, listen path, target and
// enabled flag (the kubectl get columns), the ConfigMap value's hash and the policies granting it. The resource's
// certificate settings (clientCertificate, customDomain, certificatePinning, mutualTLS) are written into the
// document (translate/oas-certificates.ts), the Secrets they name uploaded first (certificate-secrets.ts: a missing
// one is Ready=False SecretNotFound with a Warning Event, and it is reconciled again when it appears). An Ingress
// template (label gw.gw.io/template=true) is not synced: its status lists the Ingresses using it.
import type { Cache } from '../../kube/cache.ts';
import type { Definition } from '../../mgmt/client.ts';
import { InvalidSpecError, WaitingError } from '../errors.ts';
import { contentHash } from '../../api/canonical-json.ts';
import { idFor } from '../ids.ts';
import { configMapKeyOf } from '../indexes.ts';
import { FINALIZERS, GwResources, type ConfigMapObject, type OasApiDefinitionObject, type SecurityPolicyObject } from '../resources.ts';
import type { SyncKind } from '../sync.ts';
import { oasApiId, oasPayload, oasSummary, parseOasDocument } from '../translate/oas.ts';
import { oasCertificateSecretReferences, withOasCertificates } from '../translate/oas-certificates.ts';
import type { CertificateSecrets } from '../certificate-secrets.ts';
import { templateStatusOf, type TemplateUsers } from '../ingress/template-status.ts';
import { describeLinks, policiesGranting } from './links.ts';

const SUMMARY = ['name', 'domain', 'listenPath', 'targetURL', 'enabled'] as const;

export function oasApiDefinitionKind(oas: Cache<OasApiDefinitionObject>, configMaps: Cache<ConfigMapObject>, policies: Cache<SecurityPolicyObject>, secrets: CertificateSecrets, templateUsers: TemplateUsers = () => []): SyncKind<OasApiDefinitionObject> {
  /** The ConfigMap value: throws WaitingError (no ConfigMap) or InvalidSpecError (no such key). */
  const source = (o: OasApiDefinitionObject): { text: string; where: string } => {
    const cmKey = configMapKeyOf(o);
    const keyName = o.spec.gwOAS.configmapRef.keyName;
    const configMap = configMaps.get(cmKey);
    if (!configMap) throw new WaitingError(`ConfigMap ${cmKey} (spec.gwOAS.configmapRef) does not exist`);
    const text = configMap.data?.[keyName];
    if (text === undefined) throw new InvalidSpecError(`ConfigMap ${cmKey} has no key ${keyName} (spec.gwOAS.configmapRef.keyName)`);
    return { text, where: `ConfigMap ${cmKey} key ${keyName}` };
  };
  const document = (o: OasApiDefinitionObject): Definition => {
    const { text, where } = source(o);
    return parseOasDocument(text, where);
  };
  return {
    kind: 'GwOasApiDefinition',
    resource: GwResources.oasApiDefinition,
    finalizer: FINALIZERS.oasApiDefinition,
    mirrorKind: 'oas',
    cache: oas,
    idOf: (o) => {
      try {
        return oasApiId(o.metadata.namespace, o.metadata.name, document(o));
      } catch {
        return o.status?.id ?? idFor(o.metadata.namespace, o.metadata.name); // the document's problem is reported by desired()
      }
    },
    desired: async (o, context, id, signal) => {
      const parsed = document(o);
      const certificates = await secrets.resolve(o.metadata.namespace ?? 'default', oasCertificateSecretReferences(o.spec), context.gateway, signal);
      return oasPayload(withOasCertificates(parsed, o.spec, (name) => certificates.get(name)!), id, context.gateway.env.org);
    },
    kindStatus: (o, id, desired) => {
      const previous = Object.fromEntries(SUMMARY.filter((k) => o.status?.[k] !== undefined).map((k) => [k, o.status![k]]));
      let configMapHash = o.status?.latestConfigMapHash;
      try {
        configMapHash = contentHash(source(o).text);
      } catch {
        // missing ConfigMap or key: keep what was last synced
      }
      return {
        ...(desired ? oasSummary(desired) : previous),
        ...(id ?? o.status?.id ? { id: id ?? o.status?.id } : {}),
        ...(configMapHash ? { latestConfigMapHash: configMapHash } : {}),
        linkedByPolicies: policiesGranting(policies, 'GwOasApiDefinition', o),
      };
    },
    deletionBlockers: (o) => describeLinks(policiesGranting(policies, 'GwOasApiDefinition', o)),
    templateStatus: (o) => templateStatusOf('GwOasApiDefinition', o, templateUsers),
    get: (client, id, signal) => client.getOasApi(id, signal),
    put: (client, id, payload, signal) => client.putOasApi(id, payload, signal),
    remove: (client, id, signal) => client.deleteOasApi(id, signal),
  };
}
