// What an APIDescription names in the cluster, resolved from the informer caches: the SecurityPolicy developers
// request keys for (its pol_id; it must be synced), the API it documents (its id; it must be synced) and the
// ConfigMap holding its document. Used by the APIDescription controller (to report whether it can be published)
// and by the catalogue controller (to build the entries), so both say the same thing. Everything named must be
// synced through the same OperatorContext as the object publishing it. Throws WaitingError (not there yet) or
// InvalidSpecError (cannot work as written); never calls a gateway or dashboard.
import type { Cache } from '../../kube/cache.ts';
import { keyOf, type KubeObject } from '../../kube/object.ts';
import { contextKeyOf } from '../sync/context.ts';
import { InvalidSpecError, WaitingError } from '../sync/errors.ts';
import type { APIDescriptionObject } from './portal-resources.ts';
import type { ApiDefinitionObject, ConfigMapObject, OasApiDefinitionObject, SecurityPolicyObject } from '../cluster/resources.ts';
import { documentationPayload } from '../translate/portal.ts';

export interface PortalLookups {
  policies: Cache<SecurityPolicyObject>;
  apis: Cache<ApiDefinitionObject>;
  oas: Cache<OasApiDefinitionObject>;
  configMaps: Cache<ConfigMapObject>;
}

export interface ResolvedDescription {
  policyId: string;
  apiId: string | undefined;
  /** The documentation upload, when the description has a document. */
  document: { api_id: string; doc_type: string; documentation: string } | undefined;
}

type Ref = { name: string; namespace?: string | undefined };

/** `namespace/name` of the SecurityPolicy a description names (else the one the catalogue entry names). */
export function policyKeyOf(description: APIDescriptionObject, inline?: { ref: Ref | undefined; namespace: string | undefined }): string | undefined {
  const own = description.spec.policyRef;
  if (own) return keyOf(own.namespace || description.metadata.namespace, own.name);
  return inline?.ref ? keyOf(inline.ref.namespace || inline.namespace, inline.ref.name) : undefined;
}

/** `<kind>:<namespace>/<name>` of the API a description documents. */
export function apiTargetOf(description: APIDescriptionObject): string | undefined {
  const ref = description.spec.apiRef;
  return ref ? `${ref.kind ?? 'ApiDefinition'}:${keyOf(ref.namespace || description.metadata.namespace, ref.name)}` : undefined;
}

/** `namespace/name` of the ConfigMap holding a description's document. */
export function configMapKeyOfDescription(description: APIDescriptionObject): string | undefined {
  const ref = description.spec.documentation?.configMapRef;
  return ref ? keyOf(ref.namespace || description.metadata.namespace, ref.name) : undefined;
}

/**
 * Resolves a description for `owner` (the description itself, or the catalogue listing it: whose context counts).
 * `inline`: the catalogue entry's policyRef and policy_id, used when the description names no policy.
 */
export function resolveDescription(
  lookups: PortalLookups,
  description: APIDescriptionObject,
  owner: KubeObject & { spec?: { contextRef?: Ref | undefined } },
  inline?: { ref: Ref | undefined; namespace: string | undefined; policyId?: unknown },
): ResolvedDescription {
  const ownerContext = contextKeyOf(owner);
  const sameContext = (kind: string, key: string, target: KubeObject & { spec?: { contextRef?: Ref | undefined } }): void => {
    if (contextKeyOf(target) !== ownerContext)
      throw new InvalidSpecError(
        `${kind} ${key} is synced through another OperatorContext (${contextKeyOf(target) ?? 'the default'}) than ${owner.kind ?? 'this resource'} ${keyOf(owner.metadata.namespace, owner.metadata.name)}`,
      );
  };
  const name = description.spec.name;

  let policyId: string | undefined;
  const policyKey = policyKeyOf(description, inline);
  if (policyKey) {
    const policy = lookups.policies.get(policyKey);
    if (!policy) throw new WaitingError(`SecurityPolicy ${policyKey} (policyRef of "${name}") does not exist`, 'PolicyNotFound');
    sameContext('SecurityPolicy', policyKey, policy);
    policyId = policy.status?.pol_id;
    if (!policyId || policy.status?.latestTransaction?.status !== 'Successful')
      throw new WaitingError(`SecurityPolicy ${policyKey} (policyRef of "${name}") is not synced yet`, 'PolicyNotSynced');
  } else {
    const raw = (description.spec as { policy_id?: unknown }).policy_id ?? inline?.policyId;
    if (typeof raw === 'string' && raw) policyId = raw;
  }
  if (!policyId)
    throw new InvalidSpecError(`"${name}" missing policy_id: set spec.policyRef to the SecurityPolicy developers request keys for`, 'PolicyMissing');

  let apiId: string | undefined;
  const target = apiTargetOf(description);
  if (target) {
    const [kind, key] = target.split(/:(.*)/s) as [string, string];
    const api = kind === 'GwOasApiDefinition' ? lookups.oas.get(key) : lookups.apis.get(key);
    if (!api) throw new WaitingError(`${kind} ${key} (apiRef of "${name}") does not exist`, 'ApiNotFound');
    sameContext(kind, key, api);
    const status = api.status as { api_id?: string; id?: string; latestTransaction?: { status?: string } } | undefined;
    apiId = status?.api_id ?? status?.id;
    if (!apiId || status?.latestTransaction?.status !== 'Successful')
      throw new WaitingError(`${kind} ${key} (apiRef of "${name}") is not synced yet`, 'ApiNotSynced');
  }

  let configMapText: string | undefined;
  const configMapKey = configMapKeyOfDescription(description);
  if (configMapKey) {
    const keyName = description.spec.documentation!.configMapRef!.keyName;
    const configMap = lookups.configMaps.get(configMapKey);
    if (!configMap) throw new WaitingError(`ConfigMap ${configMapKey} (documentation of "${name}") does not exist`, 'ConfigMapNotFound');
    configMapText = configMap.data?.[keyName];
    if (configMapText === undefined)
      throw new WaitingError(`ConfigMap ${configMapKey} has no key ${keyName} (documentation of "${name}")`, 'ConfigMapNotFound');
  }
  const document = documentationPayload(description.spec, apiId ?? policyId, { configMapText });
  return { policyId, apiId, document };
}
