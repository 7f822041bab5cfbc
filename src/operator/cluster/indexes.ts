// Secondary indexes the controllers look resources up by, and the values they index under. They are what makes
// every cross-resource question a map lookup: which policies grant this API, which OAS APIs read this ConfigMap,
// which resources use this OperatorContext, which resources name this certificate Secret, which APIs use this
// policy as a JWT default. OAS and Streams APIs keep their documents in ConfigMaps alike (DocumentApiObject).
import type { Cache } from '../../kube/cache.ts';
import { specGraphRef } from '../../domain/crd/apidefinition.ts';
import { keyOf } from '../../kube/object.ts';
import { contextKeyOf } from '../sync/context.ts';
import type { ApiDefinitionObject, OasApiDefinitionObject, SecurityPolicyObject, StreamsApiDefinitionObject, SuperGraphObject } from './resources.ts';
import { certificateSecretReferences, jwtPolicyResources } from '../translate/apidefinition.ts';
import { oasCertificateSecretReferences } from '../translate/oas-certificates.ts';
import { oasVersionReferences } from '../translate/oas-versioning.ts';
import { apiReferences, type ApiReferenceKind } from '../translate/securitypolicy.ts';

/** On policies: `<kind>:<namespace>/<name>` of every API resource the policy names. */
export const POLICY_TARGETS = 'targets';
/** On every synced kind: `<namespace>/<name>` of the OperatorContext it names. */
export const CONTEXT = 'context';
/** On OAS and Streams APIs: `<namespace>/<name>` of the ConfigMap holding the document. */
export const CONFIG_MAP = 'configMap';

/** On ApiDefinitions and GwOasApiDefinitions: `<namespace>/<name>` of every certificate Secret they name. */
export const SECRETS = 'secrets';
/** On ApiDefinitions: `<namespace>/<name>` of every SecurityPolicy jwt_default_policies names. */
export const JWT_POLICIES = 'jwtPolicies';

/** On GwOasApiDefinitions: `<namespace>/<name>` of every GwOasApiDefinition spec.versioning.versions names. */
export const OAS_VERSIONS = 'oasVersions';

/** On ApiDefinitions: `SubGraph:<namespace>/<name>` or `SuperGraph:<namespace>/<name>` of their graph_ref. */
export const GRAPH_REF = 'graphRef';
/** On SuperGraphs: `<namespace>/<name>` of every SubGraph they compose. */
export const SUBGRAPH_REFS = 'subgraphRefs';

export function graphRefValue(kind: 'SubGraph' | 'SuperGraph', namespace: string | undefined, name: string): string {
  return `${kind}:${keyOf(namespace, name)}`;
}

/** The graph an ApiDefinition names: a SuperGraph in supergraph mode, else a SubGraph (same namespace). */
export function graphRefOf(api: ApiDefinitionObject): string | undefined {
  const ref = specGraphRef(api.spec);
  if (!ref) return undefined;
  return graphRefValue(api.spec.graphql?.execution_mode === 'supergraph' ? 'SuperGraph' : 'SubGraph', api.metadata.namespace, ref);
}

/** The SubGraph keys a SuperGraph composes (a ref's namespace defaults to the SuperGraph's). */
export function subgraphKeysOf(supergraph: SuperGraphObject): string[] {
  return (supergraph.spec.subgraph_refs ?? []).map((r) => keyOf(r.namespace || supergraph.metadata.namespace, r.name));
}

export function targetValue(kind: ApiReferenceKind, namespace: string | undefined, name: string): string {
  return `${kind}:${keyOf(namespace, name)}`;
}

/** A resource whose API document is kept in a ConfigMap key. */
export type DocumentApiObject = OasApiDefinitionObject | StreamsApiDefinitionObject;

/** The ConfigMap key a document API names, and the spec field naming it (for messages). */
export function configMapRefOf(object: DocumentApiObject): { ref: { name: string; namespace?: string | undefined; keyName: string }; field: string } {
  return 'gwStreams' in object.spec
    ? { ref: object.spec.gwStreams.configmapRef, field: 'spec.gwStreams.configmapRef' }
    : { ref: object.spec.gwOAS.configmapRef, field: 'spec.gwOAS.configmapRef' };
}

export function configMapKeyOf(object: DocumentApiObject): string {
  const { ref } = configMapRefOf(object);
  return keyOf(ref.namespace || object.metadata.namespace, ref.name);
}

export function addIndexes(caches: {
  apis: Cache<ApiDefinitionObject>;
  oas: Cache<OasApiDefinitionObject>;
  policies: Cache<SecurityPolicyObject>;
  supergraphs?: Cache<SuperGraphObject>;
  streams?: Cache<StreamsApiDefinitionObject>;
}): void {
  const context = (object: {
    spec: { contextRef?: { name: string; namespace?: string | undefined } | undefined };
    metadata: { namespace?: string; name: string };
  }): string[] => {
    const key = contextKeyOf(object);
    return key ? [key] : [];
  };
  caches.apis.addIndex(CONTEXT, context);
  caches.oas.addIndex(CONTEXT, context);
  caches.policies.addIndex(CONTEXT, context);
  caches.oas.addIndex(CONFIG_MAP, (o) => [configMapKeyOf(o)]);
  caches.streams?.addIndex(CONTEXT, context);
  caches.streams?.addIndex(CONFIG_MAP, (o) => [configMapKeyOf(o)]);
  const secrets = (namespace: string | undefined, names: { name: string }[]): string[] => [...new Set(names.map((r) => keyOf(namespace ?? 'default', r.name)))];
  caches.apis.addIndex(SECRETS, (o) => secrets(o.metadata.namespace, certificateSecretReferences(o.spec)));
  caches.oas.addIndex(SECRETS, (o) => secrets(o.metadata.namespace, oasCertificateSecretReferences(o.spec)));
  caches.oas.addIndex(OAS_VERSIONS, (o) => oasVersionReferences(o.spec.versioning, o.metadata.namespace ?? 'default').map((r) => keyOf(r.namespace, r.name)));
  caches.apis.addIndex(JWT_POLICIES, (o) => jwtPolicyResources(o.spec));
  caches.apis.addIndex(GRAPH_REF, (o) => {
    const ref = graphRefOf(o);
    return ref ? [ref] : [];
  });
  caches.supergraphs?.addIndex(SUBGRAPH_REFS, subgraphKeysOf);
  caches.policies.addIndex(POLICY_TARGETS, (p) => apiReferences(p.metadata.namespace, p.spec).map((r) => targetValue(r.kind, r.namespace, r.name)));
}
