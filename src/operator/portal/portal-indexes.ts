// Secondary indexes of the portal kinds, so every "who names this?" question is a map lookup:
//   on PortalAPICatalogues   `<namespace>/<name>` of every APIDescription listed (DESCRIPTIONS) and of every
//                            SecurityPolicy an inline entry names (CATALOGUE_POLICIES)
//   on APIDescriptions       the SecurityPolicy (DESCRIPTION_POLICY), the API as `<kind>:<namespace>/<name>`
//                            (DESCRIPTION_API) and the ConfigMap (DESCRIPTION_CONFIG_MAP) it names
//   on all three             the OperatorContext they name (indexes.ts CONTEXT)
// and the question the SecurityPolicy controller asks: which catalogues publish this policy (Tyk keeps a
// policy a catalogue on a dashboard refers to).
import type { Cache } from '../../kube/cache.ts';
import { keyOf } from '../../kube/object.ts';
import { contextKeyOf } from '../sync/context.ts';
import { CONTEXT } from '../cluster/indexes.ts';
import { apiTargetOf, configMapKeyOfDescription, policyKeyOf } from './portal-entries.ts';
import type { APIDescriptionObject, PortalAPICatalogueObject, PortalConfigObject } from './portal-resources.ts';

export const DESCRIPTIONS = 'apiDescriptions';
export const CATALOGUE_POLICIES = 'cataloguePolicies';
export const DESCRIPTION_POLICY = 'descriptionPolicy';
export const DESCRIPTION_API = 'descriptionApi';
export const DESCRIPTION_CONFIG_MAP = 'descriptionConfigMap';

/** The APIDescription keys a catalogue lists (a ref's namespace defaults to the catalogue's). */
export function descriptionKeysOf(catalogue: PortalAPICatalogueObject): string[] {
  return [
    ...new Set(
      (catalogue.spec.apis ?? []).map((entry) => keyOf(entry.apiDescriptionRef.namespace || catalogue.metadata.namespace, entry.apiDescriptionRef.name)),
    ),
  ];
}

/**
 * The catalogues publishing a policy (`namespace/name`): naming it inline, or listing an APIDescription naming it.
 * Only catalogues on a dashboard (status.id) count: in ce mode nothing refers to the policy.
 */
export function cataloguesPublishingPolicy(
  caches: { descriptions: Cache<APIDescriptionObject>; catalogues: Cache<PortalAPICatalogueObject> },
  policyKey: string,
): string[] {
  const found = new Map<string, PortalAPICatalogueObject>();
  for (const c of caches.catalogues.byIndex(CATALOGUE_POLICIES, policyKey)) found.set(keyOf(c.metadata.namespace, c.metadata.name), c);
  for (const d of caches.descriptions.byIndex(DESCRIPTION_POLICY, policyKey)) {
    for (const c of caches.catalogues.byIndex(DESCRIPTIONS, keyOf(d.metadata.namespace, d.metadata.name)))
      found.set(keyOf(c.metadata.namespace, c.metadata.name), c);
  }
  return [...found]
    .filter(([, c]) => c.status?.id)
    .map(([key]) => `PortalAPICatalogue ${key}`)
    .sort();
}

export function addPortalIndexes(caches: {
  descriptions: Cache<APIDescriptionObject>;
  catalogues: Cache<PortalAPICatalogueObject>;
  configs: Cache<PortalConfigObject>;
}): void {
  const one = (value: string | undefined): string[] => (value ? [value] : []);
  const context = (object: Parameters<typeof contextKeyOf>[0]): string[] => one(contextKeyOf(object));
  caches.descriptions.addIndex(CONTEXT, context);
  caches.catalogues.addIndex(CONTEXT, context);
  caches.configs.addIndex(CONTEXT, context);
  caches.catalogues.addIndex(DESCRIPTIONS, descriptionKeysOf);
  caches.catalogues.addIndex(CATALOGUE_POLICIES, (c) => [
    ...new Set(
      (c.spec.apis ?? []).flatMap((entry) => (entry.policyRef ? [keyOf(entry.policyRef.namespace || c.metadata.namespace, entry.policyRef.name)] : [])),
    ),
  ]);
  caches.descriptions.addIndex(DESCRIPTION_POLICY, (d) => one(policyKeyOf(d)));
  caches.descriptions.addIndex(DESCRIPTION_API, (d) => one(apiTargetOf(d)));
  caches.descriptions.addIndex(DESCRIPTION_CONFIG_MAP, (d) => one(configMapKeyOfDescription(d)));
}
