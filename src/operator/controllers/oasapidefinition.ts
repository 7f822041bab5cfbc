// GwOasApiDefinition: an OAS API on the gateway, its document kept in a ConfigMap (document-api.ts: the part shared
// with GwStreamsApiDefinition); the document must hold x-gw-api-gateway. Status also shows the target URL. The
// resource's certificate settings (clientCertificate, customDomain, certificatePinning, mutualTLS) are written into
// the document (translate/oas-certificates.ts), the Secrets they name uploaded first (certificate-secrets.ts: a
// missing one is Ready=False SecretNotFound with a Warning Event, and it is reconciled again when it appears). An
// Ingress template (label gw.gw.io/template=true) is not synced: its status lists the Ingresses using it.
// spec.versioning is written into the document's info.versioning with each version's API id
// (translate/oas-versioning.ts); a version whose GwOasApiDefinition does not exist yet is waited for, and one a
// base still lists is not deleted.
import type { Cache } from '../../kube/cache.ts';
import { objectKey } from '../../kube/object.ts';
import { idFor } from '../sync/ids.ts';
import { OAS_VERSIONS } from '../cluster/indexes.ts';
import { FINALIZERS, GwResources, type ConfigMapObject, type OasApiDefinitionObject, type SecurityPolicyObject } from '../cluster/resources.ts';
import type { SyncKind } from '../sync/sync.ts';
import { parseOasDocument } from '../translate/oas.ts';
import { oasCertificateSecretReferences, withOasCertificates } from '../translate/oas-certificates.ts';
import type { CertificateSecrets } from '../sync/certificate-secrets.ts';
import { templateStatusOf, type TemplateUsers } from '../ingress/template-status.ts';
import type { ResolvedContext } from '../sync/context.ts';
import { WaitingError } from '../sync/errors.ts';
import { withOasVersioning, type VersionReference } from '../translate/oas-versioning.ts';
import { documentApiKind } from './document-api.ts';

export function oasApiDefinitionKind(
  oas: Cache<OasApiDefinitionObject>,
  configMaps: Cache<ConfigMapObject>,
  policies: Cache<SecurityPolicyObject>,
  secrets: CertificateSecrets,
  templateUsers: TemplateUsers = () => [],
): SyncKind<OasApiDefinitionObject> {
  /** A version's API id: the referenced resource's synced id, else the id it will sync under. */
  const versionId = (reference: VersionReference, context: ResolvedContext): string => {
    const version = oas.get(`${reference.namespace}/${reference.name}`);
    if (!version) throw new WaitingError(`GwOasApiDefinition ${reference.namespace}/${reference.name} (${reference.field}) does not exist`);
    return version.status?.id ?? kind.idOf(version, context);
  };
  const kind = documentApiKind({
    kind: 'GwOasApiDefinition',
    resource: GwResources.oasApiDefinition,
    finalizer: FINALIZERS.oasApiDefinition,
    cache: oas,
    configMaps,
    policies,
    parse: parseOasDocument,
    defaultId: (o) => idFor(o.metadata.namespace, o.metadata.name),
    finish: async (o, document, context, signal) => {
      const certificates = await secrets.resolve(o.metadata.namespace ?? 'default', oasCertificateSecretReferences(o.spec), context.gateway, signal);
      const namespace = o.metadata.namespace ?? 'default';
      return withOasVersioning(
        withOasCertificates(document, o.spec, (name) => certificates.get(name)!),
        o.spec.versioning,
        namespace,
        (reference) => versionId(reference, context),
      );
    },
    summary: ['name', 'domain', 'listenPath', 'targetURL', 'enabled'],
    templateStatus: (o) => templateStatusOf('GwOasApiDefinition', o, templateUsers),
  });
  // As Tyk Operator: a version is not deleted while a base API still lists it.
  const listedBy = (o: OasApiDefinitionObject): string[] =>
    oas
      .byIndex(OAS_VERSIONS, objectKey(o))
      .filter((base) => !base.metadata.deletionTimestamp)
      .map((base) => `GwOasApiDefinition ${base.metadata.namespace}/${base.metadata.name} (spec.versioning.versions)`);
  /** Tyk Operator's versioningStatus on a version: the (first) base listing it, and whether it is that base's default. */
  const versioningStatus = (o: OasApiDefinitionObject): Record<string, unknown> => {
    const base = oas.byIndex(OAS_VERSIONS, objectKey(o)).find((b) => !b.metadata.deletionTimestamp);
    if (!base) return {};
    const namespace = base.metadata.namespace ?? 'default';
    const entry = (base.spec.versioning?.versions ?? []).find(
      (v) => `${v.gwOasApiDefinitionRef.namespace ?? namespace}/${v.gwOasApiDefinitionRef.name}` === objectKey(o),
    );
    return {
      versioningStatus: {
        isVersionedAPI: true,
        baseAPIVersionContextRef: { name: base.metadata.name, namespace },
        isDefaultVersion: entry !== undefined && base.spec.versioning?.default === entry.name,
      },
    };
  };
  return {
    ...kind,
    kindStatus: (o, id, desired) => ({ ...kind.kindStatus(o, id, desired), ...versioningStatus(o) }),
    deletionBlockers: (o) => [...kind.deletionBlockers(o), ...listedBy(o)],
  };
}
