// GwOasApiDefinition spec.versioning -> the document's x-gw-api-gateway.info.versioning, as Tyk Operator writes
// x-tyk-api-gateway.info.versioning: the resource's settings, and each version's GwOasApiDefinition reference
// (namespace defaults to the base's) replaced by that API's id. The spec's settings replace the document's.
import type { Definition } from '../../mgmt/client.ts';
import type { z } from 'zod';
import type { GwOasApiDefinitionSpec } from '../../domain/crd/oasapidefinition.ts';

const X = 'x-gw-api-gateway';

type Versioning = NonNullable<z.infer<typeof GwOasApiDefinitionSpec>['versioning']>;

/** A version's reference: which GwOasApiDefinition, and the spec field naming it (for messages). */
export interface VersionReference {
  namespace: string;
  name: string;
  field: string;
}

/** The GwOasApiDefinitions a base API's versions name (empty without versioning). */
export function oasVersionReferences(versioning: Versioning | undefined, namespace: string): VersionReference[] {
  return (versioning?.versions ?? []).map((version, index) => ({
    namespace: version.gwOasApiDefinitionRef.namespace ?? namespace,
    name: version.gwOasApiDefinitionRef.name,
    field: `spec.versioning.versions[${index}].gwOasApiDefinitionRef`,
  }));
}

/** `idOf` gives the API id of each reference (it throws when the resource cannot be resolved yet). */
export function withOasVersioning(
  document: Definition,
  versioning: Versioning | undefined,
  namespace: string,
  idOf: (reference: VersionReference) => string,
): Definition {
  if (!versioning) return document;
  const references = oasVersionReferences(versioning, namespace);
  const versions = (versioning.versions ?? []).map((version, index) => ({ name: version.name, id: idOf(references[index]!) }));
  const settings = Object.fromEntries(
    Object.entries({
      enabled: versioning.enabled,
      name: versioning.name,
      default: versioning.default,
      location: versioning.location,
      key: versioning.key,
      fallbackToDefault: versioning.fallbackToDefault,
      stripVersioningData: versioning.stripVersioningData,
      urlVersioningPattern: versioning.urlVersioningPattern,
    }).filter(([, value]) => value !== undefined),
  );
  const ext = (document[X] ?? {}) as Record<string, unknown> & { info?: Record<string, unknown> };
  return { ...document, [X]: { ...ext, info: { ...ext.info, versioning: { ...settings, versions } } } };
}
